// What `cpcred doctor` looks at besides the hub, read-only: servers probed directly, plugin commands
// looked up as a program start finds them, the credential cache's files and the profile snapshots
// credential and exec fall back on.
import {stat} from 'node:fs/promises'
import path from 'node:path'
import type {CacheFiles} from '../core/doctor/cache.js'
import type {DoctorProbes} from '../usecases/ports.js'
import {CredentialStore, defaultCredentialCacheDir} from './credential-store.js'
import {findExecutable} from './executables.js'
import {errorCode, readIfExists} from './files.js'
import {ProfileSnapshots} from './profile-snapshots.js'
import {probeServer} from './server-probe.js'

export function doctorProbes(uid = process.getuid?.()): DoctorProbes {
  const cacheDir = defaultCredentialCacheDir()
  const store = new CredentialStore(cacheDir)
  const snapshots = new ProfileSnapshots(path.join(path.dirname(cacheDir), 'profiles'))
  return {
    probe: probeServer,
    findExecutable,
    cacheDir,
    cacheFiles: async (key) => {
      try {
        return await cacheFiles(store, key, uid)
      } catch (error) {
        return {unreadable: errorCode(error) ?? (error as Error).message}
      }
    },
    lastSnapshot: async (hubIdentity, namespace, name) =>
      (await snapshots.last(hubIdentity, namespace, name))?.fetchedAt,
  }
}

async function cacheFiles(store: CredentialStore, key: string, uid: number | undefined): Promise<CacheFiles> {
  const file = store.entryPath(key)
  const files: CacheFiles = {dir: store.dir, file, uid}
  const dirInfo = await statIfExists(store.dir)
  if (!dirInfo) return files
  files.dirInfo = {mode: dirInfo.mode, uid: dirInfo.uid}
  const fileInfo = await statIfExists(file)
  if (!fileInfo) return files
  files.fileInfo = {mode: fileInfo.mode, uid: fileInfo.uid}
  files.text = await readIfExists(file)
  return files
}

async function statIfExists(file: string) {
  try {
    return await stat(file)
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined
    throw error
  }
}
