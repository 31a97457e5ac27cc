// followFleet (sync --watch's selection) with a hand-written hub whose watches stay open until the
// test pushes events: placements follow both their decisions and the profiles they name.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ExitCode, isCpcredError} from '../../src/core/errors.js'
import {
  DECISION_INDEX_LABEL,
  DECISION_KEY_LABEL,
  type PlacementDecision,
} from '../../src/core/fleet/placement.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {followFleet, type FleetFollowInput} from '../../src/usecases/follow-fleet.js'
import type {FleetSelection} from '../../src/usecases/find-profiles.js'
import type {FleetWatchSource, PlacementWatchEvent, ProfileWatchEvent} from '../../src/usecases/ports.js'

let version = 10
const next = () => String(++version)

function profile(name: string, healthy = true, namespace = 'fleet'): ClusterProfile {
  return {
    metadata: {name, namespace, resourceVersion: next()},
    spec: {clusterManager: {name: 'm'}},
    status: {
      conditions: [
        {type: 'ControlPlaneHealthy', status: healthy ? 'True' : 'False', reason: healthy ? 'Up' : 'Down'},
      ],
    },
  } as ClusterProfile
}

function decision(name: string, index: string, refs: string[]): PlacementDecision {
  return {
    metadata: {
      name,
      namespace: 'fleet',
      resourceVersion: next(),
      labels: {[DECISION_KEY_LABEL]: 'web', [DECISION_INDEX_LABEL]: index},
    },
    decisions: refs.map((ref) => {
      const [namespace, name] = ref.includes('/') ? ref.split('/') : [undefined, ref]
      return {clusterProfileRef: {name, namespace}}
    }),
  }
}

/** A hub holding profiles and decisions in "fleet", one profile elsewhere, and open watches. */
class LiveHub implements FleetWatchSource {
  profiles: ClusterProfile[] = []
  decisions: PlacementDecision[] = []
  elsewhere = new Map<string, ClusterProfile>()
  profileWatchers: ((event: ProfileWatchEvent) => void)[] = []
  decisionWatchers: ((event: PlacementWatchEvent) => void)[] = []
  gets: string[] = []

  async listProfilePage() {
    return {items: this.profiles, resourceVersion: next()}
  }
  async listNamespaceLabels() {
    return new Map<string, Record<string, string>>()
  }
  async getProfile(namespace: string, name: string) {
    this.gets.push(`${namespace}/${name}`)
    return this.elsewhere.get(`${namespace}/${name}`)
  }
  async getPlacementDecision(_namespace: string, name: string) {
    return this.decisions.find((d) => d.metadata.name === name)
  }
  async listPlacementDecisions() {
    return {items: this.decisions, resourceVersion: next()}
  }
  watchProfiles(_o: unknown, _rv: string, onEvent: (event: ProfileWatchEvent) => void, signal?: AbortSignal) {
    this.profileWatchers.push(onEvent)
    return untilAborted(signal)
  }
  watchPlacementDecisions(
    _ns: string,
    _selector: string | undefined,
    _rv: string,
    onEvent: (event: PlacementWatchEvent) => void,
    signal?: AbortSignal,
  ) {
    this.decisionWatchers.push(onEvent)
    return untilAborted(signal)
  }
  decide(type: PlacementWatchEvent['type'], changed: PlacementDecision) {
    for (const watcher of this.decisionWatchers) watcher({type, decision: changed})
  }
  change(type: ProfileWatchEvent['type'], changed: ClusterProfile) {
    for (const watcher of this.profileWatchers) watcher({type, profile: changed})
  }
}

function untilAborted(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve()))
}

/** Runs followFleet, and gives each selection as "names | unresolved | skipped" as it arrives. */
function start(hub: LiveHub, input: Partial<FleetFollowInput>) {
  const stop = new AbortController()
  const selections: string[] = []
  const problems: string[] = []
  let wake: () => void = () => undefined
  const show = (selection: FleetSelection) =>
    [
      selection.profiles.map((p) => p.metadata.name).join(','),
      selection.unresolved.map((u) => u.profile).join(','),
      selection.skipped.map((s) => s.profile).join(','),
    ].join(' | ')
  const running = followFleet(
    hub,
    {namespace: 'fleet', allNamespaces: false, ...input},
    {signal: stop.signal},
    {
      onSelection: (selection) => {
        selections.push(show(selection))
        wake()
      },
      onProblem: (message) => problems.push(message),
    },
  )
  /** The next selection that differs from the last one seen. */
  const settled = async (count: number) => {
    while (selections.length < count) await new Promise<void>((resolve) => (wake = resolve))
    await new Promise((resolve) => setImmediate(resolve))
    return selections.at(-1)
  }
  return {running, stop, selections, problems, settled}
}

describe('followFleet: a placement followed through its decisions and its profiles', () => {
  it('selects in decision-index order, then follows new slices, moved decisions and health', async () => {
    const hub = new LiveHub()
    hub.profiles = [profile('a'), profile('b'), profile('c', false)]
    hub.elsewhere.set('other/x', profile('x', true, 'other'))
    hub.decisions = [decision('web-1', '1', ['b', 'other/x']), decision('web-0', '0', ['a', 'ghost'])]
    const run = start(hub, {placement: 'web-1', healthy: true})
    assert.equal(await run.settled(1), 'a,b,x | fleet/ghost | ')
    assert.deepEqual(hub.gets, ['other/x'], 'only a reference outside the watched namespace is read')

    hub.decide('ADDED', decision('web-2', '2', ['c']))
    assert.equal(await run.settled(2), 'a,b,x | fleet/ghost | fleet/c')

    hub.change('MODIFIED', {...profile('c', true)})
    assert.equal(await run.settled(3), 'a,b,x,c | fleet/ghost | ')

    hub.decide('MODIFIED', decision('web-0', '0', ['b']))
    assert.equal(await run.settled(4), 'b,x,c |  | ')

    hub.decide('DELETED', decision('web-1', '1', []))
    assert.equal(await run.settled(5), ' |  | ')
    assert.equal(run.problems.length, 1)
    assert.match(run.problems[0]!, /PlacementDecision "web-1" is gone from namespace "fleet"/)

    hub.decide('ADDED', decision('web-1', '1', ['a']))
    assert.equal(await run.settled(6), 'b,a,c |  | ')
    assert.equal(run.problems.length, 1, 'a decision that is back is not a problem')
    run.stop.abort()
    await run.running
  })

  it('a named decision that is not there at the start is not found (exit 1), and both watches stop', async () => {
    const hub = new LiveHub()
    hub.profiles = [profile('a')]
    const run = start(hub, {placement: 'nope'})
    await assert.rejects(run.running, (error) => {
      assert.ok(isCpcredError(error))
      assert.equal(error.exitCode, ExitCode.Failure)
      assert.match(error.message, /PlacementDecision "nope" not found in namespace "fleet"/)
      return true
    })
    assert.deepEqual(run.selections, [])
  })

  it('-l/--all with --healthy: the profiles watched, those not healthy skipped as their health changes', async () => {
    const hub = new LiveHub()
    hub.profiles = [profile('a'), profile('b', false)]
    const run = start(hub, {healthy: true})
    assert.equal(await run.settled(1), 'a |  | fleet/b')
    hub.change('MODIFIED', profile('a', false))
    assert.equal(await run.settled(2), ' |  | fleet/a,fleet/b')
    run.stop.abort()
    await run.running
  })
})
