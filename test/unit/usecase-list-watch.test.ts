// list --watch as a use case: the view gets the listing then each change, a failure the watch
// retries is a warning, and the hub is let go however the watch ends.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {listWatchCommand} from '../../src/usecases/list-watch.js'
import type {ProfileWatchEvent} from '../../src/usecases/ports.js'

const profile = (name: string, resourceVersion: string): ClusterProfile => ({
  metadata: {name, namespace: 'fleet', resourceVersion},
  spec: {clusterManager: {name: 'm'}},
})

/** A hub whose first watch fails (when asked to) and whose next one sends `events`, then stops the run. */
function hub(stop: AbortController, events: ProfileWatchEvent[], failFirst = false) {
  let watches = 0
  const closed: string[] = []
  return {
    closed,
    source: {
      listProfilePage: async () => ({items: [profile('a', '1')], resourceVersion: '5'}),
      listNamespaceLabels: async () => new Map<string, Record<string, string>>(),
      async watchProfiles(_: unknown, __: string, onEvent: (event: ProfileWatchEvent) => void) {
        if (watches++ === 0 && failFirst)
          throw new CpcredError('cannot reach the hub: connection refused', {exitCode: ExitCode.Unreachable})
        for (const event of events) onEvent(event)
        stop.abort()
      },
      close: async () => void closed.push('closed'),
    },
  }
}

function run(failFirst: boolean) {
  const stop = new AbortController()
  const fake = hub(stop, [{type: 'ADDED', profile: profile('b', '6')}], failFirst)
  const seen: string[] = []
  const warnings: string[] = []
  const done = listWatchCommand(
    {
      hub: fake.source,
      notices: {warn: (message) => warnings.push(message)},
      view: {
        all: (listing) => seen.push(`all ${listing.profiles.map((p) => p.metadata.name).join(',')}`),
        change: (changed, listing) =>
          seen.push(`change ${changed.metadata.name} (listing of ${listing.profiles.length})`),
      },
    },
    {namespace: 'fleet', signal: stop.signal, sleep: async () => undefined},
  )
  return {done, seen, warnings, closed: fake.closed}
}

describe('listWatchCommand', () => {
  it('shows the listing, then each change with the listing its columns need, and lets go of the hub', async () => {
    const {done, seen, warnings, closed} = run(false)
    await done
    assert.deepEqual(seen, ['all a', 'change b (listing of 1)'])
    assert.deepEqual(warnings, [])
    assert.deepEqual(closed, ['closed'])
  })

  it('says a failure it retries as a warning with when, and goes on', async () => {
    const {done, seen, warnings, closed} = run(true)
    await done
    assert.equal(warnings.length, 1)
    assert.match(warnings[0]!, /^cannot reach the hub: connection refused; retrying in \d+\.\ds$/)
    assert.deepEqual(seen.at(-1), 'change b (listing of 1)')
    assert.deepEqual(closed, ['closed'])
  })
})
