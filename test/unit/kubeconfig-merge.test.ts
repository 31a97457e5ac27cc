import assert from 'node:assert/strict'
import path from 'node:path'
import {describe, it} from 'node:test'
import {UsageError} from '../../src/core/errors.js'
import {kubeconfigPaths, mergeIntoKubeconfig, mergeKubeconfigs} from '../../src/core/kubeconfig/merge.js'
import {entryBody, ownerExtensions, ownerOf} from '../../src/core/kubeconfig/owner.js'
import {KUBECONFIG_LISTS, type KubeconfigDocument} from '../../src/core/kubeconfig/document.js'

describe('mergeKubeconfigs (kubectl KUBECONFIG rules)', () => {
  it('lets the first file win for names and current-context', () => {
    const merged = mergeKubeconfigs([
      {
        path: '/a/config',
        document: {
          clusters: [{name: 'c', cluster: {server: 'https://first'}}],
          contexts: [{name: 'x', context: {cluster: 'c'}}],
        },
      },
      {
        path: '/b/config',
        document: {
          'current-context': 'y',
          clusters: [
            {name: 'c', cluster: {server: 'https://second'}},
            {name: 'd', cluster: {server: 'https://d'}},
          ],
          contexts: [{name: 'y', context: {cluster: 'd'}}],
        },
      },
      {path: '/c/config', document: {'current-context': 'x'}},
    ])
    assert.deepEqual(
      merged.clusters.map((c) => [c.name, (c.cluster as {server: string}).server]),
      [
        ['c', 'https://first'],
        ['d', 'https://d'],
      ],
    )
    assert.equal(merged['current-context'], 'y')
    assert.deepEqual(merged.contextSources, {x: '/a/config', y: '/b/config'})
  })

  it('resolves relative file references against the file that holds them', () => {
    const merged = mergeKubeconfigs([
      {
        path: '/home/u/.kube/config',
        document: {
          clusters: [{name: 'c', cluster: {server: 'https://s', 'certificate-authority': 'ca.crt'}}],
          users: [
            {
              name: 'u',
              user: {
                'client-certificate': 'certs/u.crt',
                'client-key': '/abs/u.key',
                exec: {command: './bin/plugin'},
              },
            },
            {name: 'v', user: {exec: {command: 'gke-gcloud-auth-plugin'}}},
          ],
        },
      },
    ])
    assert.equal(
      (merged.clusters[0]!.cluster as Record<string, string>)['certificate-authority'],
      '/home/u/.kube/ca.crt',
    )
    const user = merged.users[0]!.user as Record<string, unknown>
    assert.equal(user['client-certificate'], '/home/u/.kube/certs/u.crt')
    assert.equal(user['client-key'], '/abs/u.key')
    assert.deepEqual(user.exec, {command: '/home/u/.kube/bin/plugin'})
    assert.deepEqual((merged.users[1]!.user as Record<string, unknown>).exec, {
      command: 'gke-gcloud-auth-plugin',
    })
  })

  it('rejects a document that is not a kubeconfig, naming the file', () => {
    assert.throws(
      () => mergeKubeconfigs([{path: '/x', document: ['a']}]),
      /\/x: the file is not a kubeconfig/,
    )
    assert.throws(
      () => mergeKubeconfigs([{path: '/x', document: {clusters: {}}}]),
      /\/x: clusters must be a list/,
    )
    assert.throws(
      () => mergeKubeconfigs([{path: '/x', document: {users: [{user: {}}]}}]),
      /\/x: users\[0\] has no name/,
    )
  })
})

describe('kubeconfigPaths', () => {
  it('uses --kubeconfig alone, else KUBECONFIG, else ~/.kube/config', () => {
    assert.deepEqual(kubeconfigPaths('/f', '/a:/b', '/home/u'), {paths: ['/f'], explicit: true})
    assert.deepEqual(
      kubeconfigPaths(undefined, `/a${path.delimiter}${path.delimiter}/b${path.delimiter}/a`, '/home/u'),
      {
        paths: ['/a', '/b'],
        explicit: false,
      },
    )
    assert.deepEqual(kubeconfigPaths(undefined, undefined, '/home/u'), {
      paths: ['/home/u/.kube/config'],
      explicit: false,
    })
  })
})

describe('mergeIntoKubeconfig and the owner marks (--merge run again)', () => {
  const HUB = 'https://hub.example:6443'
  /** One profile's cluster, user and context named `name`, marked as cpcred's when `owner` is given. */
  const entries = (name: string, server: string, owner?: {hub: string; profile: string; sync?: boolean}) => {
    const mark = owner && {extensions: ownerExtensions({hub: owner.hub, sync: owner.sync}, owner.profile)}
    return {
      clusters: [{name, cluster: {server, ...mark}}],
      users: [{name, user: {exec: {command: '/bin/plugin'}, ...mark}}],
      contexts: [{name, context: {cluster: name, user: name, ...mark}}],
    }
  }
  const generated = (server: string) =>
    ({
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      'current-context': 'fleet/a',
      ...entries('fleet/a', server, {hub: HUB, profile: 'fleet/a'}),
    }) as unknown as KubeconfigDocument
  const merge = (existing: unknown, overwrite = false) =>
    mergeIntoKubeconfig(existing, generated('https://new.example'), {
      overwrite,
      setCurrent: false,
      source: '/k/config',
    })

  it('updates in place what cpcred wrote for the same profile and hub, by kubeconfig or by sync', () => {
    for (const sync of [false, true]) {
      const existing = {
        apiVersion: 'v1',
        kind: 'Config',
        ...entries('fleet/a', 'https://old.example', {hub: HUB, profile: 'fleet/a', sync}),
      }
      const {document, added, updated, replaced} = merge(existing)
      assert.deepEqual(added, [])
      assert.deepEqual(replaced, [])
      assert.deepEqual(updated, ['cluster fleet/a', 'user fleet/a', 'context fleet/a'])
      assert.deepEqual(
        (document.clusters as {cluster: {server: string}}[]).map((entry) => entry.cluster.server),
        ['https://new.example'],
      )
      // What sync wrote stays sync's, so it still prunes the entries when the profile goes.
      for (const {key} of KUBECONFIG_LISTS) {
        const [entry] = document[key] as Record<string, unknown>[]
        assert.deepEqual(ownerOf(entryBody(key, entry!)), {
          hub: HUB,
          profile: 'fleet/a',
          ...(sync ? {sync: true} : {}),
        })
      }
    }
  })

  const foreign: Array<[string, {hub: string; profile: string} | undefined]> = [
    ['another hub', {hub: 'https://other-hub.example:6443', profile: 'fleet/a'}],
    ['another profile', {hub: HUB, profile: 'fleet/b'}],
    ['no mark', undefined],
  ]
  for (const [what, owner] of foreign) {
    it(`refuses an entry of the same name with ${what}, naming --overwrite, which replaces it`, () => {
      const existing = {apiVersion: 'v1', kind: 'Config', ...entries('fleet/a', 'https://old.example', owner)}
      assert.throws(
        () => merge(existing),
        (error: unknown) =>
          error instanceof UsageError &&
          /^\/k\/config already has cluster "fleet\/a", user "fleet\/a", context "fleet\/a", which cpcred did not write for the same profile and hub; refusing to replace them$/.test(
            error.message,
          ) &&
          /--overwrite/.test(error.hint ?? ''),
      )
      assert.deepEqual(merge(existing, true).replaced, ['cluster fleet/a', 'user fleet/a', 'context fleet/a'])
    })
  }
})
