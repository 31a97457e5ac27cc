// Following the profiles on the hub as client-go's reflector does: list, then watch from the list's
// resourceVersion with bookmarks; a watch the server ends is resumed where it stopped, an expired
// one (410 Gone) is replaced by a fresh list, and a dropped connection or a restarting hub is retried
// with capped exponential backoff. Changes found by a relist are reported as the events they stand
// for, so a consumer sees one stream of changes whatever happened on the way.
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {WatchExpiredError} from '../core/errors.js'
import type {ProfileWatchEvent} from './ports.js'
import {
  listProfiles,
  type ListProfilesInput,
  type ListProfilesResult,
  type ProfilePageSource,
} from './list-profiles.js'

export interface ProfileWatchSource extends ProfilePageSource {
  /** What a listing would show of profiles a watch reported (the hub's v1alpha1 fallback). */
  watchProfiles(
    options: {namespace?: string; labelSelector?: string},
    resourceVersion: string,
    onEvent: (event: ProfileWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>
}

export type ProfileChange = {type: 'ADDED' | 'MODIFIED' | 'DELETED'; profile: ClusterProfile}

export interface FollowHandlers {
  /** The first listing (with what it knows: the provider each profile would use, clustersets). */
  onList(listing: ListProfilesResult): void
  /** Each change after it; `profiles` is the whole selection as it now stands. */
  onChange(change: ProfileChange, profiles: ClusterProfile[]): void
  /** A failure that will be retried (after `retryInMs`). */
  onProblem(message: string, retryInMs: number): void
}

export interface FollowOptions extends Omit<ListProfilesInput, 'onRestart'> {
  signal: AbortSignal
  /** Waits before a retry; resolves early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export const BACKOFF_INITIAL_MS = 250
export const BACKOFF_MAX_MS = 8000
/** A watch that ends sooner than this after it started counts as a failure, so it cannot spin. */
const SHORT_WATCH_MS = 1000

/** The delay before retry `attempt` (1, 2, …): doubling from BACKOFF_INITIAL_MS, capped, with jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** (attempt - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}

/** Runs until the signal aborts; never ends on a hub failure, only reports it and retries. */
export async function followProfiles(
  source: ProfileWatchSource,
  options: FollowOptions,
  handlers: FollowHandlers,
): Promise<void> {
  const {signal} = options
  const sleep = options.sleep ?? abortableSleep
  const current = new Map<string, ClusterProfile>()
  const snapshot = () => [...current.values()]
  let resourceVersion: string | undefined
  let matches: (profile: ClusterProfile) => boolean = () => true
  let listed = false
  let failures = 0

  const relist = async () => {
    const result = await listProfiles(source, options)
    const first = !listed
    matches = result.matches
    const fresh = new Map(result.profiles.map((profile) => [profileKey(profile), profile]))
    if (!first) {
      // What the watch would have told, had it not expired or broken off.
      for (const [key, profile] of current) {
        if (!fresh.has(key)) {
          current.delete(key)
          handlers.onChange({type: 'DELETED', profile}, snapshot())
        }
      }
      for (const [key, profile] of fresh) {
        const before = current.get(key)
        if (before?.metadata.resourceVersion === profile.metadata.resourceVersion) continue
        current.set(key, profile)
        handlers.onChange({type: before ? 'MODIFIED' : 'ADDED', profile}, snapshot())
      }
    } else {
      for (const [key, profile] of fresh) current.set(key, profile)
    }
    resourceVersion = result.resourceVersion
    listed = true
    if (first) handlers.onList(result)
  }

  // Events are applied in order, each after the one before has been completed.
  let applying: Promise<void> = Promise.resolve()
  const enqueue = (event: ProfileWatchEvent) => {
    applying = applying.then(async () => {
      apply(event)
    })
  }
  const apply = (event: ProfileWatchEvent) => {
    resourceVersion = event.profile.metadata?.resourceVersion ?? resourceVersion
    if (event.type === 'BOOKMARK') return
    const key = profileKey(event.profile)
    // A profile that stops matching a client-side filter (its manager changed) leaves the selection.
    const gone = event.type === 'DELETED' || !matches(event.profile)
    if (gone) {
      const before = current.get(key)
      if (!before) return
      current.delete(key)
      handlers.onChange({type: 'DELETED', profile: event.profile}, snapshot())
      return
    }
    const type = current.has(key) ? 'MODIFIED' : 'ADDED'
    current.set(key, event.profile)
    handlers.onChange({type, profile: event.profile}, snapshot())
  }

  while (!signal.aborted) {
    const started = Date.now()
    try {
      if (resourceVersion === undefined) await relist()
      await source
        .watchProfiles(
          {namespace: options.namespace, labelSelector: options.labelSelector},
          resourceVersion!,
          enqueue,
          signal,
        )
        .finally(() => applying)
      if (Date.now() - started >= SHORT_WATCH_MS) {
        failures = 0
        continue
      }
      // Ended as soon as it began: treat it like a failure so a broken server cannot make us spin.
      throw new Error('the hub ended the watch at once')
    } catch (error) {
      if (signal.aborted) return
      if (error instanceof WatchExpiredError) {
        resourceVersion = undefined
        continue
      }
      // Before the first listing nothing is being followed yet: fail at once, as kubectl get -w does.
      if (!listed) throw error
      const delay = backoffDelay(++failures)
      handlers.onProblem((error as Error).message, delay)
      await sleep(delay, signal)
    }
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}
