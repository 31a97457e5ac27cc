import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  DECISION_INDEX_LABEL,
  DECISION_KEY_LABEL,
  decidedProfiles,
  decisionsReferencing,
  gateHealthy,
  PLACEMENT_KEY_LABEL,
  placementKeySelector,
  referenceProblem,
  siblingSelector,
  slicesOf,
  unhealthyBecause,
  type PlacementDecision,
  type PlacementQuery,
} from '../../src/core/fleet/placement.js'
import type {ClusterProfile, Condition} from '../../src/core/profiles/cluster-profile.js'
import {ExitCode} from '../../src/core/errors.js'
import {readDecided} from '../../src/usecases/select-placement.js'
import {RAW_CONTROL} from '../helpers/controls.js'

function slice(name: string, index: string | undefined, refs: [string, string?][]): PlacementDecision {
  return {
    metadata: {
      name,
      namespace: 'sched',
      labels: {[DECISION_KEY_LABEL]: 'k', ...(index === undefined ? {} : {[DECISION_INDEX_LABEL]: index})},
    },
    decisions: refs.map(([name, namespace]) => ({clusterProfileRef: {name, namespace}})),
  }
}

const keys = (slices: PlacementDecision[]) => decidedProfiles(slices).map((d) => `${d.namespace}/${d.name}`)

describe('decidedProfiles', () => {
  const cases: {name: string; slices: PlacementDecision[]; want: string[]}[] = [
    {name: 'no slices: nothing', slices: [], want: []},
    {
      name: 'one slice: its order, the decision namespace for an empty one',
      slices: [slice('a', undefined, [['z'], ['y', 'fleet'], ['x', '']])],
      want: ['sched/z', 'fleet/y', 'sched/x'],
    },
    {
      name: 'slices by decision-index as numbers, not text (2 before 10)',
      slices: [slice('s10', '10', [['ten']]), slice('s2', '2', [['two']]), slice('s0', '0', [['zero']])],
      want: ['sched/zero', 'sched/two', 'sched/ten'],
    },
    {
      name: 'slices without an index (or with a bad one) last, by name',
      slices: [slice('b', undefined, [['b']]), slice('a', '-1', [['a']]), slice('c', '0', [['c']])],
      want: ['sched/c', 'sched/a', 'sched/b'],
    },
    {
      name: 'a profile in two slices once, where it first appears',
      slices: [slice('s1', '1', [['p'], ['q']]), slice('s0', '0', [['q'], ['r']])],
      want: ['sched/q', 'sched/r', 'sched/p'],
    },
    {
      name: 'a reference without a name is left out; null decisions are none',
      slices: [
        {metadata: {name: 'n', namespace: 'sched'}, decisions: null},
        {metadata: {name: 'm', namespace: 'sched'}, decisions: [{clusterProfileRef: {}}, {}]},
      ],
      want: [],
    },
  ]
  for (const {name, slices, want} of cases) it(name, () => assert.deepEqual(keys(slices), want))

  it('names the slice that referenced each profile first', () => {
    assert.deepEqual(
      decidedProfiles([slice('s1', '1', [['p']]), slice('s0', '0', [['p']])]).map((d) => d.decision),
      ['sched/s0'],
    )
  })
})

describe('selectors of slices', () => {
  it('finds siblings by decision-key, and none without one', () => {
    assert.equal(siblingSelector(slice('a', '0', [])), `${DECISION_KEY_LABEL}=k`)
    assert.equal(siblingSelector({metadata: {name: 'a', labels: {}}}), undefined)
    assert.equal(siblingSelector({metadata: {name: 'a', labels: {[DECISION_KEY_LABEL]: ''}}}), undefined)
    assert.equal(placementKeySelector('app'), 'multicluster.x-k8s.io/placement-key=app')
  })
})

function withHealth(name: string, condition?: Partial<Condition>): ClusterProfile {
  return {
    metadata: {name, namespace: 'fleet'},
    spec: {clusterManager: {name: 'm'}},
    status: condition ? {conditions: [{type: 'ControlPlaneHealthy', status: '', ...condition}]} : {},
  }
}

describe('health gating', () => {
  const cases: {name: string; profile: ClusterProfile; want: string | undefined}[] = [
    {name: 'True: healthy', profile: withHealth('a', {status: 'True'}), want: undefined},
    {
      name: 'False with reason and message',
      profile: withHealth('b', {status: 'False', reason: 'Down', message: 'no answer'}),
      want: 'ControlPlaneHealthy is False: Down: no answer',
    },
    {
      name: 'Unknown with a reason only',
      profile: withHealth('c', {status: 'Unknown', reason: 'Probing'}),
      want: 'ControlPlaneHealthy is Unknown: Probing',
    },
    {name: 'no condition', profile: withHealth('d'), want: 'no ControlPlaneHealthy condition'},
    {name: 'empty status', profile: withHealth('e', {status: ''}), want: 'ControlPlaneHealthy is empty'},
    {
      name: 'true in lower case is not True',
      profile: withHealth('f', {status: 'true'}),
      want: 'ControlPlaneHealthy is true',
    },
  ]
  for (const {name, profile, want} of cases) it(name, () => assert.equal(unhealthyBecause(profile), want))

  it('keeps the healthy in order and lists the others with why', () => {
    const {healthy, skipped} = gateHealthy(cases.map((c) => c.profile))
    assert.deepEqual(
      healthy.map((p) => p.metadata.name),
      ['a'],
    )
    assert.deepEqual(
      skipped.map((s) => s.profile),
      ['fleet/b', 'fleet/c', 'fleet/d', 'fleet/e', 'fleet/f'],
    )
  })
})

