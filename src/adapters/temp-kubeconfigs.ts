// Temporary kubeconfigs for `cpcred exec`: a fresh 0700 directory per target (in XDG_RUNTIME_DIR,
// a per-user tmpfs, when there is one) holding one 0600 file.
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type {TempKubeconfigs} from '../usecases/exec-command.js'

export function tempKubeconfigs(env = process.env): TempKubeconfigs {
  const base = env.XDG_RUNTIME_DIR || os.tmpdir()
  return {
    async create(content) {
      // mkdtemp creates the directory with mode 0700.
      const dir = await mkdtemp(path.join(base, 'cpcred-exec-'))
      const file = path.join(dir, 'kubeconfig')
      // Nobody else can enter the fresh 0700 directory, and the file dies with the command, so an
      // exclusive 0600 create is enough: no temp-and-rename, no fsync on the way to every command.
      await writeFile(file, content, {mode: 0o600, flag: 'wx'})
      return file
    },
    async remove(file) {
      await rm(path.dirname(file), {recursive: true, force: true})
    },
  }
}
