import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {KubeconfigDocument} from '../../src/core/kubeconfig/document.js'
import {OWNER_EXTENSION} from '../../src/core/kubeconfig/owner.js'
import {describeChange, planSync, type SyncPlanInput} from '../../src/core/kubeconfig/sync.js'

const HUB = 'https://hub.example:6443'

/** The three entries cpcred writes for a profile, marked for `hub` (by sync, unless `by` says otherwise). */
function entries(
  profile: string,
  server: string,
  hub = HUB,
  name = profile,
  by: 'sync' | 'kubeconfig' = 'sync',
) {
  const mark = by === 'sync' ? {hub, profile, sync: true} : {hub, profile}
  const extensions = () => [{extension: mark, name: OWNER_EXTENSION}]
  return {
    cluster: {cluster: {extensions: extensions(), server}, name},
    context: {context: {cluster: name, extensions: extensions(), user: name}, name},
    user: {
      name,
      user: {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          args: [],
          command: '/bin/plugin',
          env: [],
          provideClusterInfo: false,
        },
        extensions: extensions(),
      },
    },
  }
}

function desired(...profiles: ReturnType<typeof entries>[]): KubeconfigDocument {
  return {
    apiVersion: 'v1',
    clusters: profiles.map((p) => p.cluster),
    contexts: profiles.map((p) => p.context),
    'current-context': profiles[0]?.context.name ?? '',
    kind: 'Config',
    preferences: {},
    users: profiles.map((p) => p.user) as KubeconfigDocument['users'],
  }
}

function file(...profiles: ReturnType<typeof entries>[]): Record<string, unknown> {
  const {['current-context']: _, ...rest} = desired(...profiles)
  return structuredClone(rest)
}

const mine = {
  cluster: {cluster: {server: 'https://mine.example'}, name: 'mine'},
  context: {context: {cluster: 'mine', user: 'mine'}, name: 'mine'},
  user: {name: 'mine', user: {token: 'my-own-token'}},
}

function plan(existing: unknown, want: KubeconfigDocument, overrides: Partial<SyncPlanInput> = {}) {
  return planSync({
    existing,
    desired: want,
    hub: HUB,
    unreachable: new Set(),
    skipped: new Map(),
    setCurrent: false,
    source: 'config',
    ...overrides,
  })
}

const names = (document: Record<string, unknown>, key: string) =>
  (document[key] as {name: string}[]).map((entry) => entry.name)

