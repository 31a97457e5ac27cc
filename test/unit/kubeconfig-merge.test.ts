import assert from 'node:assert/strict'
import path from 'node:path'
import {describe, it} from 'node:test'
import {kubeconfigPaths, mergeKubeconfigs} from '../../src/core/kubeconfig/merge.js'

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
