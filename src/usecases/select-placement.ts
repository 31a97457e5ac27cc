// --placement NAME and --placement-key KEY: the profiles a scheduler's PlacementDecisions reference,
// in decision-index order, each once. A reference to a profile that does not exist or cannot be
// read is kept as a per-target error, never dropped.
import {CpcredError, ExitCode, isCpcredError, UsageError} from '../core/errors.js'
import {
  decidedProfiles,
  placementKeySelector,
  referenceProblem,
  siblingSelector,
  type DecidedProfile,
  type PlacementDecision,
} from '../core/fleet/placement.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {NAME_RULES, nameProblem, quotedName} from '../core/profiles/names.js'
import type {SelectionSource} from './ports.js'

/** A target that could not be reached before it ran: its NAMESPACE/NAME and why. */
export interface UnresolvedTarget {
  profile: string
  error: string
  exitCode: number
}

export interface PlacementSelection {
  /** --placement: one PlacementDecision in the namespace, with every slice sharing its decision-key. */
  placement?: string
  /** --placement-key: every slice labelled with this placement-key in the namespace. */
  placementKey?: string
}

/** The slices a placement selection names. */
export async function placementSlices(
  hub: SelectionSource,
  namespace: string,
  input: PlacementSelection,
): Promise<PlacementDecision[]> {
  if (input.placementKey !== undefined) {
    return (await hub.listPlacementDecisions(namespace, placementKeySelector(input.placementKey))).items
  }
  const name = input.placement!
  const named = await hub.getPlacementDecision(namespace, name)
  if (!named) throw decisionNotFound(name, namespace)
  const selector = siblingSelector(named)
  if (selector === undefined) return [named]
  const slices = (await hub.listPlacementDecisions(namespace, selector)).items
  return slices.some((slice) => slice.metadata.name === name) ? slices : [named, ...slices]
}

/** Not found, as kubectl and `describe NS/nosuch` say it: exit 1, not a usage error. */
export function decisionNotFound(name: string, namespace: string): CpcredError {
  return new CpcredError(`PlacementDecision "${name}" not found in namespace "${namespace}"`, {
    hint: 'check the name and the namespace (-n); kubectl get placementdecisions.multicluster.x-k8s.io lists them',
    exitCode: ExitCode.Failure,
  })
}

/** The decided profiles, read one by one in order; those that cannot be read are unresolved. */
export async function placedProfiles(
  hub: SelectionSource,
  namespace: string,
  input: PlacementSelection,
): Promise<PlacedProfiles> {
  const slices = await placementSlices(hub, namespace, input)
  return readDecided(decidedProfiles(slices), (ref) => hub.getProfile(ref.namespace, ref.name))
}

export interface PlacedProfiles {
  profiles: ClusterProfile[]
  unresolved: UnresolvedTarget[]
  /** Every decided profile as NAMESPACE/NAME, in decision order, resolved or not. */
  order?: string[]
}

/** Each decided profile through `read`, in order: those it does not find or cannot read are unresolved. */
export async function readDecided(
  refs: readonly DecidedProfile[],
  read: (ref: DecidedProfile) => Promise<ClusterProfile | undefined> | ClusterProfile | undefined,
): Promise<PlacedProfiles> {
  const profiles: ClusterProfile[] = []
  const unresolved: UnresolvedTarget[] = []
  const order = refs.map((ref) => `${ref.namespace}/${ref.name}`)
  for (const ref of refs) {
    const key = `${ref.namespace}/${ref.name}`
    const invalid = referenceProblem(ref)
    if (invalid !== undefined) {
      unresolved.push({
        profile: key,
        error: `PlacementDecision ${ref.decision} references ClusterProfile ${invalid}; no request was made for it`,
        exitCode: ExitCode.Failure,
      })
      continue
    }
    try {
      const profile = await read(ref)
      if (profile) profiles.push(profile)
      else
        unresolved.push({
          profile: key,
          error: `ClusterProfile ${key} not found (referenced by PlacementDecision ${ref.decision})`,
          exitCode: ExitCode.Failure,
        })
    } catch (error) {
      if (!isCpcredError(error)) throw error
      unresolved.push({
        profile: key,
        error: `ClusterProfile ${key} (referenced by PlacementDecision ${ref.decision}) cannot be read: ${error.message}`,
        exitCode: error.exitCode,
      })
    }
  }
  return {profiles, unresolved, order}
}

/** --placement and --placement-key exclude each other and names, -l and --all. */
export function checkPlacementSelection(
  input: PlacementSelection & {names: number; selector?: string; all: boolean},
): void {
  const given = [
    input.placement !== undefined && '--placement',
    input.placementKey !== undefined && '--placement-key',
  ].filter(Boolean)
  if (given.length === 0) return
  if (input.placement !== undefined && nameProblem('object', input.placement) !== undefined)
    throw new UsageError(
      `--placement ${quotedName(input.placement)} is not a PlacementDecision name`,
      NAME_RULES.object,
    )
  if (given.length > 1)
    throw new UsageError('--placement and --placement-key cannot be used together', 'give one of them')
  if (input.names > 0 || input.selector !== undefined || input.all)
    throw new UsageError(
      `${given[0]} cannot be combined with profile names, -l or --all`,
      'select by the placement alone, or by names, -l or --all',
    )
}
