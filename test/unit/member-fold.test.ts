import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {MEMBER_ID_LABEL, profileKey, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {
  describeFold,
  duplicateWarnings,
  duplicatesOf,
  foldSelection,
} from '../../src/core/fleet/member-fold.js'

function profile(namespace: string, name: string, created: string, memberId?: string): ClusterProfile {
  return {
    metadata: {
      name,
      namespace,
      creationTimestamp: created,
      ...(memberId !== undefined ? {labels: {[MEMBER_ID_LABEL]: memberId}} : {}),
    },
    spec: {clusterManager: {name: 'm'}},
    // Only "gke" is a provider anyone has: the oldest wins however usable the others are.
    status: {
      accessProviders: [{name: name.endsWith('gke') ? 'gke' : 'other', cluster: {server: 'https://m'}}],
    },
  }
}

const T1 = '2026-11-20T10:00:00Z'
const T2 = '2026-11-21T10:00:00Z'
const T3 = '2026-11-22T10:00:00Z'
const keys = (profiles: ClusterProfile[]) => profiles.map(profileKey)

describe('foldSelection', () => {
  it('keeps the oldest profile of a member id in a namespace, whichever comes first by name or provider', () => {
    const profiles = [
      profile('fleet', 'eu-1-gke', T2, 'eu-1'),
      profile('fleet', 'solo', T3),
      profile('fleet', 'eu-1-ocm', T1, 'eu-1'),
      profile('fleet', 'eu-1-aks', T3, 'eu-1'),
    ]
    const {targets, folds, skipped} = foldSelection(profiles, false)
    assert.deepEqual(keys(targets), ['fleet/solo', 'fleet/eu-1-ocm'])
    assert.deepEqual(skipped, [])
    assert.deepEqual(folds, [
      {
        namespace: 'fleet',
        memberId: 'eu-1',
        profiles: ['fleet/eu-1-ocm', 'fleet/eu-1-gke', 'fleet/eu-1-aks'],
        kept: 'fleet/eu-1-ocm',
        tied: [],
        folded: ['fleet/eu-1-gke', 'fleet/eu-1-aks'],
        oldestCreated: T1,
      },
    ])
    assert.equal(
      describeFold(folds[0]!),
      'fleet/eu-1-ocm, fleet/eu-1-gke, fleet/eu-1-aks stand for one member cluster (inventory-member-id "eu-1" in namespace fleet): using the oldest, fleet/eu-1-ocm, leaving out the newer fleet/eu-1-gke, fleet/eu-1-aks (--no-dedupe keeps them all)',
    )
  })

  it('acts on none of the oldest when they tie, says why each is left out, and drops the newer too', () => {
    const profiles = [
      profile('fleet', 'b', T1, 'eu-1'),
      profile('fleet', 'c', T2, 'eu-1'),
      profile('fleet', 'a', T1, 'eu-1'),
      profile('fleet', 'other', T1, 'eu-2'),
    ]
    const {targets, folds, skipped} = foldSelection(profiles, false)
    assert.deepEqual(keys(targets), ['fleet/other'])
    assert.equal(folds[0]!.kept, undefined)
    assert.deepEqual(folds[0]!.tied, ['fleet/b', 'fleet/a'])
    assert.deepEqual(folds[0]!.folded, ['fleet/c'])
    const reason = (tie: string) =>
      `the oldest of inventory-member-id "eu-1" in namespace fleet tie (${tie}, created ${T1}), so none of them stands for the member cluster (--no-dedupe uses them all)`
    assert.deepEqual(skipped, [
      {profile: 'fleet/b', reason: reason('fleet/b and fleet/a'), kind: 'tied duplicates'},
      {profile: 'fleet/a', reason: reason('fleet/a and fleet/b'), kind: 'tied duplicates'},
    ])
    assert.equal(
      describeFold(folds[0]!),
      `fleet/b, fleet/a, fleet/c stand for one member cluster (inventory-member-id "eu-1" in namespace fleet): the oldest, fleet/b and fleet/a, were created at the same time (${T1}), so using none of them, leaving out the newer fleet/c (--no-dedupe keeps them all)`,
    )
  })

  it('counts profiles without a creationTimestamp as tied: none of them is older', () => {
    const profiles = [profile('n', 'x', '', 'id'), profile('n', 'y', '', 'id')]
    const {targets, skipped} = foldSelection(profiles, false)
    assert.deepEqual(targets, [])
    assert.deepEqual(
      skipped.map((skip) => skip.profile),
      ['n/x', 'n/y'],
    )
  })

  it('never folds across namespaces, which are different inventories', () => {
    const profiles = [profile('fleet-a', 'x', T2, 'same'), profile('fleet-b', 'y', T1, 'same')]
    const {targets, folds} = foldSelection(profiles, false)
    assert.deepEqual(keys(targets), ['fleet-a/x', 'fleet-b/y'])
    assert.deepEqual(folds, [])
    assert.deepEqual(duplicateWarnings(folds), [])
  })

  it('leaves alone, in order, profiles without a member id, with an empty one, or with a unique one', () => {
    const profiles = [
      profile('n', 'c', T1),
      profile('n', 'a', T2, 'one'),
      profile('n', 'b', T1, 'two'),
      profile('n', 'd', T1, ''),
      profile('n', 'e', T1, ''),
    ]
    const {targets, folds} = foldSelection(profiles, false)
    assert.deepEqual(keys(targets), ['n/c', 'n/a', 'n/b', 'n/d', 'n/e'])
    assert.deepEqual(folds, [])
  })

  it('keeps every profile with --no-dedupe, but still finds the duplicates to warn of', () => {
    const profiles = [profile('fleet', 'a', T1, 'eu-1'), profile('fleet', 'b', T1, 'eu-1')]
    const {targets, folds, skipped} = foldSelection(profiles, true)
    assert.deepEqual(targets, profiles)
    assert.deepEqual(skipped, [])
    assert.equal(folds.length, 1)
  })
})

describe('duplicateWarnings', () => {
  it('says one line per inventory with duplicates, naming each member id and its profiles', () => {
    const folds = duplicatesOf([
      profile('fleet', 'a', T1, 'eu-1'),
      profile('fleet', 'b', T2, 'eu-1'),
      profile('fleet', 'c', T1, 'eu-2'),
      profile('fleet', 'd', T1, 'eu-2'),
      profile('other', 'a', T1, 'eu-1'),
      profile('third', 'x', T1, 'us-1'),
      profile('third', 'y', T1, 'us-1'),
    ])
    assert.deepEqual(duplicateWarnings(folds), [
      'the inventory in namespace fleet has duplicate profiles for a member cluster: inventory-member-id "eu-1" on fleet/a, fleet/b; inventory-member-id "eu-2" on fleet/c, fleet/d (its cluster managers should publish one profile per member cluster)',
      'the inventory in namespace third has duplicate profiles for a member cluster: inventory-member-id "us-1" on third/x, third/y (its cluster managers should publish one profile per member cluster)',
    ])
  })
})
