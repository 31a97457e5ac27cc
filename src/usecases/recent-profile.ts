// A profile for the commands that run all the time (credential, exec): read again from the hub
// unless it was read moments ago (--profile-max-age), since a TLS round trip to the hub would
// dominate a warm run; and while the hub is down, the last one read, within --profile-max-stale, so
// that a hub outage does not become an outage of every cluster it lists.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import {humanDuration} from '../core/text/format.js'
import type {ProfileRef} from './profile-ref.js'
import type {ProfileHub, ProfileSnapshot, ProfileSnapshotStore} from './ports.js'

export interface RecentProfilePorts {
  hub: ProfileHub
  snapshots: ProfileSnapshotStore
  /** Epoch milliseconds. */
  now(): number
}

/** How long a profile read waits for a silent hub when a copy of the profile is there to fall back on. */
const HUB_PATIENCE_MS = 10_000

/** How old a profile may be: --profile-max-age while the hub answers, --profile-max-stale while it is down. */
export interface ProfileFreshness {
  maxAgeMs: number
  /** 0: never use a snapshot when the hub cannot be reached. */
  maxStaleMs: number
  /** Keep what is read (not with --no-cache: that run neither reads nor writes caches). */
  remember: boolean
}

/** The hub could not be reached, and the profile is its last snapshot. */
export interface StaleProfile {
  ageMs: number
  maxStaleMs: number
  /** What reaching the hub said, e.g. "cannot reach hub https://…: connection refused". */
  reason: string
}

export interface RecentProfile {
  profile: ClusterProfile
  /** Set when the profile may be used again within --profile-max-age (for answers). */
  snapshot?: ProfileSnapshot
  /** Set when the hub is down and the profile is a snapshot within --profile-max-stale. */
  stale?: StaleProfile
}

/**
 * The profile: a snapshot read less than maxAgeMs ago, else the hub's, else — when the hub is down
 * (connection refused, timeout, 5xx; never a 401 or 403, never a TLS failure) — the snapshot of this
 * hub read less than maxStaleMs ago. Whoever uses a stale profile must say so, and may only pair it
 * with a credential already in the cache.
 */
export async function readRecentProfile(
  ports: RecentProfilePorts,
  ref: ProfileRef,
  freshness: ProfileFreshness,
): Promise<RecentProfile> {
  const {hub, snapshots} = ports
  const {identity, namespace} = hub
  const {maxAgeMs, maxStaleMs, remember} = freshness
  const profileNamespace = ref.namespace ?? namespace
  const last = remember ? await snapshots.last(identity, profileNamespace, ref.name) : undefined
  if (last && maxAgeMs > 0 && ports.now() - last.fetchedAt <= maxAgeMs)
    return {profile: last.profile, snapshot: last}
  // With a copy to fall back on, a hub that does not answer (packets dropped, not refused) is given
  // up on after HUB_PATIENCE_MS rather than a minute: kubectl waits for every call.
  const fallback = maxStaleMs > 0 ? last : undefined
  let profile: ClusterProfile
  try {
    profile = await readProfile(hub, ref, {remember, idleTimeoutMs: fallback ? HUB_PATIENCE_MS : undefined})
  } catch (error) {
    if (!fallback || !hub.isOutage(error)) throw error
    const reason = (error as Error).message
    const ageMs = ports.now() - fallback.fetchedAt
    if (ageMs > maxStaleMs) {
      throw new CpcredError(
        `${reason}; the last copy of ClusterProfile ${profileNamespace}/${ref.name} was read ${humanDuration(ageMs)} ago, ` +
          `longer than --profile-max-stale ${formatDuration(maxStaleMs)} allows`,
        {
          exitCode: ExitCode.Unreachable,
          hint: 'bring the hub back, or allow an older copy with --profile-max-stale (profiles change: a removed one may mean access was withdrawn)',
          cause: error,
        },
      )
    }
    return {profile: fallback.profile, stale: {ageMs, maxStaleMs, reason}}
  }
  // Kept even with --profile-max-age 0s: it is what a hub outage falls back on.
  const snapshot = remember ? await snapshots.remember(identity, profile) : undefined
  return {profile, snapshot: maxAgeMs > 0 ? snapshot : undefined}
}

/** The one line a command prints when it goes on with a stale profile. */
export function staleProfileWarning(ref: string, stale: StaleProfile): string {
  return (
    `${stale.reason}; using ClusterProfile ${ref} as read ${humanDuration(stale.ageMs)} ago ` +
    `(--profile-max-stale ${formatDuration(stale.maxStaleMs)}) and only a credential already in the cache`
  )
}

/** One profile, read from the hub in its namespace (or the hub's), the connection closed after. */
async function readProfile(
  hub: ProfileHub,
  ref: ProfileRef,
  options: {remember: boolean; idleTimeoutMs?: number},
): Promise<ClusterProfile> {
  // Loaded only when the hub is read: a warm run answers from the snapshot.
  const [{findProfile}, client] = await Promise.all([import('./find-profiles.js'), hub.connect(options)])
  try {
    return await findProfile(client, ref, {namespace: hub.namespace, allNamespaces: false})
  } finally {
    await client.close()
  }
}
