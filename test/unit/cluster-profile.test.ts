import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {offeredProviders, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

function profile(status: ClusterProfile['status']): ClusterProfile {
  return {metadata: {name: 'p', namespace: 'ns'}, spec: {clusterManager: {name: 'm'}}, status}
}

describe('offeredProviders', () => {
  it('puts accessProviders first and lets them win over credentialProviders of the same name', () => {
    const offered = offeredProviders(
      profile({
        accessProviders: [{name: 'b', cluster: {server: 'https://access-b'}}],
        credentialProviders: [
          {name: 'a', cluster: {server: 'https://cred-a'}},
          {name: 'b', cluster: {server: 'https://cred-b'}},
        ],
      }),
    )
    assert.deepEqual(
      offered.map((p) => [p.name, p.cluster?.server, p.source]),
      [
        ['b', 'https://access-b', 'accessProviders'],
        ['a', 'https://cred-a', 'credentialProviders'],
      ],
    )
  })

  it('reads old hubs that only have credentialProviders', () => {
    const offered = offeredProviders(
      profile({credentialProviders: [{name: 'old', cluster: {server: 'https://x'}}]}),
    )
    assert.deepEqual(
      offered.map((p) => [p.name, p.source]),
      [['old', 'credentialProviders']],
    )
  })

  it('gives nothing for a profile without status', () => {
    assert.deepEqual(offeredProviders(profile(undefined)), [])
  })

  it('skips entries without a name and lists that are not lists, from a hub whose CRD has no schema', () => {
    const status = {
      accessProviders: [
        null,
        'x',
        {cluster: {server: 'https://nameless'}},
        {name: 'ok', cluster: {server: 'https://ok'}},
      ],
      credentialProviders: {name: 'not-a-list'},
    } as unknown as ClusterProfile['status']
    assert.deepEqual(
      offeredProviders(profile(status)).map((p) => [p.name, p.invalid]),
      [['ok', undefined]],
    )
  })

  it('marks an entry whose cluster is refused, with the reason and never the URL', () => {
    const offered = offeredProviders(
      profile({
        accessProviders: [
          {name: 'a', cluster: {server: 'https://u:pw@a.example'}},
          {name: 'b', cluster: {server: 'https://b.example', 'proxy-url': 'ftp://p'}},
          {
            name: 'c',
            cluster: {server: 'https://c.example', 'insecure-skip-tls-verify': 'yes' as unknown as boolean},
          },
          {name: 'd'},
          {name: 'e', cluster: {server: 'https://e.example'}},
        ],
      }),
    )
    assert.deepEqual(
      offered.map((p) => [p.name, p.invalid]),
      [
        ['a', 'user information in the server URL'],
        ['b', 'the proxy URL is not http, https or socks5'],
        ['c', 'its cluster.insecure-skip-tls-verify is not a boolean'],
        ['d', 'it has no cluster'],
        ['e', undefined],
      ],
    )
  })
})

describe('withoutManagedFields: a profile as cpcred keeps it', () => {
  it('drops metadata.managedFields, keeps the rest, and leaves it out of JSON', async () => {
    const {withoutManagedFields} = await import('../../src/core/profiles/cluster-profile.js')
    const read = withoutManagedFields({
      metadata: {name: 'a', labels: {x: 'y'}, managedFields: [{manager: 'kubectl'}]},
      spec: {clusterManager: {name: 'm'}},
    })
    assert.equal(read.metadata.managedFields, undefined)
    assert.deepEqual(JSON.parse(JSON.stringify(read)), {
      metadata: {name: 'a', labels: {x: 'y'}},
      spec: {clusterManager: {name: 'm'}},
    })
    const plain = {metadata: {name: 'b'}}
    assert.equal(withoutManagedFields(plain), plain)
    assert.deepEqual(Object.keys(plain.metadata), ['name'], 'nothing added to a profile without them')
  })
})
