// Temporary kubeconfigs for `cpcred exec`: a fresh 0700 directory per target (in XDG_RUNTIME_DIR,
// a per-user tmpfs, when there is one) holding one 0600 file.
import {mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type {TempKubeconfigs} from '../usecases/exec-command.js'
import {writePrivateFileAtomic} from './private-files.js'

export function tempKubeconfigs(env = process.env): TempKubeconfigs {
  const base = env.XDG_RUNTIME_DIR || os.tmpdir()
  return {
    async create(content) {
      // mkdtemp creates the directory with mode 0700.
      const dir = await mkdtemp(path.join(base, 'cpcred-exec-'))
      const file = path.join(dir, 'kubeconfig')
      await writePrivateFileAtomic(file, content)
      return file
    },
    async remove(file) {
      await rm(path.dirname(file), {recursive: true, force: true})
    },
  }
}
