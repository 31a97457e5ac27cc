import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {MEMBER_ID_LABEL, profileKey, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {describeFold, foldMembers, foldSelection} from '../../src/core/fleet/member-fold.js'

function profile(namespace: string, name: string, memberId?: string): ClusterProfile {
  return {
    metadata: {name, namespace, ...(memberId ? {labels: {[MEMBER_ID_LABEL]: memberId}} : {})},
    spec: {clusterManager: {name: 'm'}},
  }
}

const keys = (profiles: ClusterProfile[]) => profiles.map(profileKey)

describe('foldMembers', () => {
  it('keeps one profile per member id in a namespace: the first you can reach, then by name', () => {
    const profiles = [
      profile('fleet', 'eu-1-ocm', 'eu-1'),
      profile('fleet', 'solo'),
      profile('fleet', 'eu-1-gke', 'eu-1'),
      profile('fleet', 'eu-1-aks', 'eu-1'),
    ]
    const reachable = new Set(['fleet/eu-1-ocm', 'fleet/eu-1-gke'])
    const {targets, folds} = foldMembers(profiles, (p) => reachable.has(profileKey(p)))
    assert.deepEqual(keys(targets), ['fleet/solo', 'fleet/eu-1-gke'])
    assert.deepEqual(folds, [
      {
        namespace: 'fleet',
        memberId: 'eu-1',
        kept: 'fleet/eu-1-gke',
        folded: ['fleet/eu-1-ocm', 'fleet/eu-1-aks'],
      },
    ])
    assert.equal(
      describeFold(folds[0]!),
      'fleet/eu-1-gke and fleet/eu-1-ocm, fleet/eu-1-aks stand for one member cluster (inventory-member-id "eu-1" in namespace fleet): using fleet/eu-1-gke, leaving out fleet/eu-1-ocm, fleet/eu-1-aks (--no-dedupe keeps them)',
    )
  })

  it('never folds across namespaces, which are different inventories', () => {
    const profiles = [profile('fleet-a', 'x', 'same'), profile('fleet-b', 'y', 'same')]
    const {targets, folds} = foldMembers(profiles, () => true)
    assert.deepEqual(keys(targets), ['fleet-a/x', 'fleet-b/y'])
    assert.deepEqual(folds, [])
  })

  it('leaves profiles without a member id, or with a unique one, alone and in order', () => {
    const profiles = [profile('n', 'c'), profile('n', 'a', 'one'), profile('n', 'b', 'two')]
    assert.deepEqual(keys(foldMembers(profiles, () => false).targets), ['n/c', 'n/a', 'n/b'])
  })
})

describe('foldSelection', () => {
  const offering = (p: ClusterProfile, provider: string): ClusterProfile => ({
    ...p,
    status: {accessProviders: [{name: provider, cluster: {server: 'https://member.example'}}]},
  })
  const providers: Provider[] = [
    {name: 'gke', execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/gke'}},
  ]
  const profiles = [
    offering(profile('fleet', 'eu-1-aks', 'eu-1'), 'aks'),
    offering(profile('fleet', 'eu-1-gke', 'eu-1'), 'gke'),
  ]

  it('keeps every profile with --no-dedupe, folding nothing', () => {
    assert.deepEqual(foldSelection(profiles, providers, true), {targets: profiles, folds: []})
  })

  it('keeps the profile whose provider the provider file has, though another comes first by name', () => {
    const {targets, folds} = foldSelection(profiles, providers, false)
    assert.deepEqual(keys(targets), ['fleet/eu-1-gke'])
    assert.deepEqual(
      folds.map((fold) => fold.folded),
      [['fleet/eu-1-aks']],
    )
    assert.deepEqual(keys(foldSelection(profiles, [], undefined).targets), ['fleet/eu-1-aks'])
  })
})
