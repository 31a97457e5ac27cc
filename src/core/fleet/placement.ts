// PlacementDecisions (multicluster.x-k8s.io/v1alpha1, upstream apis/v1alpha1/placementdecision_types.go)
// as a selection: the slices of one decision, their references in decision-index order, each once;
// and health gating (--healthy): the profiles whose ControlPlaneHealthy is True, and why the others
// are skipped.
import {
  CONTROL_PLANE_HEALTHY,
  findCondition,
  profileKey,
  type ClusterProfile,
  type ObjectMeta,
} from '../profiles/cluster-profile.js'
import {nameProblem, quotedName} from '../profiles/names.js'

/** Upstream DecisionKeyLabel: the same value on every slice of one decision. */
export const DECISION_KEY_LABEL = 'multicluster.x-k8s.io/decision-key'
/** Upstream DecisionIndexLabel: the slice's position, from 0, when order matters. */
export const DECISION_INDEX_LABEL = 'multicluster.x-k8s.io/decision-index'
/** Upstream PlacementKeyLabel: ties the slices to the workload they were decided for. */
export const PLACEMENT_KEY_LABEL = 'multicluster.x-k8s.io/placement-key'

export interface ClusterDecision {
  /** An ObjectReference to a ClusterProfile; namespace empty: the decision's. */
  clusterProfileRef?: {name?: string; namespace?: string}
  reason?: string
}

export interface PlacementDecision {
  metadata: ObjectMeta
  decisions?: ClusterDecision[] | null
  schedulerName?: string
}

/** One profile a decision references, in order. */
export interface DecidedProfile {
  namespace: string
  name: string
  /** The decision (slice) that named it first, as NAMESPACE/NAME. */
  decision: string
}

/** What a placement selection asks for: one decision (and its slices) or a placement-key. */
export type PlacementQuery = {decision: string} | {placementKey: string}

/** The label selector that finds the other slices of `decision`; undefined when it has no decision-key. */
export function siblingSelector(decision: PlacementDecision): string | undefined {
  const key = decision.metadata.labels?.[DECISION_KEY_LABEL]
  return key === undefined || key === '' ? undefined : `${DECISION_KEY_LABEL}=${key}`
}

export function placementKeySelector(key: string): string {
  return `${PLACEMENT_KEY_LABEL}=${key}`
}

/**
 * The slices a query names among every decision of its namespace (what a watch of them holds): the
 * named decision with every slice sharing its decision-key, or every slice with the placement-key.
 * undefined when the named decision is not there.
 */
export function slicesOf(
  query: PlacementQuery,
  decisions: readonly PlacementDecision[],
): PlacementDecision[] | undefined {
  if ('placementKey' in query)
    return decisions.filter((slice) => slice.metadata.labels?.[PLACEMENT_KEY_LABEL] === query.placementKey)
  const named = decisions.find((slice) => slice.metadata.name === query.decision)
  if (!named) return undefined
  const key = named.metadata.labels?.[DECISION_KEY_LABEL]
  if (key === undefined || key === '') return [named]
  return decisions.filter((slice) => slice === named || slice.metadata.labels?.[DECISION_KEY_LABEL] === key)
}

/** A slice's place: its decision-index when it is a whole number ≥ 0, else after every indexed one. */
function sliceIndex(decision: PlacementDecision): number {
  const text = decision.metadata.labels?.[DECISION_INDEX_LABEL]
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : Number.POSITIVE_INFINITY
}

/**
 * The profiles the slices reference, in decision-index order (slices without one last, by name),
 * then in their order within a slice; each profile once, where it first appears. A reference
 * without a name is skipped: the API requires one.
 */
export function decidedProfiles(slices: readonly PlacementDecision[]): DecidedProfile[] {
  const ordered = [...slices].sort(
    (a, b) =>
      sliceIndex(a) - sliceIndex(b) ||
      (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0),
  )
  const seen = new Set<string>()
  const decided: DecidedProfile[] = []
  for (const slice of ordered) {
    const home = slice.metadata.namespace ?? ''
    for (const entry of slice.decisions ?? []) {
      const name = entry.clusterProfileRef?.name
      if (!name) continue
      const namespace = entry.clusterProfileRef?.namespace || home
      const key = `${namespace}/${name}`
      if (seen.has(key)) continue
      seen.add(key)
      decided.push({namespace, name, decision: `${home}/${slice.metadata.name}`})
    }
  }
  return decided
}

/**
 * Why a reference may not be read (its namespace or name breaks Kubernetes' rules, as whoever can
 * write a PlacementDecision may make it), as `NAMESPACE/NAME: the rule`; undefined when it may.
 */
export function referenceProblem(ref: Pick<DecidedProfile, 'namespace' | 'name'>): string | undefined {
  const problem = nameProblem('namespace', ref.namespace) ?? nameProblem('object', ref.name)
  return problem === undefined ? undefined : `${quotedName(`${ref.namespace}/${ref.name}`)}: ${problem}`
}

/** The decisions among `decisions` that reference `profile` (for describe). */
export function decisionsReferencing(
  profile: ClusterProfile,
  decisions: readonly PlacementDecision[],
): PlacementDecision[] {
  const key = profileKey(profile)
  return decisions.filter((decision) =>
    decidedProfiles([decision]).some((ref) => `${ref.namespace}/${ref.name}` === key),
  )
}

/** Why a selection left a profile out, in a fan-out summary's words ("3 skipped (not healthy)"). */
export type SkipKind = 'not healthy' | 'tied duplicates'

/**
 * A profile a selection leaves out, and why: --healthy (the condition's reason and message), or
 * KEP-4322 duplicates whose oldest tie (core/fleet/member-fold.ts).
 */
export interface SkippedProfile {
  profile: string
  reason: string
  kind: SkipKind
}

/** Why a profile is not healthy, in words; undefined when ControlPlaneHealthy is True. */
export function unhealthyBecause(profile: ClusterProfile): string | undefined {
  const condition = findCondition(profile, CONTROL_PLANE_HEALTHY)
  if (condition === undefined) return `no ${CONTROL_PLANE_HEALTHY} condition`
  if (condition.status === 'True') return undefined
  const said = [condition.reason, condition.message].filter((part) => part !== undefined && part !== '')
  return `${CONTROL_PLANE_HEALTHY} is ${condition.status || 'empty'}${said.length ? `: ${said.join(': ')}` : ''}`
}

/** --healthy: the profiles whose ControlPlaneHealthy is True, in order, and the others with why. */
export function gateHealthy(profiles: readonly ClusterProfile[]): {
  healthy: ClusterProfile[]
  skipped: SkippedProfile[]
} {
  const healthy: ClusterProfile[] = []
  const skipped: SkippedProfile[] = []
  for (const profile of profiles) {
    const because = unhealthyBecause(profile)
    if (because === undefined) healthy.push(profile)
    else skipped.push({profile: profileKey(profile), reason: because, kind: 'not healthy'})
  }
  return {healthy, skipped}
}
