// The targets of a fan-out (exec, kubeconfig): the selected profiles folded by member cluster
// (core/fleet/member-fold.ts), saying what was folded.
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {describeFold, foldSelection} from '../core/fleet/member-fold.js'
import type {Provider} from '../core/access/provider-file.js'

export function foldTargets(
  profiles: ClusterProfile[],
  providers: Provider[],
  noDedupe: boolean,
  printer: Pick<Printer, 'note'>,
): ClusterProfile[] {
  const {targets, folds} = foldSelection(profiles, providers, noDedupe)
  for (const fold of folds) printer.note(describeFold(fold))
  return targets
}
