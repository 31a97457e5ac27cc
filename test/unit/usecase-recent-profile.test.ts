import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {readRecentProfile, staleProfileWarning} from '../../src/usecases/recent-profile.js'
import {NOW, outage, profile, profileHub, snapshot, snapshots} from './usecase-fakes.js'

const ref = {namespace: 'fleet', name: 'eu'}
const HOUR = 3600_000
const freshness = {maxAgeMs: 5_000, maxStaleMs: 24 * HOUR, remember: true}

describe('readRecentProfile: failures first', () => {
  it('passes on a failure of the hub that is not an outage, even with a snapshot to fall back on', async () => {
    const denied = new Error('hub says 403')
    const {hub} = profileHub(() => denied)
    await assert.rejects(
      readRecentProfile({hub, ...snapshots([snapshot(HOUR)]), now: () => NOW}, ref, freshness),
      (error) => error === denied,
    )
  })

  it('passes on an outage when there is no snapshot', async () => {
    const down = outage()
    const {hub} = profileHub(() => down)
    await assert.rejects(
      readRecentProfile({hub, ...snapshots(), now: () => NOW}, ref, freshness),
      (error) => error === down,
    )
  })

  it('passes on an outage with --profile-max-stale 0: no snapshot stands in', async () => {
    const down = outage()
    const {hub, reads} = profileHub(() => down)
    await assert.rejects(
      readRecentProfile({hub, ...snapshots([snapshot(HOUR)]), now: () => NOW}, ref, {
        ...freshness,
        maxStaleMs: 0,
      }),
      (error) => error === down,
    )
    assert.equal(
      reads[0]!.idleTimeoutMs,
      undefined,
      'nothing to fall back on: the hub gets its usual patience',
    )
  })

  it('refuses a snapshot older than --profile-max-stale during an outage, as unreachable (3)', async () => {
    const {hub} = profileHub(() => outage())
    await assert.rejects(
      readRecentProfile({hub, ...snapshots([snapshot(25 * HOUR)]), now: () => NOW}, ref, freshness),
      (error) => {
        assert.ok(error instanceof CpcredError)
        assert.equal(error.exitCode, ExitCode.Unreachable)
        assert.match(
          error.message,
          /connection refused; the last copy of ClusterProfile fleet\/eu was read 25h ago/,
        )
        assert.match(error.message, /--profile-max-stale 24h/)
        return true
      },
    )
  })

  it("never uses another hub's snapshot", async () => {
    const down = outage()
    const {hub} = profileHub(() => down)
    const other = {...snapshot(HOUR), hub: 'another-hub'}
    await assert.rejects(readRecentProfile({hub, ...snapshots([other]), now: () => NOW}, ref, freshness))
  })
})

describe('readRecentProfile', () => {
  it('uses the snapshot of the hub during an outage, saying how old it is, without a snapshot for answers', async () => {
    const {hub, reads} = profileHub(() => outage())
    const recent = await readRecentProfile(
      {hub, ...snapshots([snapshot(2 * HOUR)]), now: () => NOW},
      ref,
      freshness,
    )
    assert.equal(recent.profile.metadata.name, 'eu')
    assert.equal(recent.snapshot, undefined)
    assert.equal(recent.stale?.ageMs, 2 * HOUR)
    assert.equal(reads[0]!.idleTimeoutMs, 10_000, 'a silent hub is given up on sooner when a copy exists')
    assert.match(
      staleProfileWarning('fleet/eu', recent.stale!),
      /connection refused; using ClusterProfile fleet\/eu as read 120m ago \(--profile-max-stale 24h0m0s\) and only a credential already in the cache/,
    )
  })

  it('uses a snapshot read within --profile-max-age without asking the hub', async () => {
    const {hub, reads} = profileHub(() => assert.fail('the hub must not be asked'))
    const recent = await readRecentProfile(
      {hub, ...snapshots([snapshot(1_000)]), now: () => NOW},
      ref,
      freshness,
    )
    assert.equal(reads.length, 0)
    assert.equal(recent.snapshot?.fetchedAt, NOW - 1_000)
  })

  it('reads the hub when the snapshot is older than --profile-max-age, and remembers what it read', async () => {
    const {hub, reads} = profileHub(() => profile())
    const kept = snapshots([snapshot(10_000)])
    const recent = await readRecentProfile({hub, ...kept, now: () => NOW}, ref, freshness)
    assert.equal(reads.length, 1)
    assert.equal(kept.remembered.length, 1)
    assert.equal(recent.snapshot?.fetchedAt, NOW)
  })

  it('with --profile-max-age 0 still keeps the profile (for an outage) but offers no snapshot for answers', async () => {
    const {hub} = profileHub(() => profile())
    const kept = snapshots()
    const recent = await readRecentProfile({hub, ...kept, now: () => NOW}, ref, {...freshness, maxAgeMs: 0})
    assert.equal(kept.remembered.length, 1)
    assert.equal(recent.snapshot, undefined)
  })

  it('with --no-cache neither reads nor keeps a snapshot', async () => {
    const {hub, reads} = profileHub(() => profile())
    const kept = snapshots([snapshot(1_000)])
    const recent = await readRecentProfile({hub, ...kept, now: () => NOW}, ref, {
      ...freshness,
      remember: false,
    })
    assert.equal(reads.length, 1)
    assert.equal(reads[0]!.remember, false)
    assert.equal(kept.remembered.length, 0)
    assert.equal(recent.snapshot, undefined)
  })

  it('looks the profile up in the hub namespace when the reference names none', async () => {
    const {hub} = profileHub(() => outage())
    const recent = await readRecentProfile(
      {hub, ...snapshots([snapshot(HOUR)]), now: () => NOW},
      {name: 'eu'},
      freshness,
    )
    assert.ok(recent.stale)
  })
})
