// Temporary kubeconfigs for `cpcred exec`: one fresh 0700 directory per run, inside a private
// directory of this user's (cpcred-<uid>; where, see execTempRoot), holding a 0600 file per target
// (and a fan-out's stdin spool, stdin-spool.ts). The directory's name carries the pid of the
// cpcred that made it, so a later run can remove what a killed one (kill -9) left behind, by listing
// only the private directory rather than a shared temp dir of thousands of entries. One directory
// per run rather than per target: a fan-out over a thousand targets saved a mkdtemp and a recursive
// removal per target (about 0.4 ms of its 4 ms each).
//
// Every call is synchronous: each is a small file or an empty directory on a local (often tmpfs)
// disk, where a round trip through libuv's thread pool costs more than the call. A warm single
// `cpcred exec` then never starts that pool, nor loads node:fs/promises (2 to 3 ms of its 10 ms).
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {TempKubeconfigs} from '../usecases/ports.js'
import {ensurePrivateDir} from './directories.js'

const OWNED = /^exec-(\d+)-[A-Za-z0-9]{6}$/

/**
 * Where this user's exec directories live: in memory when the system offers it, so that a
 * credential written for a command never reaches a disk, and files that live a few milliseconds
 * cost no journal writes (a fan-out writes two per target). XDG_RUNTIME_DIR is the user's own tmpfs
 * where there is a login session; else /dev/shm, as `pass` does for the secrets it edits (a
 * container has it, without a session); else the temp directory (macOS).
 */
export function execTempRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_RUNTIME_DIR || (usable(SHARED_MEMORY) ? SHARED_MEMORY : os.tmpdir())
  return path.join(base, `cpcred-${process.getuid?.() ?? 'user'}`)
}

const SHARED_MEMORY = '/dev/shm'

function usable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK)
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}

export function tempKubeconfigs(env = process.env): TempKubeconfigs {
  const root = execTempRoot(env)
  let runDir: string | undefined
  let created = 0
  const dir = () => {
    if (runDir === undefined) {
      // Refuses a root someone else planted: whoever owns it could read or swap what is put in it.
      ensurePrivateDir(root)
      // mkdtemp creates the directory with mode 0700.
      runDir = mkdtempSync(path.join(root, `exec-${process.pid}-`))
    }
    return runDir
  }
  return {
    async create(content, kind = 'kubeconfig') {
      const file = path.join(dir(), `${kind}-${++created}`)
      // Nobody else can enter the fresh 0700 directory, and the file dies with the command, so an
      // exclusive 0600 create is enough: no temp-and-rename, no fsync on the way to every command.
      writeFileSync(file, content, {mode: 0o600, flag: 'wx'})
      return file
    },
    async replace(file, content) {
      // Beside it in the same private directory, then renamed over it: kubectl reading the file
      // meanwhile sees the old credential or the new one, never half of one.
      const next = `${file}.next`
      rmSync(next, {force: true})
      writeFileSync(next, content, {mode: 0o600, flag: 'wx'})
      renameSync(next, file)
    },
    async remove(file) {
      // unlink, not rm: rm stats first and walks as if for a directory.
      try {
        unlinkSync(file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    },
    pathFor: async (name) => path.join(dir(), name),
    async dispose() {
      const dir = runDir
      runDir = undefined
      if (!dir) return
      // Each file went when its target ended, so the directory is empty but after an interruption:
      // rmdir, and the recursive walk only when something is left.
      try {
        rmdirSync(dir)
      } catch {
        rmSync(dir, {recursive: true, force: true})
      }
    },
    // On the next turn of the event loop: the caller starts it right after starting its command,
    // and the synchronous walk must not run before the caller has taken over cpcred's signals.
    sweepStale: () => new Promise((resolve) => setImmediate(() => resolve(sweepStale(root)))),
  }
}

/**
 * Removes the exec directories of cpcred processes that no longer run: only names this code makes,
 * never one whose process is alive (a reused pid keeps it a while longer, which is the safe side).
 * Failures are ignored: this is housekeeping.
 */
export function sweepStale(root: string): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return removed
  }
  for (const name of names) {
    const pid = Number(OWNED.exec(name)?.[1])
    if (!pid || pid === process.pid || isRunning(pid)) continue
    const dir = path.join(root, name)
    try {
      if (!statSync(dir).isDirectory()) continue
      rmSync(dir, {recursive: true, force: true})
      removed.push(dir)
    } catch {
      // Gone already.
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
