// Files cpcred writes: cached credentials and profiles (files 0600, in directories.ts's 0700
// directories) and the user's kubeconfigs, all through one atomic, symlink-following write
// (docs/design.md §5). Errors carry paths and system error codes, never file content.

import {lstat, open, readFile, readlink, rename, rm, stat, writeFile, type FileHandle} from 'node:fs/promises'
import {
  closeSync,
  constants as fsConstants,
  fchmodSync,
  fstatSync,
  openSync,
  writeSync,
  type Stats,
} from 'node:fs'
import path from 'node:path'
import {CpcredError} from '../core/errors.js'

export const PRIVATE_FILE_MODE = 0o600

export interface WriteOptions {
  /**
   * `private`: the file ends up 0600 whatever it was (credentials, cache entries). `keep`: an existing
   * file keeps its mode and owner, a new one is 0600 (kubeconfigs the user owns and may share).
   */
  mode: 'private' | 'keep'
  /**
   * A new file cpcred makes (a report): a symlink at its path is refused, not followed, so a link
   * planted there cannot make cpcred overwrite the file it points at.
   */
  refuseSymlink?: boolean
}

/**
 * The one way cpcred writes a file: a reader sees either the old file or the whole new one, never a
 * part. A symlink (a dotfile manager's ~/.kube/config) is followed to the file it names and stays a
 * link: the content goes to a new temp file beside that real file (O_EXCL, 0600, so no other process
 * can have it open), is flushed, given the target's mode and owner, and renamed over it. A read-only
 * target (no owner write bit) or one that would change owner is refused. On any failure the temp
 * file is removed and the target is left byte for byte as it was. The directory must exist (see
 * ensurePrivateDir in directories.ts).
 */
export async function writeFileAtomic(
  file: string,
  content: string | Uint8Array,
  options: WriteOptions,
): Promise<void> {
  if (options.refuseSymlink && (await lstatIfExists(file))?.isSymbolicLink()) {
    throw new CpcredError(`${file} is a symbolic link; cpcred does not write through it`, {
      hint: 'remove the link, or choose another path',
    })
  }
  // /dev/stdout, a FIFO, a terminal: written as they are, opened through the path given (the
  // kernel follows /proc's links to a pipe, which no readlink can); a temp file renamed over them
  // would replace the device or pipe with a file. Never for cpcred's own private files.
  if (options.mode !== 'private') {
    const given = await stat(file).catch(() => undefined)
    if (given && !given.isFile() && !given.isDirectory()) {
      await writeFile(file, content)
      return
    }
  }
  // A private file (cache, answers, snapshots) is cpcred's own: whatever is at its path (a planted
  // link, a file made readable to others) is replaced, never written through.
  const target = options.mode === 'private' ? path.resolve(file) : await followSymlinks(file)
  const existing = options.mode === 'private' ? await lstatIfExists(target) : await statIfExists(target)
  if (existing?.isDirectory()) throw new CpcredError(`${file} is a directory, not a file`)
  if (options.mode === 'keep' && existing && (existing.mode & 0o200) === 0) {
    throw new CpcredError(`${file} is read-only, so cpcred leaves it as it is`, {
      hint: `make it writable (chmod u+w ${target}) or write elsewhere`,
    })
  }
  const mode = options.mode === 'keep' && existing ? existing.mode & 0o777 : PRIVATE_FILE_MODE
  const dir = path.dirname(target)
  const temp = path.join(dir, `.${path.basename(target)}.${randomHex(8)}.tmp`)
  let handle: FileHandle | undefined
  let created = false
  try {
    handle = await open(temp, 'wx', PRIVATE_FILE_MODE)
    created = true
    if (options.mode === 'keep' && existing) await keepOwner(handle, file, existing)
    await handle.writeFile(content)
    if (mode !== PRIVATE_FILE_MODE) await handle.chmod(mode)
    // Without it a crash after the rename can leave an empty or partial target on some filesystems.
    await handle.sync()
    await handle.close()
    handle = undefined
    await rename(temp, target)
  } catch (error) {
    await handle?.close().catch(() => undefined)
    // Only our own temp file: on EEXIST the name belongs to someone else.
    if (created) await rm(temp, {force: true}).catch(() => undefined)
    throw error
  }
  await syncDirectory(dir)
}

