// Temporary kubeconfigs for `cpcred exec`: a fresh 0700 directory per target (in XDG_RUNTIME_DIR,
// a per-user tmpfs, when there is one) holding one 0600 file. The directory's name carries the pid
// of the cpcred that made it, so a later run can remove what a killed one (kill -9) left behind.
import {mkdtemp, readdir, rm, stat, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type {TempKubeconfigs} from '../usecases/exec-command.js'

const PREFIX = 'cpcred-exec-'
const OWNED = /^cpcred-exec-(\d+)-[A-Za-z0-9]{6}$/

export function tempKubeconfigs(env = process.env): TempKubeconfigs {
  const base = env.XDG_RUNTIME_DIR || os.tmpdir()
  return {
    async create(content) {
      // mkdtemp creates the directory with mode 0700.
      const dir = await mkdtemp(path.join(base, `${PREFIX}${process.pid}-`))
      const file = path.join(dir, 'kubeconfig')
      // Nobody else can enter the fresh 0700 directory, and the file dies with the command, so an
      // exclusive 0600 create is enough: no temp-and-rename, no fsync on the way to every command.
      await writeFile(file, content, {mode: 0o600, flag: 'wx'})
      return file
    },
    async remove(file) {
      await rm(path.dirname(file), {recursive: true, force: true})
    },
    sweepStale: () => sweepStale(base),
  }
}

/**
 * Removes the exec directories of cpcred processes that no longer run. Only our own (same uid),
 * only names this code makes, and never one whose process is alive (a reused pid keeps it a while
 * longer, which is the safe side). Failures are ignored: this is housekeeping.
 */
export async function sweepStale(base: string): Promise<string[]> {
  const removed: string[] = []
  let names: string[]
  try {
    names = await readdir(base)
  } catch {
    return removed
  }
  const uid = process.getuid?.()
  for (const name of names) {
    const pid = Number(OWNED.exec(name)?.[1])
    if (!pid || pid === process.pid || isRunning(pid)) continue
    const dir = path.join(base, name)
    try {
      const info = await stat(dir)
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue
      await rm(dir, {recursive: true, force: true})
      removed.push(dir)
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