describe('planSync', () => {
  it('adds every selected profile to a missing file', () => {
    const result = plan(undefined, desired(entries('fleet/a', 'https://a'), entries('fleet/b', 'https://b')))
    assert.deepEqual(result.changes.map(describeChange), ['+ add fleet/a', '+ add fleet/b'])
    assert.equal(result.changed, true)
    assert.deepEqual(names(result.document, 'contexts'), ['fleet/a', 'fleet/b'])
    assert.equal(result.document['current-context'], '', 'never chosen without --set-current')
  })

  it('changes nothing when the file is in step', () => {
    const a = entries('fleet/a', 'https://a')
    const result = plan({...file(a), 'current-context': 'fleet/a'}, desired(a))
    assert.deepEqual(result.changes, [])
    assert.equal(result.changed, false)
  })

  it('updates in place what changed, and says what', () => {
    const before = {
      ...file(entries('fleet/a', 'https://old'), entries('fleet/b', 'https://b')),
      'current-context': 'fleet/b',
    }
    const result = plan(before, desired(entries('fleet/a', 'https://new'), entries('fleet/b', 'https://b')))
    assert.deepEqual(result.changes.map(describeChange), ['~ update fleet/a (server)'])
    assert.equal(
      (result.document.clusters as {cluster: {server: string}}[])[0]!.cluster.server,
      'https://new',
    )
    assert.equal(result.document['current-context'], 'fleet/b')
  })

  it('prunes what is gone or unreachable, and unsets a pruned current context', () => {
    const before = {
      ...file(
        entries('fleet/a', 'https://a'),
        entries('fleet/b', 'https://b'),
        entries('fleet/c', 'https://c'),
      ),
      'current-context': 'fleet/a',
    }
    const result = plan(before, desired(entries('fleet/c', 'https://c')), {unreachable: new Set(['fleet/b'])})
    assert.deepEqual(result.changes.map(describeChange), [
      '- prune fleet/a (it is gone from the hub or no longer selected)',
      '- prune fleet/b (no provider in the provider file can reach it)',
    ])
    assert.deepEqual(names(result.document, 'clusters'), ['fleet/c'])
    assert.deepEqual(names(result.document, 'users'), ['fleet/c'])
    assert.equal(result.document['current-context'], '')
    assert.equal(result.currentContextPruned, 'fleet/a')
  })

  it('never touches an entry the user wrote, even under the same name: it skips that profile', () => {
    const theirs = {
      cluster: {cluster: {server: 'https://theirs'}, name: 'fleet/a'},
      context: {context: {cluster: 'fleet/a', user: 'x'}, name: 'fleet/a'},
    }
    const before = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [theirs.cluster, mine.cluster],
      contexts: [theirs.context, mine.context],
      users: [mine.user],
    }
    const snapshot = structuredClone(before)
    const result = plan(before, desired(entries('fleet/a', 'https://a'), entries('fleet/b', 'https://b')))
    assert.deepEqual(result.changes.map(describeChange), [
      '+ add fleet/b',
      '! skip fleet/a (the kubeconfig already has a cluster, context "fleet/a" that cpcred sync did not write for this profile; rename it or use --context-name)',
    ])
    assert.deepEqual(result.document.clusters, [
      ...snapshot.clusters,
      entries('fleet/b', 'https://b').cluster,
    ])
    assert.deepEqual((result.document.contexts as unknown[]).slice(0, 2), snapshot.contexts)
    assert.deepEqual(before, snapshot, 'the input is not modified')
  })

  it("leaves another hub's entries and the user's alone, in their order", () => {
    const other = entries('fleet/a', 'https://a', 'https://other-hub.example')
    const before = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [mine.cluster, other.cluster],
      contexts: [mine.context, other.context],
      users: [mine.user, other.user],
      preferences: {colors: true},
      'current-context': 'mine',
    }
    const result = plan(before, desired())
    assert.deepEqual(result.changes, [])
    assert.deepEqual(result.document, before)
  })

  it('keeps the entries of a profile that failed to resolve, and says why it was skipped', () => {
    const before = file(entries('fleet/a', 'https://a'))
    const result = plan(before, desired(), {skipped: new Map([['fleet/a', 'its CA is not PEM']])})
    assert.deepEqual(result.changes.map(describeChange), ['! skip fleet/a (its CA is not PEM)'])
    assert.equal(result.changed, false)
    assert.deepEqual(names(result.document, 'contexts'), ['fleet/a'])
  })

  it('makes the first profile current with --set-current', () => {
    const result = plan(
      undefined,
      desired(entries('fleet/b', 'https://b'), entries('fleet/a', 'https://a')),
      {setCurrent: true},
    )
    assert.equal(result.document['current-context'], 'fleet/b')
  })

  it('renames: the entry under the old name goes, the new one comes', () => {
    const before = file(entries('fleet/a', 'https://a'))
    const result = plan(before, desired(entries('fleet/a', 'https://a', HUB, 'a-renamed')))
    assert.deepEqual(result.changes.map(describeChange), [
      '+ add fleet/a as "a-renamed"',
      '- prune fleet/a (it is gone from the hub or no longer selected)',
    ])
  })

  it('adopts what `cpcred kubeconfig` wrote for a selected profile, and never prunes what it wrote', () => {
    const merged = entries('fleet/a', 'https://a', HUB, 'fleet/a', 'kubeconfig')
    const custom = entries('fleet/b', 'https://b', HUB, 'my-b', 'kubeconfig')
    const result = plan(file(merged, custom), desired(entries('fleet/a', 'https://a')))
    assert.deepEqual(result.changes.map(describeChange), ['~ update fleet/a (entries)'])
    assert.deepEqual(names(result.document, 'contexts'), ['fleet/a', 'my-b'])
    const context = (result.document.contexts as {context: {extensions: {extension: object}[]}}[])[0]!
    assert.deepEqual(context.context.extensions[0]!.extension, {hub: HUB, profile: 'fleet/a', sync: true})
  })

  it('does not take a name cpcred wrote for another profile', () => {
    const other = entries('fleet/z', 'https://z', HUB, 'fleet/a', 'kubeconfig')
    const result = plan(file(other), desired(entries('fleet/a', 'https://a')))
    assert.equal(result.changes[0]!.action, 'skip')
    assert.equal(result.changed, false)
  })

  it('refuses a file that is not a kubeconfig', () => {
    assert.throws(() => plan(['a', 'list'], desired()), /config is not a kubeconfig/)
  })
})
