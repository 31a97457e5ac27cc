// Kubeconfig files that cpcred writes for the user: atomic, through symlinks to the real file, keeping
// its mode and owner (new files 0600), and locked while merging, so two cpcred runs cannot lose each
// other's entries.
import {stat} from 'node:fs/promises'
import path from 'node:path'
import {CpcredError, UsageError} from '../core/errors.js'
import type {KubeconfigFiles} from '../usecases/write-kubeconfig.js'
import {followSymlinks, makeMissingDirectories, readIfExists, writeFileAtomic} from './files.js'

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
    await makeMissingDirectories(path.dirname(await followSymlinks(file)), 0o700)
    await writeFileAtomic(file, content, {mode: 'keep'})
  },
  async withLock(file, action) {
    // A lock file beside /dev/stdout cannot be made, and nobody else merges into a pipe.
    if (await isSpecialFile(file)) return action()
    // The lock belongs to the real file: two runs that reach it through different links share it.
    const target = await followSymlinks(file)
    await makeMissingDirectories(path.dirname(target), 0o700)
    const {default: lockfile} = await import('proper-lockfile')
    let release: () => Promise<void>
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath: `${target}.lock`,
        stale: 10_000,
        retries: {retries: 50, minTimeout: 100, maxTimeout: 500},
      })
    } catch (error) {
      throw new CpcredError(`cannot lock ${file} for merging: ${(error as Error).message}`, {
        hint: `another cpcred is writing it; if none is, remove ${target}.lock`,
      })
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
