// The one rule for files cpcred reads back (credential cache entries, answers, profile snapshots, hub
// summaries, completion lists): a regular file, owned by this user, with no group or world access,
// opened without following a symlink. Anything else was not written by cpcred for this user (a
// planted link, a file someone made readable or swapped in) and is ignored, never trusted; the next
// write replaces it (writeFileAtomic's private mode renames over the path, never through a link).
import {closeSync, constants, fstatSync, openSync, readFileSync, type Stats} from 'node:fs'

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
  // Read synchronously: these files are a few kilobytes on a local disk, and a trip through
  // libuv's thread pool for each of the four calls costs more than the calls (a fan-out reads one
  // per target).
  return readPrivateFileSync(file, onIgnored)
}

/** readPrivateFile for callers that cannot wait (the answer fast path). */
export function readPrivateFileSync(file: string, onIgnored?: (reason: string) => void): string | undefined {
  let fd: number
  try {
    fd = openSync(file, PRIVATE_READ_FLAGS)
  } catch (error) {
    const ignored = ignoredOpen(error)
    if (ignored === false) throw error
    if (ignored) onIgnored?.(ignored)
    return undefined
  }
  try {
    const info = fstatSync(fd)
    if (!isPrivateFile(info)) {
      onIgnored?.(whyNotPrivate(info))
      return undefined
    }
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

/**
 * What a failed open means: undefined for nothing there, a reason for something there that is
 * ignored, false for an error to throw.
 */
function ignoredOpen(error: unknown): string | undefined | false {
  const code = (error as NodeJS.ErrnoException).code
  // ELOOP: a symlink (O_NOFOLLOW); ENXIO: a socket or a FIFO without a writer.
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
  if (code === 'ELOOP') return 'it is a symbolic link'
  if (code === 'ENXIO') return 'it is not a regular file'
  return false
}

function whyNotPrivate(info: Pick<Stats, 'isFile' | 'uid' | 'mode'>): string {
  return !info.isFile()
    ? 'it is not a regular file'
    : info.uid !== process.getuid?.()
      ? `it belongs to another user (uid ${info.uid})`
      : `others may read or write it (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')})`
}
