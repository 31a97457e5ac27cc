import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {cacheClearCommand, type CacheClearPorts} from '../../src/usecases/cache-clear.js'
import {credentialKey, resolveProfile} from '../../src/usecases/credential-pipeline.js'
import {notices, PIN, profile, provider, providerSource, sessionHub, store} from './usecase-fakes.js'

function world() {
  const hub = sessionHub([profile()])
  const cache = store({k1: {token: 'a'}, k2: {token: 'b'}})
  const told = notices()
  let opened = 0
  const ports: CacheClearPorts = {
    store: cache.store,
    openHub: async () => {
      opened++
      return hub.hub
    },
    providers: providerSource().source,
    notices: told.notices,
  }
  return {ports, hub, cache, opened: () => opened}
}

describe('cache clear: failures first', () => {
  it('passes on a profile the hub does not have, and removes nothing', async () => {
    const w = world()
    await assert.rejects(
      cacheClearCommand(w.ports, {profile: 'fleet/gone', providers: {}}),
      /no profile fleet\/gone/,
    )
    assert.deepEqual(w.cache.cleared, [])
  })

  it('says when the profile had no cached credential', async () => {
    const w = world()
    assert.deepEqual(await cacheClearCommand(w.ports, {profile: 'fleet/eu', providers: {}}), {
      all: false,
      removed: false,
    })
  })
})

describe('cache clear', () => {
  it('removes everything without a profile, without asking the hub', async () => {
    const w = world()
    assert.deepEqual(await cacheClearCommand(w.ports, {providers: {}}), {
      all: true,
      removed: 2,
      dir: '/cache/credentials',
    })
    assert.deepEqual(w.cache.cleared, [undefined])
    assert.equal(w.opened(), 0)
  })

  it("removes exactly the entry `cpcred credential` would use for the profile, as this hub's user", async () => {
    const w = world()
    const key = credentialKey({identity: 'hub-identity', pin: PIN}, resolveProfile(profile(), [provider()]))
    w.ports.store = store({[key]: {token: 'x'}}).store
    assert.deepEqual(await cacheClearCommand(w.ports, {profile: 'fleet/eu', providers: {}}), {
      all: false,
      removed: true,
    })
    assert.equal(w.hub.closed(), 1)
  })
})
