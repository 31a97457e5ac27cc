// Turns what the user typed (`name`, `namespace/name`, -l, --all) into profiles, with the help a
// kubectl user expects when a name is wrong or ambiguous.
import {distance} from 'fastest-levenshtein'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {CpcredError, UsageError} from '../core/errors.js'
import {inShard, shardOf, type Shard} from '../core/fleet/shard.js'
import {gateHealthy, type SkippedProfile} from '../core/fleet/placement.js'
import type {SelectionScope} from '../core/fleet/selection-note.js'
import {parseProfileRef, type ProfileRef} from './profile-ref.js'
import {listProfiles} from './list-profiles.js'
import type {Chooser, ProfileFinder, SelectionSource} from './ports.js'
import {
  placedProfiles,
  type PlacedProfiles,
  type PlacementSelection,
  type UnresolvedTarget,
} from './select-placement.js'

export {parseProfileRef, type ProfileRef} from './profile-ref.js'

export interface FindScope {
  /** The namespace a bare name lives in (-n or the context's). */
  namespace: string
  /** -A: a bare name may be in any namespace. */
  allNamespaces: boolean
}

/** One profile by reference; a clear error with suggestions when it does not exist or is ambiguous. */
export async function findProfile(
  hub: ProfileFinder,
  ref: ProfileRef,
  scope: FindScope,
): Promise<ClusterProfile> {
  if (ref.namespace || !scope.allNamespaces) {
    const namespace = ref.namespace ?? scope.namespace
    const profile = await hub.getProfile(namespace, ref.name)
    if (profile) return profile
    throw await notFound(hub, ref, namespace)
  }
  const everywhere = await listAllQuietly(hub)
  const matches = (everywhere ?? []).filter((profile) => profile.metadata.name === ref.name)
  if (matches.length === 1) return matches[0]!
  if (matches.length > 1) {
    throw new UsageError(
      `ClusterProfile "${ref.name}" exists in ${matches.length} namespaces: ${matches.map(profileKey).join(', ')}`,
      'name one of them as NAMESPACE/NAME',
    )
  }
  throw notFoundError(ref.name, 'in any namespace', suggestions(ref.name, everywhere ?? []))
}

async function notFound(hub: ProfileFinder, ref: ProfileRef, namespace: string): Promise<CpcredError> {
  const everywhere = await listAllQuietly(hub)
  const elsewhere = (everywhere ?? []).filter((p) => p.metadata.name === ref.name).map(profileKey)
  if (elsewhere.length) {
    return new CpcredError(`ClusterProfile "${ref.name}" not found in namespace "${namespace}"`, {
      hint: `it exists as ${elsewhere.join(', ')}; name it as NAMESPACE/NAME or pass -n`,
    })
  }
  const candidates = everywhere ?? (await listNamespaceQuietly(hub, namespace)) ?? []
  const inNamespace = candidates.filter((p) => p.metadata.namespace === namespace)
  return notFoundError(
    ref.name,
    `in namespace "${namespace}"`,
    suggestions(ref.name, inNamespace.length ? inNamespace : candidates),
  )
}

function notFoundError(name: string, where: string, similar: string[]): CpcredError {
  return new CpcredError(`ClusterProfile "${name}" not found ${where}`, {
    hint: similar.length
      ? `did you mean ${similar.join(' or ')}?`
      : "run 'cpcred list -A' to see the profiles on the hub",
  })
}

/** Up to three names close to the one typed (edit distance, or one containing the other). */
export function suggestions(name: string, profiles: ClusterProfile[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3))
  const scored = profiles
    .map((profile) => ({
      key: profileKey(profile),
      score: distance(name, profile.metadata.name),
      other: profile.metadata.name,
    }))
    .filter(({score, other}) => score <= limit || other.includes(name) || name.includes(other))
    .sort((a, b) => a.score - b.score || a.key.localeCompare(b.key))
  return [...new Set(scored.map(({key}) => key))].slice(0, 3)
}

// Suggestions are a courtesy: a user allowed to get one profile may not be allowed to list.
async function listAllQuietly(hub: ProfileFinder): Promise<ClusterProfile[] | undefined> {
  try {
    return (await listProfiles(hub, {})).profiles
  } catch {
    return undefined
  }
}

async function listNamespaceQuietly(
  hub: ProfileFinder,
  namespace: string,
): Promise<ClusterProfile[] | undefined> {
  try {
    return (await listProfiles(hub, {namespace})).profiles
  } catch {
    return undefined
  }
}

