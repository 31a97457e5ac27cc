import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, UsageError} from '../../src/core/errors.js'
import {MEMBER_ID_LABEL, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {
  selectExecTargets,
  type ExecTargetInput,
  type ExecTargetPorts,
} from '../../src/usecases/exec-targets.js'
import {notices, profile, targetHub} from './usecase-fakes.js'
import type {PlacementDecision} from '../../src/core/fleet/placement.js'

/** A slice of a decision: its labels and the profiles it references, as NAME or NAMESPACE/NAME. */
function slice(name: string, labels: Record<string, string>, refs: string[]): PlacementDecision {
  return {
    metadata: {name, namespace: 'fleet', labels},
    decisions: refs.map((ref) => {
      const [namespace, profileName] = ref.includes('/') ? ref.split('/') : [undefined, ref]
      return {clusterProfileRef: {name: profileName!, ...(namespace ? {namespace} : {})}}
    }),
  }
}

function healthy(name: string, status: string, reason?: string, message?: string): ClusterProfile {
  const p = profile(name)
  p.status!.conditions = [{type: 'ControlPlaneHealthy', status, reason, message}]
  return p
}

const KEY = 'multicluster.x-k8s.io/decision-key'
const INDEX = 'multicluster.x-k8s.io/decision-index'
const PLACEMENT_KEY = 'multicluster.x-k8s.io/placement-key'

const none: ExecTargetInput = {names: [], all: false, allNamespaces: false}

function world(
  profiles: ClusterProfile[],
  pick?: ExecTargetPorts['pick'],
  decisions: PlacementDecision[] = [],
  forbidden: string[] = [],
) {
  const hub = targetHub(profiles, decisions, forbidden)
  const told = notices()
  const ports: ExecTargetPorts = {openHub: async () => hub.hub, pick, notices: told.notices}
  return {ports, hub, told}
}

describe('selectExecTargets: failures first', () => {
  it('refuses to guess without a terminal when nothing is named or selected', async () => {
    const w = world([profile('a')])
    await assert.rejects(selectExecTargets(w.ports, none), (error) => {
      assert.ok(error instanceof UsageError)
      assert.match(error.message, /no target given/)
      return true
    })
    assert.equal(w.hub.closed(), 1, 'the hub connection is closed on failure too')
  })

  it('fails a selection smaller than --min-targets', async () => {
    const w = world([profile('a')])
    await assert.rejects(
      selectExecTargets(w.ports, {...none, all: true, minTargets: 2}),
      (error) => error instanceof CpcredError && /fewer than --min-targets 2/.test(error.message),
    )
  })

  it('passes on a name the hub does not have', async () => {
    const w = world([profile('a')])
    await assert.rejects(selectExecTargets(w.ports, {...none, names: ['fleet/zz']}), /zz/)
  })
})

describe('selectExecTargets', () => {
  it('selects by names and --all, folded', async () => {
    const w = world([profile('a'), profile('b')])
    const {profiles: found} = await selectExecTargets(w.ports, {...none, all: true})
    assert.deepEqual(
      found.map((p) => p.metadata.name),
      ['a', 'b'],
    )
    const {profiles: named} = await selectExecTargets(w.ports, {...none, names: ['fleet/b']})
    assert.deepEqual(
      named.map((p) => p.metadata.name),
      ['b'],
    )
  })

  it('says where it looked when a selection matches nothing, and returns none', async () => {
    const w = world([])
    assert.deepEqual(await selectExecTargets(w.ports, {...none, all: true}), {
      profiles: [],
      unresolved: [],
      skipped: [],
    })
    assert.deepEqual(w.told.said.notes, ['No ClusterProfiles found in fleet namespace.'])
  })

  it('lets the user pick on a terminal when nothing is named or selected', async () => {
    const offered: string[][] = []
    const w = world([profile('a'), profile('b')], async (profiles) => {
      offered.push(profiles.map((p) => p.metadata.name))
      return profiles.slice(1)
    })
    const {profiles: picked} = await selectExecTargets(w.ports, none)
    assert.deepEqual(offered, [['a', 'b']])
    assert.deepEqual(
      picked.map((p) => p.metadata.name),
      ['b'],
    )
  })
})

describe('selectExecTargets: placements and health', () => {
  const slices = [
    slice('web-1', {[KEY]: 'web', [INDEX]: '1', [PLACEMENT_KEY]: 'app'}, ['c', 'a']),
    slice('web-0', {[KEY]: 'web', [INDEX]: '0', [PLACEMENT_KEY]: 'app'}, ['b', 'a', 'gone']),
    slice('other', {[KEY]: 'other'}, ['d']),
  ]
  const fleet = [profile('a'), profile('b'), profile('c'), profile('d')]

  it('refuses a placement beside names, -l or --all, and both placement flags at once', async () => {
    const w = world(fleet, undefined, slices)
    await assert.rejects(
      selectExecTargets(w.ports, {...none, all: true, placement: 'web-0'}),
      (error) => error instanceof UsageError && /--placement cannot be combined/.test(error.message),
    )
    await assert.rejects(
      selectExecTargets(w.ports, {...none, placement: 'web-0', placementKey: 'app'}),
      UsageError,
    )
  })

  it('says which PlacementDecision does not exist, as not found (exit 1, as kubectl)', async () => {
    const w = world(fleet, undefined, slices)
    await assert.rejects(
      selectExecTargets(w.ports, {...none, placement: 'nope'}),
      (error) =>
        error instanceof CpcredError && error.exitCode === 1 && /"nope" not found/.test(error.message),
    )
  })

  it('refuses a --placement that is not a name, before asking the hub', async () => {
    const w = world(fleet, undefined, slices)
    await assert.rejects(
      selectExecTargets(w.ports, {...none, placement: '../x'}),
      (error) =>
        error instanceof UsageError &&
        /--placement "\.\.\/x" is not a PlacementDecision name/.test(error.message),
    )
  })

  it('takes every slice of the decision, in decision-index order, each profile once, missing ones as errors', async () => {
    const w = world(fleet, undefined, slices)
    const chosen = await selectExecTargets(w.ports, {...none, placement: 'web-1'})
    assert.deepEqual(
      chosen.profiles.map((p) => p.metadata.name),
      ['b', 'a', 'c'],
    )
    assert.deepEqual(
      chosen.unresolved.map((u) => [u.profile, u.exitCode]),
      [['fleet/gone', 1]],
    )
    assert.match(chosen.unresolved[0]!.error, /not found \(referenced by PlacementDecision fleet\/web-0\)/)
  })

  it('folds the profiles of one member cluster into the oldest, says so, and keeps them apart with --no-dedupe', async () => {
    const member = (name: string, created: string) => {
      const p = profile(name)
      p.metadata.labels = {[MEMBER_ID_LABEL]: 'eu-1'}
      p.metadata.creationTimestamp = created
      return p
    }
    const profiles = [
      member('new', '2026-11-20T10:00:00Z'),
      member('old', '2026-11-19T10:00:00Z'),
      profile('solo'),
    ]
    const folded = world(profiles)
    const chosen = await selectExecTargets(folded.ports, {...none, all: true})
    assert.deepEqual(chosen.profiles.map((p) => p.metadata.name).sort(), ['old', 'solo'])
    assert.equal(folded.told.said.warnings.length, 1)
    assert.match(folded.told.said.warnings[0]!, /eu-1/)
    assert.equal(folded.told.said.notes.length, 1)
    assert.match(folded.told.said.notes[0]!, /fleet\/old/)

    const apart = world(profiles)
    const all = await selectExecTargets(apart.ports, {...none, all: true, noDedupe: true})
    assert.deepEqual(all.profiles.map((p) => p.metadata.name).sort(), ['new', 'old', 'solo'])
    assert.equal(apart.told.said.warnings.length, 1, 'duplicates are warned of with --no-dedupe too')
    assert.deepEqual(apart.told.said.notes, [])
  })

  it('selects by placement-key, and reports a reference it may not read with the reason', async () => {
    const decisions = [...slices, slice('x', {[PLACEMENT_KEY]: 'app', [INDEX]: '2'}, ['secret/s'])]
    const w = world(fleet, undefined, decisions, ['secret'])
    const chosen = await selectExecTargets(w.ports, {...none, placementKey: 'app'})
    assert.deepEqual(
      chosen.profiles.map((p) => p.metadata.name),
      ['b', 'a', 'c'],
    )
    assert.deepEqual(
      chosen.unresolved.map((u) => [u.profile, u.exitCode]),
      [
        ['fleet/gone', 1],
        ['secret/s', 4],
      ],
    )
    assert.match(chosen.unresolved[1]!.error, /cannot be read: .*forbidden/)
  })

  it('--healthy keeps only ControlPlaneHealthy=True and says why the others are skipped', async () => {
    const w = world([
      healthy('a', 'True'),
      healthy('b', 'False', 'APIServerDown', 'no answer on :6443'),
      profile('c'),
      healthy('d', 'Unknown'),
    ])
    const chosen = await selectExecTargets(w.ports, {...none, all: true, healthy: true})
    assert.deepEqual(
      chosen.profiles.map((p) => p.metadata.name),
      ['a'],
    )
    assert.deepEqual(chosen.skipped, [
      {
        profile: 'fleet/b',
        reason: 'ControlPlaneHealthy is False: APIServerDown: no answer on :6443',
        kind: 'not healthy',
      },
      {profile: 'fleet/c', reason: 'no ControlPlaneHealthy condition', kind: 'not healthy'},
      {profile: 'fleet/d', reason: 'ControlPlaneHealthy is Unknown', kind: 'not healthy'},
    ])
  })

  it('skips the oldest of one member cluster when they tie, after what --healthy skipped', async () => {
    const member = (name: string, created: string, status = 'True') => {
      const p = healthy(name, status)
      p.metadata.labels = {[MEMBER_ID_LABEL]: 'eu-1'}
      p.metadata.creationTimestamp = created
      return p
    }
    const w = world([
      member('x', '2026-11-20T10:00:00Z'),
      member('y', '2026-11-20T10:00:00Z'),
      member('z', '2026-11-19T10:00:00Z', 'False'),
      healthy('solo', 'True'),
    ])
    const chosen = await selectExecTargets(w.ports, {...none, all: true, healthy: true})
    assert.deepEqual(
      chosen.profiles.map((p) => p.metadata.name),
      ['solo'],
    )
    assert.deepEqual(
      chosen.skipped.map((skip) => skip.profile),
      ['fleet/z', 'fleet/x', 'fleet/y'],
    )
    assert.match(
      chosen.skipped[1]!.reason,
      /^the oldest of inventory-member-id "eu-1" in namespace fleet tie \(fleet\/x and fleet\/y,/,
    )
  })

  it('applies --shard after the placement selection', async () => {
    const w = world(fleet, undefined, slices)
    const parts = []
    for (const index of [1, 2]) {
      const chosen = await selectExecTargets(w.ports, {...none, placement: 'web-0', shard: {index, count: 2}})
      parts.push(...chosen.profiles.map((p) => p.metadata.name), ...chosen.unresolved.map((u) => u.profile))
    }
    assert.deepEqual(parts.sort(), ['a', 'b', 'c', 'fleet/gone'])
  })
})
