// Files that may hold secrets (cached credentials, kubeconfigs with tokens): directories 0700, files 0600,
// written atomically (DESIGN.md §5). Errors carry paths and system error codes, never file content.

import {randomBytes} from 'node:crypto'
import {chmod, mkdir, open, readFile, rename, rm, stat, type FileHandle} from 'node:fs/promises'
import path from 'node:path'
import {CpcredError} from '../core/errors.js'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * Creates `dir` (and missing parents) private to the user, and narrows the leaf to 0700 when it already
 * exists with other modes: a directory someone else can list or enter exposes the names and, with a lax
 * umask in the past, possibly the files in it.
 *
 * A leaf owned by another user is refused, not fixed: whoever owns a directory can rename, replace and
 * plant files in it whatever their modes, so secrets kept there are theirs to read or swap (a planted
 * cache entry would make cpcred act as an identity of their choosing). Fixing it would take a chown, which
 * only root can do, and root silently taking over a user's directory (sudo with the user's HOME) would
 * break that user's own cpcred. The user decides instead.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, {recursive: true, mode: PRIVATE_DIR_MODE})
  } catch (error) {
    // mkdir -p fails with EEXIST when the path is a file; the stat below gives the clearer message.
    if (errorCode(error) !== 'EEXIST') throw error
  }
  const info = await stat(dir)
  if (!info.isDirectory()) {
    throw new CpcredError(`${dir} exists but is not a directory`, {
      hint: 'Move the file away, or choose another location for cpcred files.',
    })
  }
  const uid = process.getuid?.()
  if (uid !== undefined && info.uid !== uid) {
    throw new CpcredError(
      `${dir} belongs to another user (uid ${info.uid}), so cpcred will not keep private files in it`,
      {hint: 'Remove the directory, or choose a location of your own (for the cache: XDG_CACHE_HOME).'},
    )
  }
  if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(dir, PRIVATE_DIR_MODE)
}

/**
 * Replaces `file` with `content` so that a reader sees either the old file or the whole new one, never a
 * part: the content goes to a new sibling temp file (O_EXCL, 0600, so no other process can have it open),
 * is flushed to disk, and is renamed over the target. The target ends up 0600 whatever mode it had. On any
 * failure the temp file is removed and the target is left as it was. The directory must exist (see
 * ensurePrivateDir); the temp file lives beside the target because rename is only atomic within one
 * filesystem.
 */
export async function writePrivateFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file)
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`)
  let handle: FileHandle | undefined
  let created = false
  try {
    handle = await open(temp, 'wx', PRIVATE_FILE_MODE)
    created = true
    await handle.writeFile(content)
    // Without it a crash after the rename can leave an empty or partial target on some filesystems.
    await handle.sync()
    await handle.close()
    handle = undefined
    await rename(temp, file)
  } catch (error) {
    await handle?.close().catch(() => undefined)
    // Only our own temp file: on EEXIST the name belongs to someone else.
    if (created) await rm(temp, {force: true}).catch(() => undefined)
    throw error
  }
  await syncDirectory(dir)
}

/** The file's text, or undefined when it (or a directory on its path) does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw error
  }
}

/** The system error code (ENOENT, EACCES, …) of a Node error, if any. */
export function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

// Makes the rename itself durable. Best effort: some platforms and filesystems cannot fsync a directory,
// and the file is already complete either way.
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // The write already succeeded; only its durability across a power loss is in question.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}
