// Kubeconfig files that cpcred writes for the user: atomic, through symlinks to the real file, keeping
// its mode and owner (new files 0600), and locked while merging, so two cpcred runs cannot lose each
// other's entries.
import {lstat, stat} from 'node:fs/promises'
import path from 'node:path'
import {humanDuration} from '../core/text/format.js'
import {CpcredError, UsageError} from '../core/errors.js'
import type {KubeconfigFiles} from '../usecases/ports.js'
import {makeMissingDirectories} from './directories.js'
import {followSymlinks, readIfExists, writeFileAtomic} from './files.js'

export const kubeconfigFiles: KubeconfigFiles = {
  async read(file) {
    // /dev/stdout or a FIFO holds no kubeconfig to keep: reading one would wait for a writer forever.
    if (await isSpecialFile(file)) return undefined
    try {
      return await readIfExists(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR')
        throw new UsageError(`${file} is a directory, not a kubeconfig file`)
      throw error
    }
  },
  async write(file, content) {
    if (await isSpecialFile(file)) return writeFileAtomic(file, content, {mode: 'keep'})
    // A new ~/.kube gets 0700, like kubectl creates it; an existing directory is left as it is.
    makeMissingDirectories(path.dirname(await followSymlinks(file)), 0o700)
    await writeFileAtomic(file, content, {mode: 'keep'})
  },
  async stamp(file) {
    const found = await stat(file, {bigint: true}).catch(() => undefined)
    if (found === undefined || !found.isFile()) return undefined
    return [found.dev, found.ino, found.size, found.mtimeNs, found.ctimeNs].join(':')
  },
  async withLock(file, action) {
    // A lock file beside /dev/stdout cannot be made, and nobody else merges into a pipe.
    if (await isSpecialFile(file)) return action()
    // The lock belongs to the real file: two runs that reach it through different links share it.
    const target = await followSymlinks(file)
    makeMissingDirectories(path.dirname(target), 0o700)
    // The same name as kubectl's lock (client-go creates FILE.lock as a file with O_EXCL), so kubectl
    // and cpcred never write the file at once; cpcred's is a directory (proper-lockfile).
    const lockPath = `${target}.lock`
    await waitOutKubectlLock(lockPath)
    const {default: lockfile} = await import('proper-lockfile')
    let release: () => Promise<void>
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath: lockPath,
        stale: 10_000,
        retries: {retries: 50, minTimeout: 100, maxTimeout: 500},
      })
    } catch (error) {
      throw await lockFailure(file, lockPath, error)
    }
    try {
      return await action()
    } finally {
      await release()
    }
  },
}

async function isSpecialFile(file: string): Promise<boolean> {
  const found = await stat(file).catch(() => undefined)
  return found !== undefined && !found.isFile() && !found.isDirectory()
}

/** kubectl holds its lock for the milliseconds of one write; longer than this, it was left behind. */
const KUBECTL_LOCK_WAIT_MS = 3000

/** The lock is kubectl's when it is a file; then its age (ms), else undefined. */
async function kubectlLockAge(lockPath: string): Promise<number | undefined> {
  const info = await lstat(lockPath).catch(() => undefined)
  return info && !info.isDirectory() ? Math.max(0, Date.now() - info.mtimeMs) : undefined
}

async function waitOutKubectlLock(lockPath: string): Promise<void> {
  const deadline = Date.now() + KUBECTL_LOCK_WAIT_MS
  for (;;) {
    const age = await kubectlLockAge(lockPath)
    if (age === undefined) return
    if (Date.now() >= deadline) throw staleKubectlLock(lockPath, age)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function staleKubectlLock(lockPath: string, age: number): CpcredError {
  return new CpcredError(
    `${lockPath} is a lock file left by kubectl ${humanDuration(age)} ago, so the kubeconfig cannot be merged (kubectl itself cannot write it either)`,
    {hint: `if no kubectl is running, remove it: rm ${shellQuoted(lockPath)}`},
  )
}

async function lockFailure(file: string, lockPath: string, error: unknown): Promise<CpcredError> {
  const age = await kubectlLockAge(lockPath)
  if (age !== undefined) return staleKubectlLock(lockPath, age)
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new CpcredError(
      `cannot merge into ${file}: ${path.dirname(lockPath)} is not writable (${code === 'EROFS' ? 'read-only file system' : 'permission denied'})`,
      {
        hint: `check the permissions of ${path.dirname(lockPath)}, or merge into another file with --output-file`,
      },
    )
  }
  if (code === 'ELOCKED') {
    return new CpcredError(`cannot lock ${file} for merging: another cpcred is merging into it`, {
      hint: `wait for it to finish; if no cpcred is running, remove the directory ${lockPath}`,
    })
  }
  return new CpcredError(`cannot lock ${file} for merging: ${(error as Error)?.message ?? String(error)}`, {
    hint: `check ${path.dirname(lockPath)}`,
  })
}

function shellQuoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