/** The file a path finally names, through any chain of symlinks (the last one may dangle). */
export async function followSymlinks(file: string): Promise<string> {
  let current = path.resolve(file)
  for (let hops = 0; hops < MAX_SYMLINK_HOPS; hops++) {
    let link: string
    try {
      link = await readlink(current)
    } catch (error) {
      // EINVAL: not a link; ENOENT: nothing there yet, so this is the file to create.
      if (errorCode(error) === 'EINVAL' || errorCode(error) === 'ENOENT') return current
      throw error
    }
    current = path.resolve(path.dirname(current), link)
  }
  throw new CpcredError(`${file}: too many levels of symbolic links`)
}

// As the kernel's limit (ELOOP after 40 links).
const MAX_SYMLINK_HOPS = 40

/** The temp file gets the target's owner, so replacing a file never hands it to someone else. */
async function keepOwner(handle: FileHandle, file: string, existing: Stats): Promise<void> {
  if (existing.uid === process.getuid?.() && existing.gid === process.getgid?.()) return
  try {
    await handle.chown(existing.uid, existing.gid)
  } catch (error) {
    // Only root may give a file away. A group we are not in is not worth refusing for.
    if (existing.uid === process.getuid?.()) return
    throw new CpcredError(
      `${file} belongs to another user (uid ${existing.uid}); replacing it would make it yours`,
      {hint: 'write it as its owner, or choose another file', cause: error},
    )
  }
}

async function statIfExists(file: string, how = stat): Promise<Stats | undefined> {
  try {
    return await how(file)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined
    throw error
  }
}

const lstatIfExists = (file: string) => statIfExists(file, lstat)

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

/**
 * A target's log for `exec --output-dir`, written as the output comes. Not atomic on purpose: a CI
 * job that is cancelled keeps what its targets printed so far. The file is 0600 (an earlier run's
 * file is truncated and narrowed); a link or anything but a regular file at its path is refused, so
 * a planted link cannot make cpcred write elsewhere. Writes are synchronous and batched: a slow disk
 * slows the output down rather than filling memory.
 */
export class LogFile {
  private pending: Uint8Array[] = []
  private pendingLength = 0

  private constructor(
    private readonly fd: number,
    readonly file: string,
  ) {}

  static open(file: string): LogFile {
    let fd: number
    try {
      fd = openSync(
        file,
        fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW,
        PRIVATE_FILE_MODE,
      )
    } catch (error) {
      const code = errorCode(error)
      throw new CpcredError(
        code === 'ELOOP'
          ? `${file} is a symbolic link; cpcred writes logs only to files of its own`
          : `cannot write ${file} (${code ?? String(error)})`,
        {hint: 'choose another --output-dir, or remove what is there'},
      )
    }
    const info = fstatSync(fd)
    if (!info.isFile()) {
      closeSync(fd)
      throw new CpcredError(`${file} is not a regular file`, {hint: 'choose another --output-dir'})
    }
    if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) fchmodSync(fd, PRIVATE_FILE_MODE)
    return new LogFile(fd, file)
  }

  /** Text is written as UTF-8, bytes as they are (a command's output, never decoded). */
  write(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    this.pending.push(bytes)
    this.pendingLength += bytes.length
    if (this.pendingLength >= LOG_BATCH_BYTES) this.flush()
  }

  close(): void {
    this.flush()
    closeSync(this.fd)
  }

  private flush(): void {
    if (this.pendingLength === 0) return
    const data = Buffer.concat(this.pending, this.pendingLength)
    for (let offset = 0; offset < data.length;) offset += writeSync(this.fd, data, offset)
    this.pending = []
    this.pendingLength = 0
  }
}

const LOG_BATCH_BYTES = 16 * 1024

// Web Crypto's getRandomValues, loaded when a file is written: node:crypto at the top would load on
// every run that reads a file, such as a warm `cpcred exec` (5 ms).
function randomHex(bytes: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex')
}
