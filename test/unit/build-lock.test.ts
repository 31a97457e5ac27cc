// Two test runs on one machine build each binary once: the second waits for the first's build however
// long it takes (a cold kube-apiserver takes longer than any fixed count of retries), saying so.
import assert from 'node:assert/strict'
import {mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {buildLock} from '../testenv/binaries.js'

describe('buildLock', () => {
  it("waits for another run's build, says so once, and then builds", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-build-lock-'))
    try {
      const held = await buildLock(dir, 'etcd v0', () => assert.fail('the first run waited'))
      const said: string[] = []
      let acquired = false
      const waiter = buildLock(dir, 'etcd v0', (line) => said.push(line)).then((release) => {
        acquired = true
        return release
      })
      await new Promise((resolve) => setTimeout(resolve, 5000))
      assert.equal(acquired, false, 'took a lock another run holds')
      assert.equal(said.length, 1, said.join('\n'))
      assert.match(said[0]!, /^waiting for another run's build of etcd v0 /)
      await held()
      await (
        await waiter
      )()
      assert.equal(acquired, true)
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('gives up only after the longest a build may take', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-build-lock-'))
    try {
      const held = await buildLock(dir, 'etcd v0', () => {})
      await assert.rejects(
        buildLock(dir, 'etcd v0', () => {}, 1000),
        /already being held/,
      )
      await held()
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})
