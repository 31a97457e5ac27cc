// KEP-4322: an inventory is one namespace, and the label multicluster.x-k8s.io/inventory-member-id
// (an empty one counts as absent) correlates the profiles in it that stand for the same member
// cluster (one cluster published by two cluster managers, say). A consumer compares only the
// profiles it selected; where acting on all of them would conflict (exec, a kubeconfig's contexts,
// sync) it acts only on the oldest by creationTimestamp, on none when the oldest tie, and warns while
// duplicates remain. Profiles in different namespaces are different inventories and never fold.
import {memberIdOf, profileKey, type ClusterProfile} from '../profiles/cluster-profile.js'
import type {SkippedProfile} from './placement.js'

export interface MemberFold {
  namespace: string
  memberId: string
  /** Every selected profile with this member id (NAMESPACE/NAME), oldest first. */
  profiles: string[]
  /** The oldest, which stands for the member cluster; absent when the oldest tie. */
  kept?: string
  /** The oldest when two or more were created at the same time: none of them is acted on. */
  tied: string[]
  /** The others, newer than the oldest: left out. */
  folded: string[]
  /** The creationTimestamp of the oldest, as the hub wrote it. */
  oldestCreated?: string
}

const createdAt = (profile: ClusterProfile) => {
  const time = Date.parse(profile.metadata.creationTimestamp ?? '')
  // Without a timestamp no profile can be said to be older: it ties with the others that lack one.
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time
}

/** The groups of selected profiles that share a member id in a namespace, in the selection's order. */
export function duplicatesOf(profiles: ClusterProfile[]): MemberFold[] {
  const groups = new Map<string, ClusterProfile[]>()
  for (const profile of profiles) {
    const memberId = memberIdOf(profile)
    if (memberId === undefined) continue
    const key = `${profile.metadata.namespace ?? ''}\u0000${memberId}`
    groups.set(key, [...(groups.get(key) ?? []), profile])
  }
  const folds: MemberFold[] = []
  for (const members of groups.values()) {
    if (members.length < 2) continue
    // A stable sort: profiles created together keep the selection's order.
    const sorted = [...members].sort((a, b) => createdAt(a) - createdAt(b))
    const oldest = sorted.filter((profile) => createdAt(profile) === createdAt(sorted[0]!))
    const tied = oldest.length > 1 ? oldest.map(profileKey) : []
    folds.push({
      namespace: sorted[0]!.metadata.namespace ?? '',
      memberId: memberIdOf(sorted[0]!)!,
      profiles: sorted.map(profileKey),
      ...(tied.length ? {} : {kept: profileKey(sorted[0]!)}),
      tied,
      folded: sorted.slice(oldest.length).map(profileKey),
      ...(sorted[0]!.metadata.creationTimestamp
        ? {oldestCreated: sorted[0]!.metadata.creationTimestamp}
        : {}),
    })
  }
  return folds
}

export interface FoldedSelection {
  /** The profiles to act on, in the selection's order. */
  targets: ClusterProfile[]
  /** Each group of duplicates in the selection (also with --no-dedupe, which acts on all of them). */
  folds: MemberFold[]
  /** The oldest of a group that tie: left out, with why (exec reports them as skipped). */
  skipped: SkippedProfile[]
}

/**
 * The targets of a fan-out (exec, kubeconfig, sync, doctor): one profile per member cluster, the
 * oldest; none of a group whose oldest tie. With --no-dedupe (`noDedupe`), every profile.
 */
export function foldSelection(profiles: ClusterProfile[], noDedupe: boolean | undefined): FoldedSelection {
  const folds = duplicatesOf(profiles)
  if (noDedupe) return {targets: profiles, folds, skipped: []}
  const left = new Set(folds.flatMap((fold) => [...fold.tied, ...fold.folded]))
  return {
    targets: profiles.filter((profile) => !left.has(profileKey(profile))),
    folds,
    skipped: folds.flatMap((fold) =>
      fold.tied.map((profile) => ({
        profile,
        reason: tieReason(fold, profile),
        kind: 'tied duplicates' as const,
      })),
    ),
  }
}

function tieReason(fold: MemberFold, profile: string): string {
  const others = fold.tied.filter((other) => other !== profile).join(', ')
  return `the oldest of inventory-member-id "${fold.memberId}" in namespace ${fold.namespace} tie (${profile} and ${others}, created ${fold.oldestCreated ?? 'at an unknown time'}), so none of them stands for the member cluster (--no-dedupe uses them all)`
}

/** The note that says what a fold did (not said with --no-dedupe, which folds nothing). */
export function describeFold(fold: MemberFold): string {
  const group = `${fold.profiles.join(', ')} stand for one member cluster (inventory-member-id "${fold.memberId}" in namespace ${fold.namespace})`
  const newer = fold.folded.length ? `, leaving out the newer ${fold.folded.join(', ')}` : ''
  if (fold.kept !== undefined)
    return `${group}: using the oldest, ${fold.kept}${newer} (--no-dedupe keeps them all)`
  return `${group}: the oldest, ${fold.tied.join(' and ')}, were created at the same time (${fold.oldestCreated ?? 'unknown'}), so using none of them${newer} (--no-dedupe keeps them all)`
}

/**
 * The warning while duplicates remain: one line per inventory (namespace) that has them among the
 * selected profiles, naming each member id and its profiles. The same id in two namespaces is two
 * member clusters and needs none.
 */
export function duplicateWarnings(folds: MemberFold[]): string[] {
  const byNamespace = new Map<string, MemberFold[]>()
  for (const fold of folds)
    byNamespace.set(fold.namespace, [...(byNamespace.get(fold.namespace) ?? []), fold])
  return [...byNamespace].map(
    ([namespace, groups]) =>
      `the inventory in namespace ${namespace} has duplicate profiles for a member cluster: ${groups
        .map((fold) => `inventory-member-id "${fold.memberId}" on ${fold.profiles.join(', ')}`)
        .join('; ')} (its cluster managers should publish one profile per member cluster)`,
  )
}