describe('decisionsReferencing', () => {
  it('finds the decisions that name a profile, by its namespace too', () => {
    const p = withHealth('x')
    const decisions = [
      slice('one', '0', [['x', 'fleet']]),
      slice('two', '1', [['x']]),
      slice('three', '2', [['y', 'fleet']]),
    ]
    assert.deepEqual(
      decisionsReferencing(p, decisions).map((d) => d.metadata.name),
      ['one'],
    )
  })
})

describe('slicesOf: a placement among every decision of its namespace', () => {
  const labelled = (name: string, labels: Record<string, string>): PlacementDecision => ({
    metadata: {name, namespace: 'sched', labels},
  })
  const all = [
    labelled('web-0', {[DECISION_KEY_LABEL]: 'web', [PLACEMENT_KEY_LABEL]: 'app'}),
    labelled('web-1', {[DECISION_KEY_LABEL]: 'web', [PLACEMENT_KEY_LABEL]: 'app'}),
    labelled('db-0', {[DECISION_KEY_LABEL]: 'db', [PLACEMENT_KEY_LABEL]: 'data'}),
    labelled('alone', {}),
    labelled('empty-key', {[DECISION_KEY_LABEL]: ''}),
    labelled('other-empty-key', {[DECISION_KEY_LABEL]: ''}),
  ]
  const names = (slices: PlacementDecision[] | undefined) => slices?.map((s) => s.metadata.name)
  const cases: {name: string; query: PlacementQuery; want: string[] | undefined}[] = [
    {name: 'a named slice brings its siblings', query: {decision: 'web-1'}, want: ['web-0', 'web-1']},
    {name: 'a slice without a decision-key is alone', query: {decision: 'alone'}, want: ['alone']},
    {
      name: 'an empty decision-key ties nothing together',
      query: {decision: 'empty-key'},
      want: ['empty-key'],
    },
    {name: 'a named slice that is not there: undefined', query: {decision: 'gone'}, want: undefined},
    {
      name: 'a placement-key: every slice labelled with it',
      query: {placementKey: 'app'},
      want: ['web-0', 'web-1'],
    },
    {name: 'a placement-key nothing has: no slices', query: {placementKey: 'none'}, want: []},
  ]
  for (const {name, query, want} of cases) {
    it(name, () => assert.deepEqual(names(slicesOf(query, all)), want))
  }
})

describe('references that may not be read (readDecided)', () => {
  const hostile: [string, string?][] = [
    ['../x'],
    ['p2', '../../w3-esc'],
    ['.'],
    ['..'],
    ['a/b'],
    ['%2F'],
    ['UPPER'],
    ['a'.repeat(300)],
    ['a\u001b[2Jb'],
    ['ok', 'a.b'],
  ]

  it('are per-target errors (exit 1) naming the reference and the rule, and are never read', async () => {
    const read: string[] = []
    const placed = await readDecided(
      decidedProfiles([slice('hostile', '0', [...hostile, ['good']])]),
      (ref) => {
        read.push(`${ref.namespace}/${ref.name}`)
        return {metadata: {name: ref.name, namespace: ref.namespace}} as ClusterProfile
      },
    )
    assert.deepEqual(read, ['sched/good'])
    assert.deepEqual(
      placed.profiles.map((p) => p.metadata.name),
      ['good'],
    )
    assert.equal(placed.unresolved.length, hostile.length)
    for (const target of placed.unresolved) {
      assert.equal(target.exitCode, ExitCode.Failure)
      assert.match(
        target.error,
        /^PlacementDecision sched\/hostile references ClusterProfile ".*": a (name|namespace) must be a DNS-1123/,
      )
      assert.match(target.error, /no request was made for it$/)
      assert.doesNotMatch(target.error, RAW_CONTROL)
    }
    assert.match(
      placed.unresolved[1]!.error,
      /"\.\.\/\.\.\/w3-esc\/p2": a namespace must be a DNS-1123 label/,
    )
    assert.match(placed.unresolved[9]!.error, /"a\.b\/ok": a namespace must be/)
  })

  it('referenceProblem says nothing of a valid reference', () => {
    assert.equal(referenceProblem({namespace: 'fleet', name: 'eu.west-1'}), undefined)
  })
})
