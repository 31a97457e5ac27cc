import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, ExitCode, WatchExpiredError} from '../../src/core/errors.js'
import {
  BACKOFF_INITIAL_MS,
  BACKOFF_MAX_MS,
  backoffDelay,
  followProfiles,
  type ProfileChange,
} from '../../src/usecases/follow-profiles.js'
import type {ProfileWatchEvent, ProfileWatchSource} from '../../src/usecases/ports.js'

function profile(name: string, resourceVersion: string): ClusterProfile {
  return {metadata: {name, namespace: 'fleet', resourceVersion}, spec: {clusterManager: {name: 'm'}}}
}

type Step = {events: ProfileWatchEvent[]; then: 'end'} | {then: 'expire' | 'unreachable'} | {then: 'stop'}

/**
 * A hub that answers lists from `state` and plays `steps` to the watches, one step per watch; it
 * fails the test when a step is left unplayed or a watch starts from an unexpected resourceVersion.
 */
class ScriptedHub implements ProfileWatchSource {
  readonly watchedFrom: string[] = []
  lists = 0

  constructor(
    public state: {items: ClusterProfile[]; resourceVersion: string},
    private readonly steps: Step[],
    private readonly stop: AbortController,
  ) {}

  async listProfilePage() {
    this.lists++
    return {items: this.state.items, resourceVersion: this.state.resourceVersion}
  }

  async listNamespaceLabels() {
    return new Map<string, Record<string, string>>()
  }

  async watchProfiles(
    _options: unknown,
    resourceVersion: string,
    onEvent: (event: ProfileWatchEvent) => void,
  ): Promise<void> {
    this.watchedFrom.push(resourceVersion)
    const step = this.steps.shift()
    assert.ok(step, 'a watch was started after the script ended')
    // Long enough not to count as a watch that ended at once.
    await new Promise((resolve) => setTimeout(resolve, step.then === 'end' ? 1100 : 0))
    if (step.then === 'stop') {
      this.stop.abort()
      return
    }
    if (step.then === 'expire') throw new WatchExpiredError()
    if (step.then === 'unreachable')
      throw new CpcredError('cannot reach the hub: connection refused', {exitCode: ExitCode.Unreachable})
    if (step.then === 'end') for (const event of step.events) onEvent(event)
  }

  done(): void {
    assert.deepEqual(this.steps, [], 'every scripted step was played')
  }
}

async function follow(hub: ScriptedHub, stop: AbortController) {
  const listed: string[][] = []
  const changes: string[] = []
  const problems: string[] = []
  const sleeps: number[] = []
  await followProfiles(
    hub,
    {namespace: 'fleet', signal: stop.signal, sleep: async (ms) => void sleeps.push(ms)},
    {
      onList: (listing) => listed.push(listing.profiles.map((p) => p.metadata.name)),
      onChange: (change: ProfileChange, profiles) =>
        changes.push(
          `${change.type} ${change.profile.metadata.name} -> ${profiles.map((p) => p.metadata.name).join(',')}`,
        ),
      onProblem: (message) => problems.push(message),
    },
  )
  hub.done()
  return {listed, changes, problems, sleeps}
}

describe('followProfiles', () => {
  it('lists, follows events and bookmarks, resumes a watch the server ended where it stopped', async () => {
    const stop = new AbortController()
    const hub = new ScriptedHub(
      {items: [profile('a', '1'), profile('b', '2')], resourceVersion: '5'},
      [
        {
          events: [
            {type: 'ADDED', profile: profile('c', '6')},
            {type: 'MODIFIED', profile: profile('a', '7')},
            {type: 'DELETED', profile: profile('b', '8')},
            {type: 'BOOKMARK', profile: {metadata: {name: '', resourceVersion: '12'}} as ClusterProfile},
          ],
          then: 'end',
        },
        {then: 'stop'},
      ],
      stop,
    )
    const seen = await follow(hub, stop)
    assert.deepEqual(seen.listed, [['a', 'b']])
    assert.deepEqual(seen.changes, ['ADDED c -> a,b,c', 'MODIFIED a -> a,b,c', 'DELETED b -> a,c'])
    assert.deepEqual(hub.watchedFrom, ['5', '12'])
    assert.equal(hub.lists, 1)
  })

  it('lists again when the watch expires (410), telling the differences as events', async () => {
    const stop = new AbortController()
    const hub = new ScriptedHub(
      {items: [profile('a', '1'), profile('b', '2')], resourceVersion: '5'},
      [{then: 'expire'}, {then: 'stop'}],
      stop,
    )
    const original = hub.listProfilePage.bind(hub)
    hub.listProfilePage = async () => {
      const page = await original()
      // What the hub holds by the second listing: a changed, b deleted, d added.
      hub.state = {items: [profile('a', '9'), profile('d', '10')], resourceVersion: '11'}
      return page
    }
    const seen = await follow(hub, stop)
    assert.deepEqual(seen.changes, ['DELETED b -> a', 'MODIFIED a -> a', 'ADDED d -> a,d'])
    assert.deepEqual(hub.watchedFrom, ['5', '11'])
    assert.deepEqual(seen.problems, [], 'an expired watch is routine, not a problem')
  })

  it('retries a hub that went away with growing, capped delays, and resumes from where it was', async () => {
    const stop = new AbortController()
    const hub = new ScriptedHub(
      {items: [profile('a', '1')], resourceVersion: '5'},
      [{then: 'unreachable'}, {then: 'unreachable'}, {then: 'unreachable'}, {then: 'stop'}],
      stop,
    )
    const seen = await follow(hub, stop)
    assert.equal(seen.problems.length, 3)
    assert.match(seen.problems[0]!, /connection refused/)
    assert.ok(seen.sleeps[0]! < seen.sleeps[1]! && seen.sleeps[1]! < seen.sleeps[2]!, `delays ${seen.sleeps}`)
    assert.deepEqual(
      hub.watchedFrom,
      ['5', '5', '5', '5'],
      'no relist needed: the resourceVersion is still good',
    )
    assert.equal(hub.lists, 1)
  })

  it('fails at once when the first listing fails, as kubectl get -w does', async () => {
    const stop = new AbortController()
    const hub = new ScriptedHub({items: [], resourceVersion: '1'}, [], stop)
    hub.listProfilePage = async () => {
      throw new CpcredError('cannot list clusterprofiles: forbidden', {exitCode: ExitCode.Denied})
    }
    await assert.rejects(follow(hub, stop), /forbidden/)
  })
})

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, with ±20% jitter', () => {
    assert.equal(
      backoffDelay(1, () => 0.5),
      BACKOFF_INITIAL_MS,
    )
    assert.equal(
      backoffDelay(2, () => 0.5),
      BACKOFF_INITIAL_MS * 2,
    )
    assert.equal(
      backoffDelay(30, () => 0.5),
      BACKOFF_MAX_MS,
    )
    assert.equal(
      backoffDelay(30, () => 1),
      BACKOFF_MAX_MS * 1.2,
    )
    assert.equal(
      backoffDelay(1, () => 0),
      BACKOFF_INITIAL_MS * 0.8,
    )
  })
})
