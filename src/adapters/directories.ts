// Directories cpcred makes: the private 0700 ones its own files live in (cache, exec's temporary
// kubeconfigs) and the ones a user names for output (exec --output-dir, reports). Synchronous: a
// few stat and mkdir calls on a local disk, where libuv's thread pool would cost more than the
// calls, and a warm `cpcred exec` would start that pool only for them. No node:fs/promises here, so
// that the answer fast path (src/cli/answer.ts) does not load it.
import {chmodSync, mkdirSync, statSync} from 'node:fs'
import path from 'node:path'
import {CpcredError} from '../core/errors.js'

const PRIVATE_DIR_MODE = 0o700

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
export function ensurePrivateDir(dir: string): void {
  makeMissingDirectories(dir, PRIVATE_DIR_MODE)
  const info = statSync(dir)
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
  if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE)
}

/**
 * Creates `dir` and whatever parents are missing, 0700 (what goes in may be a cluster's output). An
 * existing directory is left as it is: it is the user's (a CI artifact directory), not cpcred's.
 */
export function makeDirectory(dir: string): void {
  try {
    makeMissingDirectories(dir, PRIVATE_DIR_MODE)
  } catch (error) {
    if (errorCode(error) !== 'ENOTDIR') {
      throw new CpcredError(`cannot create the directory ${dir} (${errorCode(error) ?? String(error)})`, {
        hint: 'choose a directory you can write to',
      })
    }
  }
  if (!statSync(dir, {throwIfNoEntry: false})?.isDirectory()) {
    throw new CpcredError(`${dir} is not a directory`, {hint: 'choose a directory, or remove what is there'})
  }
}

/**
 * mkdir -p, one directory at a time. Node's recursive mkdir never returns when creating fails with
 * ENOENT under an existing parent (any path under /proc), and a CI job given such a path must fail,
 * not hang. An existing path is left as it is (the callers judge what they find); a file in the
 * way fails with ENOTDIR from mkdir.
 */
export function makeMissingDirectories(dir: string, mode: number): void {
  const missing: string[] = []
  for (let current = path.resolve(dir); ;) {
    if (statSync(current, {throwIfNoEntry: false})) break
    missing.unshift(current)
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory, {mode})
    } catch (error) {
      // Another process made it meanwhile.
      if (errorCode(error) !== 'EEXIST') throw error
    }
  }
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code