export interface SelectInput extends FindScope {
  refs: ProfileRef[]
  selector?: string
  all: boolean
  /** Only this part of what the selector or --all select; named profiles are always included. */
  shard?: Shard
  /** Told each page a selector or --all lists, as it is read (ListProfilesInput.onPage). */
  onPage?: (profiles: ClusterProfile[]) => void
}

/** Several profiles for fan-out commands: names, -l, --all (in the namespace, or everywhere with -A). */
export async function selectProfiles(hub: ProfileFinder, input: SelectInput): Promise<ClusterProfile[]> {
  const found = new Map<string, ClusterProfile>()
  for (const ref of input.refs) {
    const profile = await findProfile(hub, ref, input)
    found.set(profileKey(profile), profile)
  }
  if (input.selector !== undefined || input.all) {
    const {profiles} = await listProfiles(hub, {
      namespace: input.allNamespaces ? undefined : input.namespace,
      labelSelector: input.selector,
      shard: input.shard,
      onPage: input.onPage,
    })
    for (const profile of profiles) found.set(profileKey(profile), profile)
  }
  return [...found.values()]
}

export interface FleetSelectInput extends SelectInput, PlacementSelection {
  /** --healthy: keep only the profiles whose ControlPlaneHealthy is True. */
  healthy?: boolean
}

/** A fan-out's selection: the targets, the references no profile answers to, and what --healthy left out. */
export interface FleetSelection {
  profiles: ClusterProfile[]
  unresolved: UnresolvedTarget[]
  skipped: SkippedProfile[]
  /** The order the selection has an opinion about (a placement's), profiles and references alike. */
  order?: string[]
}

/**
 * Names, -l, --all, or a placement (--placement, --placement-key: the decided profiles in order,
 * then --shard); then --healthy. Member folding is the caller's, as everywhere.
 */
export async function selectFleet(hub: SelectionSource, input: FleetSelectInput): Promise<FleetSelection> {
  if (input.placement !== undefined || input.placementKey !== undefined)
    return narrowSelection(await placedProfiles(hub, input.namespace, input), input)
  return narrowSelection(
    {profiles: await selectProfiles(hub, input), unresolved: []},
    {healthy: input.healthy},
  )
}

/** A selection rather than names: -l, --all or a placement (what a shard splits). */
export function isSelection(
  input: Pick<FleetSelectInput, 'selector' | 'placement' | 'placementKey'> & {all?: boolean},
): boolean {
  return (
    input.selector !== undefined ||
    input.all === true ||
    input.placement !== undefined ||
    input.placementKey !== undefined
  )
}

/** Where a selection looked: what is said when it matched nothing, and what --min-targets names. */
export function selectionScope(
  input: Pick<FleetSelectInput, 'namespace' | 'allNamespaces' | 'selector' | 'shard'>,
): SelectionScope {
  return {
    namespace: input.allNamespaces ? undefined : input.namespace,
    selector: input.selector,
    shard: input.shard,
  }
}

/**
 * What a fan-out keeps of the profiles selected: with `shard`, its part (by the same rule the
 * listing applies to -l and --all); with `healthy`, those whose ControlPlaneHealthy is True.
 */
export function narrowSelection(
  selected: PlacedProfiles,
  input: {shard?: Shard; healthy?: boolean},
): FleetSelection {
  const {shard} = input
  const profiles = shard ? selected.profiles.filter((profile) => inShard(profile, shard)) : selected.profiles
  const unresolved = shard
    ? selected.unresolved.filter(
        (target) => shard.count === 1 || shardOf(target.profile, shard.count) === shard.index,
      )
    : selected.unresolved
  const order = selected.order ? {order: selected.order} : {}
  if (!input.healthy) return {profiles, unresolved, skipped: [], ...order}
  const {healthy, skipped} = gateHealthy(profiles)
  return {profiles: healthy, unresolved, skipped, ...order}
}

/**
 * The one profile a command works on: the reference given, else — on a terminal only — a choice
 * among the profiles in scope. Without a terminal a missing name is a usage error, never a prompt.
 */
export async function oneProfile(
  hub: ProfileFinder,
  text: string | undefined,
  scope: FindScope,
  chooser: Chooser,
): Promise<ClusterProfile> {
  if (text !== undefined) return findProfile(hub, parseProfileRef(text), scope)
  if (!chooser.interactive) {
    throw new UsageError(
      'a profile is required',
      'pass NAME or NAMESPACE/NAME (run without arguments on a terminal to choose one)',
    )
  }
  const {profiles} = await listProfiles(hub, {namespace: scope.allNamespaces ? undefined : scope.namespace})
  return chooser.pickOne(profiles)
}
