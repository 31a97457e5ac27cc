import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {offeredProviders, type ClusterProfile} from '../../src/core/cluster-profile.js'

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
})
