import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {Credential} from '../../src/core/exec-credential/protocol.js'
import {RunCredentials, type CredentialCache} from '../../src/usecases/obtain-credential.js'
import {lifetimeRule} from '../../src/core/exec-credential/cache.js'

const at = (iso: string) => new Date(iso)

function plugin(credentials: Credential[]) {
  let runs = 0
  const fetch = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    const credential = credentials[Math.min(runs, credentials.length - 1)]!
    runs++
    return credential
  }
  return {fetch, runs: () => runs}
}

describe('RunCredentials', () => {
  it('runs the plugin once for targets that need the same credential, also while it runs', async () => {
    const {fetch, runs} = plugin([{token: 'a'}])
    const run = new RunCredentials(undefined)
    const results = await Promise.all(Array.from({length: 20}, () => run.obtain('key', fetch)))
    assert.equal(runs(), 1)
    assert.ok(results.every((result) => result.credential.token === 'a'))
    assert.equal(results.filter((result) => !result.fromCache).length, 1)
    await run.obtain('other', fetch)
    assert.equal(runs(), 2)
  })

  it('shares a failure instead of asking a broken identity provider once per target', async () => {
    let runs = 0
    const run = new RunCredentials(undefined)
    const failing = async (): Promise<Credential> => {
      runs++
      throw new Error('idp down')
    }
    const outcomes = await Promise.allSettled(Array.from({length: 5}, () => run.obtain('key', failing)))
    assert.equal(runs, 1)
    assert.ok(outcomes.every((outcome) => outcome.status === 'rejected'))
  })

  it('asks again when the credential it holds is within a minute of expiry', async () => {
    let now = at('2026-11-23T10:00:00Z')
    const {fetch, runs} = plugin([
      {token: 'a', expiresAt: at('2026-11-23T10:05:00Z')},
      {token: 'b', expiresAt: at('2026-11-23T11:00:00Z')},
    ])
    const run = new RunCredentials(undefined, () => now)
    assert.equal((await run.obtain('key', fetch)).credential.token, 'a')
    now = at('2026-11-23T10:03:00Z')
    assert.equal((await run.obtain('key', fetch)).credential.token, 'a')
    now = at('2026-11-23T10:04:30Z')
    assert.equal((await run.obtain('key', fetch)).credential.token, 'b')
    assert.equal(runs(), 2)
  })

  it('goes through the disk cache once per key when there is one', async () => {
    const asked: string[] = []
    const cache: CredentialCache = {
      async obtain(key) {
        asked.push(key)
        return {credential: {token: 'cached'}, fromCache: true}
      },
    }
    const run = new RunCredentials(cache)
    const {fetch, runs} = plugin([{token: 'fresh'}])
    await Promise.all([run.obtain('k1', fetch), run.obtain('k1', fetch), run.obtain('k2', fetch)])
    assert.deepEqual(asked.sort(), ['k1', 'k2'])
    assert.equal(runs(), 0)
  })

  it('asks again for a command when the credential it holds has less than its minimum lifetime left', async () => {
    let now = at('2026-11-23T10:00:00Z')
    const {fetch, runs} = plugin([
      {token: 'a', expiresAt: at('2026-11-23T10:10:00Z')},
      {token: 'b', expiresAt: at('2026-11-23T10:20:00Z')},
    ])
    const run = new RunCredentials(undefined, () => now)
    const exec = lifetimeRule(undefined, true)
    assert.equal((await run.obtain('key', fetch, undefined, exec)).credential.token, 'a')
    // 10-minute credential: 5 minutes must be left for a command to start with it.
    now = at('2026-11-23T10:04:59Z')
    assert.equal((await run.obtain('key', fetch, undefined, exec)).credential.token, 'a')
    now = at('2026-11-23T10:05:01Z')
    assert.equal((await run.obtain('key', fetch, undefined, exec)).credential.token, 'b')
    assert.equal(runs(), 2)
  })
})
