import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {ContinueExpiredError} from '../../src/core/errors.js'
import {fuzzyMatches} from '../../src/core/text/picker-state.js'
import {
  findProfile,
  oneProfile,
  parseProfileRef,
  selectProfiles,
  suggestions,
} from '../../src/usecases/find-profiles.js'
import type {ProfileFinder} from '../../src/usecases/ports.js'
import {listProfiles} from '../../src/usecases/list-profiles.js'

function profile(namespace: string, name: string, manager = 'm'): ClusterProfile {
  return {metadata: {namespace, name}, spec: {clusterManager: {name: manager}}}
}

/** A hub holding `profiles`, paging `limit` at a time, that fails the test on calls it does not expect. */
function fakeHub(
  profiles: ClusterProfile[],
  options: {expireOnce?: boolean; forbidList?: boolean} = {},
): ProfileFinder & {pages: number} {
  let expired = false
  return {
    pages: 0,
    async getProfile(namespace, name) {
      return profiles.find((p) => p.metadata.namespace === namespace && p.metadata.name === name)
    },
    async listProfilePage({namespace, limit}, token) {
      if (options.forbidList) throw new Error('forbidden')
      this.pages++
      if (options.expireOnce && token && !expired) {
        expired = true
        throw new ContinueExpiredError()
      }
      const scoped = profiles.filter((p) => namespace === undefined || p.metadata.namespace === namespace)
      const start = token ? Number(token) : 0
      const next = start + limit < scoped.length ? String(start + limit) : undefined
      return {items: scoped.slice(start, start + limit), next}
    },
    async listNamespaceLabels() {
      return new Map([['prod-ns', {'multicluster.x-k8s.io/clusterset': 'prod'}]])
    },
  }
}

const hubProfiles = [
  profile('a', 'alpha'),
  profile('a', 'beta'),
  profile('b', 'alpha'),
  profile('prod-ns', 'gamma', 'ocm'),
]

describe('parseProfileRef', () => {
  it('reads name and namespace/name', () => {
    assert.deepEqual(parseProfileRef('x'), {name: 'x'})
    assert.deepEqual(parseProfileRef('ns/x.y'), {namespace: 'ns', name: 'x.y'})
    // kubectl's TYPE/NAME, as `list -o name` prints it, so `list -o name | xargs -n1 cpcred describe` works.
    for (const typed of [
      'clusterprofile.multicluster.x-k8s.io/x.y',
      'clusterprofiles.multicluster.x-k8s.io/x.y',
      'clusterprofile/x.y',
      'clusterprofiles/x.y',
    ]) {
      assert.deepEqual(parseProfileRef(typed), {name: 'x.y'}, typed)
    }
  })
  for (const bad of ['', 'a/b/c', 'Upper', '/x', 'x/', 'a b']) {
    it(`rejects ${JSON.stringify(bad)} as a usage error`, () => {
      assert.throws(
        () => parseProfileRef(bad),
        (error: {exitCode: number; message: string}) =>
          error.exitCode === 2 && /is not a profile name/.test(error.message),
      )
    })
  }
})

