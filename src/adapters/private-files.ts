// The one rule for files cpcred reads back (credential cache entries, answers, profile snapshots, hub
// summaries, completion lists): a regular file, owned by this user, with no group or world access,
// opened without following a symlink. Anything else was not written by cpcred for this user (a
// planted link, a file someone made readable or swapped in) and is ignored, never trusted; the next
// write replaces it (writeFileAtomic's private mode renames over the path, never through a link).
import {constants, type Stats} from 'node:fs'
import {open} from 'node:fs/promises'

/** Whether an fstat of an opened file shows a private file of this user. */
export function isPrivateFile(info: Pick<Stats, 'isFile' | 'uid' | 'mode'>): boolean {
  const uid = process.getuid?.()
  return info.isFile() && (uid === undefined || info.uid === uid) && (info.mode & 0o077) === 0
}

/** Flags that open a file for reading without following a link or waiting on a FIFO. */
export const PRIVATE_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * The text of a private file of this user; undefined when there is nothing there, or when what is
 * there fails the rule (then it is ignored, as if absent). Other errors (EACCES on the directory,
 * EIO) are thrown for the caller to report.
 */
export async function readPrivateFile(
  file: string,
  onIgnored?: (reason: string) => void,
): Promise<string | undefined> {
  let handle
  try {
    handle = await open(file, PRIVATE_READ_FLAGS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // ELOOP: a symlink (O_NOFOLLOW); ENXIO: a socket or a FIFO without a writer.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'ELOOP' || code === 'ENXIO') {
      onIgnored?.(code === 'ELOOP' ? 'it is a symbolic link' : 'it is not a regular file')
      return undefined
    }
    throw error
  }
  try {
    const info = await handle.stat()
    if (!isPrivateFile(info)) {
      onIgnored?.(
        !info.isFile()
          ? 'it is not a regular file'
          : info.uid !== process.getuid?.()
            ? `it belongs to another user (uid ${info.uid})`
            : `others may read or write it (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')})`,
      )
      return undefined
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}
