// KEP-4322: an inventory is one namespace, and the label multicluster.x-k8s.io/inventory-member-id
// correlates the profiles in it that stand for the same member cluster (one cluster published by
// two cluster managers, say). A consumer that fans out over a selection must not reach that cluster
// twice, so such profiles fold into one target. Profiles in different namespaces are different
// inventories and never fold.
import {memberIdOf, profileKey, type ClusterProfile} from '../profiles/cluster-profile.js'
import type {Provider} from '../access/provider-file.js'
import {chooseProvider} from '../access/resolve-access.js'

export interface MemberFold {
  namespace: string
  memberId: string
  /** The profile that stands for the member cluster (NAMESPACE/NAME). */
  kept: string
  /** The others (NAMESPACE/NAME), left out. */
  folded: string[]
}

/**
 * One target per member cluster: of the profiles sharing a member id in a namespace, the first
 * whose provider the consumer can use (`canReach`), then the first by name. Everything else keeps
 * its place in `profiles`.
 */
export function foldMembers(
  profiles: ClusterProfile[],
  canReach: (profile: ClusterProfile) => boolean,
): {targets: ClusterProfile[]; folds: MemberFold[]} {
  const groups = new Map<string, ClusterProfile[]>()
  for (const profile of profiles) {
    const memberId = memberIdOf(profile)
    if (memberId === undefined) continue
    const key = `${profile.metadata.namespace ?? ''}\u0000${memberId}`
    groups.set(key, [...(groups.get(key) ?? []), profile])
  }
  const left = new Set<ClusterProfile>()
  const folds: MemberFold[] = []
  for (const members of groups.values()) {
    if (members.length < 2) continue
    const [kept, ...others] = [...members].sort(
      (a, b) =>
        Number(canReach(b)) - Number(canReach(a)) ||
        (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0),
    ) as [ClusterProfile, ...ClusterProfile[]]
    for (const other of others) left.add(other)
    folds.push({
      namespace: kept.metadata.namespace ?? '',
      memberId: memberIdOf(kept)!,
      kept: profileKey(kept),
      folded: others.map(profileKey),
    })
  }
  return {targets: profiles.filter((profile) => !left.has(profile)), folds}
}

/**
 * The targets of a fan-out (exec, kubeconfig, sync, doctor): the selected profiles with those that
 * stand for one member cluster folded into the one whose provider the consumer can use; with
 * --no-dedupe (`noDedupe`), all of them.
 */
export function foldSelection(
  profiles: ClusterProfile[],
  providers: Provider[],
  noDedupe: boolean | undefined,
): {targets: ClusterProfile[]; folds: MemberFold[]} {
  if (noDedupe) return {targets: profiles, folds: []}
  return foldMembers(profiles, (profile) => chooseProvider(profile, providers) !== undefined)
}

/** The line that says what a fold did. */
export function describeFold(fold: MemberFold): string {
  const others = fold.folded.join(', ')
  return `${fold.kept} and ${others} stand for one member cluster (inventory-member-id "${fold.memberId}" in namespace ${fold.namespace}): using ${fold.kept}, leaving out ${others} (--no-dedupe keeps them)`
}