describe('findProfile', () => {
  it('finds a bare name in the scope namespace and namespace/name anywhere', async () => {
    const hub = fakeHub(hubProfiles)
    assert.equal(
      (await findProfile(hub, {name: 'alpha'}, {namespace: 'b', allNamespaces: false})).metadata.namespace,
      'b',
    )
    assert.equal(
      (await findProfile(hub, {namespace: 'a', name: 'beta'}, {namespace: 'b', allNamespaces: false}))
        .metadata.name,
      'beta',
    )
  })

  it('points to the namespace where a missing name does exist', async () => {
    await assert.rejects(
      findProfile(fakeHub(hubProfiles), {name: 'beta'}, {namespace: 'b', allNamespaces: false}),
      (error: {message: string; hint: string}) => {
        assert.equal(error.message, 'ClusterProfile "beta" not found in namespace "b"')
        assert.equal(error.hint, 'it exists as a/beta; name it as NAMESPACE/NAME or pass -n')
        return true
      },
    )
  })

  it('suggests close names, and still answers when listing is forbidden', async () => {
    await assert.rejects(
      findProfile(fakeHub(hubProfiles), {name: 'alpah'}, {namespace: 'a', allNamespaces: false}),
      {
        hint: 'did you mean a/alpha?',
      },
    )
    await assert.rejects(
      findProfile(
        fakeHub(hubProfiles, {forbidList: true}),
        {name: 'alpah'},
        {namespace: 'a', allNamespaces: false},
      ),
      {
        message: 'ClusterProfile "alpah" not found in namespace "a"',
        hint: "run 'cpcred list -A' to see the profiles on the hub",
      },
    )
  })

  it('asks for namespace/name when -A finds the name in several namespaces', async () => {
    await assert.rejects(
      findProfile(fakeHub(hubProfiles), {name: 'alpha'}, {namespace: 'x', allNamespaces: true}),
      {
        message: 'ClusterProfile "alpha" exists in 2 namespaces: a/alpha, b/alpha',
        hint: 'name one of them as NAMESPACE/NAME',
      },
    )
    assert.equal(
      (await findProfile(fakeHub(hubProfiles), {name: 'gamma'}, {namespace: 'x', allNamespaces: true}))
        .metadata.namespace,
      'prod-ns',
    )
  })

  it('ranks suggestions by distance and caps them at three', () => {
    const many = ['node-1', 'node-2', 'node-3', 'node-4', 'other'].map((name) => profile('n', name))
    assert.deepEqual(suggestions('node-', many), ['n/node-1', 'n/node-2', 'n/node-3'])
    assert.deepEqual(suggestions('zzz', many), [])
  })
})

describe('oneProfile', () => {
  const scope = {namespace: 'a', allNamespaces: false}
  it('never prompts without a terminal', async () => {
    const chooser = {interactive: false, pickOne: async () => assert.fail('must not prompt')}
    await assert.rejects(oneProfile(fakeHub(hubProfiles), undefined, scope, chooser), {
      exitCode: 2,
      message: 'a profile is required',
    })
  })
  it('offers the profiles in scope on a terminal', async () => {
    let offered: string[] = []
    const chooser = {
      interactive: true,
      pickOne: async (profiles: ClusterProfile[]) => {
        offered = profiles.map((p) => p.metadata.name)
        return profiles[1]!
      },
    }
    assert.equal((await oneProfile(fakeHub(hubProfiles), undefined, scope, chooser)).metadata.name, 'beta')
    assert.deepEqual(offered, ['alpha', 'beta'])
  })
})

