// Following a fan-out's selection as it changes (sync --watch): -l/--all through the profiles'
// watch; --placement/--placement-key through a watch of the namespace's PlacementDecisions beside
// one of its profiles, so the selection follows the scheduler as well as the profiles it chose.
// Both follow the reflector's rules (src/usecases/reflector.ts); --shard and --healthy apply to
// every new selection as they do to a single one.
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {
  decidedProfiles,
  placementKeySelector,
  slicesOf,
  type PlacementDecision,
  type PlacementQuery,
} from '../core/fleet/placement.js'
import type {Shard} from '../core/fleet/shard.js'
import {followProfiles} from './follow-profiles.js'
import {narrowSelection, type FleetSelection} from './find-profiles.js'
import {reflect, type ReflectOptions} from './reflector.js'
import {decisionNotFound, readDecided, type PlacementSelection} from './select-placement.js'
import type {FleetWatchSource, PlacementDecisionList} from './ports.js'

export interface FleetFollowInput extends PlacementSelection {
  /** The namespace of -l/--all and of a placement. */
  namespace: string
  /** -A: -l/--all select in every namespace. */
  allNamespaces: boolean
  selector?: string
  shard?: Shard
  healthy?: boolean
}

export interface FleetFollowHandlers {
  /** The selection as it now stands: first from the listings, then after each change. */
  onSelection(selection: FleetSelection, first: boolean): void
  /** A failure that will be retried (after `retryInMs`), or, without it, something to know. */
  onProblem(message: string, retryInMs?: number): void
}

/** Runs until the signal aborts; a failure before the first selection is thrown. */
export async function followFleet(
  hub: FleetWatchSource,
  input: FleetFollowInput,
  options: ReflectOptions,
  handlers: FleetFollowHandlers,
): Promise<void> {
  if (input.placement === undefined && input.placementKey === undefined) {
    const narrow = (profiles: ClusterProfile[]) =>
      narrowSelection({profiles, unresolved: []}, {healthy: input.healthy})
    await followProfiles(
      hub,
      {
        ...options,
        namespace: input.allNamespaces ? undefined : input.namespace,
        labelSelector: input.selector,
        shard: input.shard,
      },
      {
        onList: (listing) => handlers.onSelection(narrow(listing.profiles), true),
        onChange: (_change, profiles) => handlers.onSelection(narrow(profiles), false),
        onProblem: handlers.onProblem,
      },
    )
    return
  }
  await followPlacement(hub, input, options, handlers)
}

async function followPlacement(
  hub: FleetWatchSource,
  input: FleetFollowInput,
  options: ReflectOptions,
  handlers: FleetFollowHandlers,
): Promise<void> {
  const {namespace} = input
  const query: PlacementQuery =
    input.placementKey !== undefined ? {placementKey: input.placementKey} : {decision: input.placement!}
  // One stop for both watches: the caller's signal, or a failure of the first selection.
  const stop = new AbortController()
  const onAbort = () => stop.abort()
  options.signal.addEventListener('abort', onAbort)
  let failure: unknown
  const fail = (error: unknown) => {
    failure ??= error
    stop.abort()
  }

  let decisions: PlacementDecision[] | undefined
  let profiles: Map<string, ClusterProfile> | undefined
  let first = true
  let missing = false
  const select = async () => {
    if (decisions === undefined || profiles === undefined) return
    const slices = slicesOf(query, decisions)
    if (slices === undefined && 'decision' in query) {
      if (first) throw decisionNotFound(query.decision, namespace)
      if (!missing)
        handlers.onProblem(
          `PlacementDecision "${query.decision}" is gone from namespace "${namespace}": nothing is decided until it is back`,
        )
    }
    missing = slices === undefined
    const inNamespace = profiles
    const placed = await readDecided(decidedProfiles(slices ?? []), (ref) =>
      // The watched namespace is read from the watch; a reference elsewhere is read at each change.
      ref.namespace === namespace
        ? inNamespace.get(`${ref.namespace}/${ref.name}`)
        : hub.getProfile(ref.namespace, ref.name),
    )
    handlers.onSelection(narrowSelection(placed, input), first)
    first = false
  }
  // One selection at a time; changes that arrive meanwhile make one more, not one each.
  let running: Promise<void> | undefined
  let again = false
  const reselect = () => {
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await select()
      } while (again && !stop.signal.aborted)
    })()
      .catch((error: unknown) => (first ? fail(error) : handlers.onProblem((error as Error).message)))
      .finally(() => (running = undefined))
  }

  const follow = {signal: stop.signal, sleep: options.sleep}
  const selector = 'placementKey' in query ? placementKeySelector(query.placementKey) : undefined
  const watchDecisions = reflect<PlacementDecision, PlacementDecisionList>(
    {
      list: () => hub.listPlacementDecisions(namespace, selector),
      watch: (resourceVersion, onEvent, signal) =>
        hub.watchPlacementDecisions(
          namespace,
          selector,
          resourceVersion,
          (event) => onEvent({type: event.type, object: event.decision}),
          signal,
        ),
      key: (decision) => decision.metadata.name,
    },
    follow,
    {
      onList: (listing) => {
        decisions = listing.items
        reselect()
      },
      onChange: (_change, now) => {
        decisions = now
        reselect()
      },
      onProblem: handlers.onProblem,
    },
  )
  const byKey = (list: ClusterProfile[]) => new Map(list.map((profile) => [profileKey(profile), profile]))
  const watchProfiles = followProfiles(
    hub,
    {...follow, namespace},
    {
      onList: (listing) => {
        profiles = byKey(listing.profiles)
        reselect()
      },
      onChange: (_change, now) => {
        profiles = byKey(now)
        reselect()
      },
      onProblem: handlers.onProblem,
    },
  )
  try {
    await Promise.all([watchDecisions.catch(fail), watchProfiles.catch(fail)])
    await running
  } finally {
    options.signal.removeEventListener('abort', onAbort)
  }
  if (failure !== undefined) throw failure
}
