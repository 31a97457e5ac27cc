// The targets of a fan-out (exec, kubeconfig, doctor): the selected profiles with those that stand
// for one member cluster folded into one, saying so, unless --no-dedupe.
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {describeFold, foldMembers} from '../core/fleet/member-fold.js'
import type {Provider} from '../core/access/provider-file.js'
import {chooseProvider} from '../core/access/resolve-access.js'

export function foldTargets(
  profiles: ClusterProfile[],
  providers: Provider[],
  noDedupe: boolean,
  printer: Pick<Printer, 'note'>,
): ClusterProfile[] {
  if (noDedupe) return profiles
  const {targets, folds} = foldMembers(
    profiles,
    (profile) => chooseProvider(profile, providers) !== undefined,
  )
  for (const fold of folds) printer.note(describeFold(fold))
  return targets
}
