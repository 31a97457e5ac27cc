// exec's temporary files: one private directory per run, gone at the end whether its files were
// removed one by one (the usual end of a target) or are still there (an interrupted run).
import assert from 'node:assert/strict'
import {existsSync, statfsSync} from 'node:fs'
import {mkdtemp, readdir, rm, stat} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {tempKubeconfigs} from '../../src/adapters/temp-kubeconfigs.js'

describe('tempKubeconfigs', () => {
  it('keeps 0600 files in a 0700 directory of the run, and removes the directory at the end, empty or not', async () => {
    const runtime = await mkdtemp(path.join(os.tmpdir(), 'cpcred-runtime-'))
    try {
      for (const leaveOne of [false, true]) {
        const temp = tempKubeconfigs({XDG_RUNTIME_DIR: runtime})
        const kubeconfig = await temp.create('apiVersion: v1\n')
        const credential = await temp.create('t0k', 'token')
        const dir = path.dirname(kubeconfig)
        assert.equal((await stat(dir)).mode & 0o777, 0o700)
        assert.equal((await stat(kubeconfig)).mode & 0o777, 0o600)
        await temp.remove(kubeconfig)
        await temp.remove(kubeconfig)
        if (!leaveOne) await temp.remove(credential)
        assert.deepEqual(await readdir(dir), leaveOne ? [path.basename(credential)] : [])
        await temp.dispose()
        assert.equal(
          existsSync(dir),
          false,
          leaveOne ? 'a file left behind goes with it' : 'the empty directory goes',
        )
      }
    } finally {
      await rm(runtime, {recursive: true, force: true})
    }
  })

  it(
    'keeps the files in memory (/dev/shm) without XDG_RUNTIME_DIR, so a credential never reaches a disk',
    {skip: !existsSync('/dev/shm') && 'no /dev/shm here'},
    async () => {
      const temp = tempKubeconfigs({})
      try {
        const credential = await temp.create('t0k', 'token')
        assert.equal(path.dirname(path.dirname(credential)), `/dev/shm/cpcred-${process.getuid!()}`)
        assert.equal(statfsSync(credential).type, TMPFS_MAGIC)
      } finally {
        await temp.dispose()
      }
    },
  )
})

// statfs(2)'s f_type of a tmpfs.
const TMPFS_MAGIC = 0x01021994
