// The completion use case with hand-written fakes: a keypress never waits for the hub when a list
// exists, only one refresh runs at a time, and a refresh always gives its claim back.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {completeCommand, refreshNames} from '../../src/usecases/complete-profiles.js'
import type {CompletionList, CompletionLists, ProfilePageSource} from '../../src/usecases/ports.js'

function fakeLists(initial?: CompletionList, options: {fresh?: boolean; claimed?: boolean} = {}) {
  let list = initial
  const log: string[] = []
  const lists: CompletionLists = {
    async read() {
      return list
    },
    async waitFor(_identity, ms) {
      log.push(`wait ${ms}`)
      return list
    },
    isFresh: (found) => found !== undefined && Boolean(options.fresh),
    async write(_identity, profiles) {
      log.push(`write ${profiles.join(' ')}`)
      list = {fetchedAt: 1, profiles}
    },
    async claimRefresh() {
      log.push('claim')
      return !options.claimed
    },
    async releaseRefresh() {
      log.push('release')
    },
  }
  return {lists, log}
}

const HUB = {identity: 'hub-a', namespace: 'fleet'}

const profile = (namespace: string, name: string): ClusterProfile => ({
  metadata: {namespace, name},
  spec: {clusterManager: {name: 'm'}},
})

/** A hub that lists `profiles`, or refuses a list across all namespaces as RBAC would. */
function hub(profiles: ClusterProfile[], options: {denyAllNamespaces?: boolean; fail?: boolean} = {}) {
  const source: ProfilePageSource = {
    async listProfilePage({namespace}) {
      if (options.fail) throw new CpcredError('the hub cannot be reached')
      if (namespace === undefined && options.denyAllNamespaces)
        throw new CpcredError('forbidden', {exitCode: ExitCode.Denied})
      return {items: profiles.filter((p) => namespace === undefined || p.metadata.namespace === namespace)}
    },
    async listNamespaceLabels() {
      return new Map()
    },
  }
  return async () => source
}

describe('completeCommand', () => {
  it('offers a fresh list at once, without a refresh or a wait', async () => {
    const {lists, log} = fakeLists({fetchedAt: 1, profiles: ['fleet/a']}, {fresh: true})
    let refreshes = 0
    const names = await completeCommand({lists, startRefresh: () => refreshes++}, {hub: HUB})
    assert.deepEqual(names, {keys: ['fleet/a'], namespace: 'fleet'})
    assert.equal(refreshes, 0)
    assert.deepEqual(log, [])
  })

  it('offers a stale list at once and starts one refresh', async () => {
    const {lists, log} = fakeLists({fetchedAt: 1, profiles: ['fleet/a']})
    let refreshes = 0
    assert.deepEqual((await completeCommand({lists, startRefresh: () => refreshes++}, {hub: HUB})).keys, [
      'fleet/a',
    ])
    assert.equal(refreshes, 1)
    assert.deepEqual(log, ['claim'])
  })

  it('starts no second refresh while one is claimed', async () => {
    const {lists} = fakeLists({fetchedAt: 1, profiles: ['fleet/a']}, {claimed: true})
    let refreshes = 0
    await completeCommand({lists, startRefresh: () => refreshes++}, {hub: HUB})
    assert.equal(refreshes, 0)
  })

  it('waits for the first list of a hub, and offers nothing when none comes', async () => {
    const {lists, log} = fakeLists(undefined, {claimed: true})
    assert.deepEqual((await completeCommand({lists, startRefresh: () => undefined}, {hub: HUB})).keys, [])
    assert.deepEqual(log, ['claim', 'wait 1500'])
  })
})

describe('refreshNames', () => {
  it('gives the claim back when the hub cannot be reached', async () => {
    const {lists, log} = fakeLists()
    await assert.rejects(refreshNames(HUB, hub([], {fail: true}), lists), /cannot be reached/)
    assert.deepEqual(log, ['release'])
  })

  it('falls back to the context namespace when listing all namespaces is denied', async () => {
    const {lists, log} = fakeLists()
    await refreshNames(
      HUB,
      hub([profile('fleet', 'a'), profile('other', 'b')], {denyAllNamespaces: true}),
      lists,
    )
    assert.deepEqual(log, ['write fleet/a', 'release'])
  })

  it('writes every profile the user may see', async () => {
    const {lists, log} = fakeLists()
    await refreshNames(HUB, hub([profile('fleet', 'a'), profile('other', 'b')]), lists)
    assert.deepEqual(log, ['write fleet/a other/b', 'release'])
  })
})
