// Kubeconfig files that cpcred writes: private (0600), atomic, and locked while merging, so two
// cpcred runs cannot lose each other's entries.
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {CpcredError, UsageError} from '../core/errors.js'
import type {KubeconfigFiles} from '../usecases/write-kubeconfig.js'
import {readIfExists, writePrivateFileAtomic} from './private-files.js'

export const kubeconfigFiles: KubeconfigFiles = {
  async read(file) {
    try {
      return await readIfExists(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR')
        throw new UsageError(`${file} is a directory, not a kubeconfig file`)
      throw error
    }
  },
  async writePrivate(file, content) {
    // A new ~/.kube gets 0700, like kubectl creates it; an existing directory is left as it is.
    await mkdir(path.dirname(file), {recursive: true, mode: 0o700})
    await writePrivateFileAtomic(file, content)
  },
  async withLock(file, action) {
    await mkdir(path.dirname(file), {recursive: true, mode: 0o700})
    const {default: lockfile} = await import('proper-lockfile')
    let release: () => Promise<void>
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: `${file}.lock`,
        stale: 10_000,
        retries: {retries: 50, minTimeout: 100, maxTimeout: 500},
      })
    } catch (error) {
      throw new CpcredError(`cannot lock ${file} for merging: ${(error as Error).message}`, {
        hint: `another cpcred is writing it; if none is, remove ${file}.lock`,
      })
    }
    try {
      return await action()
    } finally {
      await release()
    }
  },
}