describe('listProfiles', () => {
  it('follows continue tokens across pages and filters by manager and clusterset', async () => {
    const hub = fakeHub(hubProfiles)
    const all = await listProfiles(hub, {pageSize: 1})
    assert.equal(hub.pages, 4)
    assert.deepEqual(all.profiles, hubProfiles)
    assert.deepEqual(
      (await listProfiles(hub, {clusterManager: 'ocm'})).profiles.map((p) => p.metadata.name),
      ['gamma'],
    )
    assert.deepEqual(
      (await listProfiles(hub, {clusterset: 'prod'})).profiles.map((p) => p.metadata.name),
      ['gamma'],
    )
    assert.deepEqual((await listProfiles(hub, {clusterset: 'prod', namespace: 'a'})).profiles, [])
  })

  it('filters by clusterset through the clusterset.k8s.io property as well as the namespace label', async () => {
    const member = (namespace: string, name: string, clusterset: string) => {
      const p = profile(namespace, name)
      p.status = {...p.status, properties: [{name: 'clusterset.k8s.io', value: clusterset}]}
      return p
    }
    const hub = fakeHub([...hubProfiles, member('a', 'delta', 'prod'), member('prod-ns', 'eps', 'other')])
    assert.deepEqual(
      (await listProfiles(hub, {clusterset: 'prod'})).profiles.map((p) => p.metadata.name),
      ['gamma', 'delta', 'eps'],
    )
    assert.deepEqual(
      (await listProfiles(hub, {clusterset: 'prod', namespace: 'a'})).profiles.map((p) => p.metadata.name),
      ['delta'],
    )
    assert.deepEqual(
      (await listProfiles(hub, {clusterset: 'other'})).profiles.map((p) => p.metadata.name),
      ['eps'],
    )
  })

  it('says what --clusterset kept only through the legacy namespace label, not the property', async () => {
    const member = (namespace: string, name: string, clusterset: string) => {
      const p = profile(namespace, name)
      p.status = {...p.status, properties: [{name: 'clusterset.k8s.io', value: clusterset}]}
      return p
    }
    const hub = fakeHub([...hubProfiles, member('a', 'delta', 'prod'), member('prod-ns', 'eps', 'prod')])
    // gamma's namespace is labelled prod and it has no property; eps has both, delta the property alone.
    assert.deepEqual((await listProfiles(hub, {clusterset: 'prod'})).legacyClusterset, {
      clusterset: 'prod',
      labels: ['multicluster.x-k8s.io/clusterset'],
      namespaces: ['prod-ns'],
      profiles: 1,
    })
    assert.equal((await listProfiles(hub, {clusterset: 'prod', namespace: 'a'})).legacyClusterset, undefined)
    assert.equal((await listProfiles(hub, {readClustersets: true})).legacyClusterset, undefined)
  })

  it('starts over once when a continue token expires, and reports it', async () => {
    const reasons: string[] = []
    const result = await listProfiles(fakeHub(hubProfiles, {expireOnce: true}), {
      pageSize: 2,
      onRestart: (r) => reasons.push(r),
    })
    assert.deepEqual(result.profiles, hubProfiles)
    assert.equal(reasons.length, 1)
  })

  it('keeps only usable profiles and knows the chosen provider', async () => {
    const withProviders = [
      {...profile('a', 'p1'), status: {accessProviders: [{name: 'x', cluster: {server: 'https://x'}}]}},
      {...profile('a', 'p2'), status: {accessProviders: [{name: 'y', cluster: {server: 'https://y'}}]}},
    ]
    const providers = [
      {name: 'y', execConfig: {apiVersion: 'client.authentication.k8s.io/v1' as const, command: '/bin/y'}},
    ]
    const result = await listProfiles(fakeHub(withProviders), {providers, usableOnly: true})
    assert.deepEqual(
      result.profiles.map((p) => p.metadata.name),
      ['p2'],
    )
    assert.deepEqual(result.chosen(result.profiles[0]!), {provider: 'y', server: 'https://y'})
  })

  it('with --healthy keeps the healthy profiles and says which it skipped, with why', async () => {
    const condition = (status: string) => ({
      type: 'ControlPlaneHealthy',
      status,
      reason: status === 'True' ? 'Healthy' : 'APIServerDown',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    })
    const fleet = [
      {...profile('a', 'up'), status: {conditions: [condition('True')]}},
      {...profile('a', 'down'), status: {conditions: [condition('False')]}},
      {...profile('a', 'other-manager', 'ocm'), status: {conditions: [condition('False')]}},
    ]
    const result = await listProfiles(fakeHub(fleet), {healthyOnly: true, clusterManager: 'm', pageSize: 1})
    assert.deepEqual(
      result.profiles.map((p) => p.metadata.name),
      ['up'],
    )
    // Only what the other filters kept: a profile of another manager is not the listing's to mention.
    assert.deepEqual(result.skipped, [
      {profile: 'a/down', reason: 'ControlPlaneHealthy is False: APIServerDown', kind: 'not healthy'},
    ])
    assert.equal(result.matches(fleet[1]!), false, 'a watch keeps gating changes on health')
  })

  it('selects by names, selector and --all without duplicates', async () => {
    const hub = fakeHub(hubProfiles)
    const selected = await selectProfiles(hub, {
      refs: [{name: 'beta'}, {namespace: 'a', name: 'beta'}],
      all: true,
      namespace: 'a',
      allNamespaces: false,
    })
    assert.deepEqual(
      selected.map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
      ['a/beta', 'a/alpha'],
    )
  })
})

describe('fuzzyMatches', () => {
  it('matches characters in order', () => {
    assert.ok(fuzzyMatches('fpe', 'fleet-prod/eu-west'))
    assert.ok(!fuzzyMatches('pef', 'fleet-prod'))
    assert.ok(fuzzyMatches('', 'x'))
  })
})
