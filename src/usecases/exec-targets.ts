// The targets of `cpcred exec` when they are not one named profile: names (with -A, in any
// namespace), -l or --all (split by --shard), a placement (--placement, --placement-key), or on a
// terminal with none of those, the user's pick; --healthy; those that stand for one member cluster
// folded into one; at least --min-targets of them.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {describeFold, duplicateWarnings, foldSelection} from '../core/fleet/member-fold.js'
import {UsageError} from '../core/errors.js'
import {checkMinTargets, noProfilesNote, type SelectionScope} from '../core/fleet/selection-note.js'
import type {Shard} from '../core/fleet/shard.js'
import {isSelection, selectFleet, type FleetSelection} from './find-profiles.js'
import {listProfiles} from './list-profiles.js'
import {parseProfileRef} from './profile-ref.js'
import type {Notices, TargetHub} from './ports.js'
import {checkPlacementSelection} from './select-placement.js'

export interface ExecTargetPorts {
  openHub(): Promise<TargetHub>
  /** The user picks on a terminal; absent without one. */
  pick?: (profiles: ClusterProfile[], message: string) => Promise<ClusterProfile[]>
  /** A warning per inventory with duplicates, a note per fold and for a selection that matched none. */
  notices: Pick<Notices, 'note' | 'warn'>
}

export interface ExecTargetInput {
  /** NAME or NAMESPACE/NAME, as typed. */
  names: string[]
  selector?: string
  all: boolean
  allNamespaces: boolean
  shard?: Shard
  minTargets?: number
  /** --placement NAME: the profiles a PlacementDecision (and its slices) references. */
  placement?: string
  /** --placement-key KEY: the profiles of every slice labelled with this placement-key. */
  placementKey?: string
  /** --healthy: only profiles whose ControlPlaneHealthy is True; the others are skipped. */
  healthy?: boolean
  /** --no-dedupe: profiles that stand for one member cluster stay separate targets (still warned of). */
  noDedupe?: boolean
}

/**
 * The one profile named by itself (no -l, --all, placement, -A, --healthy or --min-targets above
 * one), which exec and get read as `cpcred credential` does: a copy read moments ago is used again
 * rather than asking the hub, whose round trip would cost a warm run more than the rest of it.
 */
export function oneNamedTarget(input: ExecTargetInput): string | undefined {
  const alone =
    input.names.length === 1 &&
    !isSelection(input) &&
    !input.allNamespaces &&
    !input.healthy &&
    (input.minTargets ?? 1) <= 1
  return alone ? input.names[0] : undefined
}

/**
 * The targets (empty when a selection matched none, said as a note), the references of a placement
 * no profile answers to, and what --healthy or a tie of duplicates left out.
 */
export async function selectExecTargets(
  ports: ExecTargetPorts,
  input: ExecTargetInput,
): Promise<FleetSelection> {
  checkPlacementSelection({...input, names: input.names.length})
  const hub = await ports.openHub()
  const scope: SelectionScope = {
    namespace: input.allNamespaces ? undefined : hub.namespace,
    selector: input.selector,
    shard: input.shard,
  }
  let selection: FleetSelection
  try {
    const chosen = await chooseTargets(ports, hub, input, scope)
    // Those that stand for one member cluster fold into the oldest; when the oldest tie, none of
    // them is a target and each is skipped.
    const {targets, skipped, folds} = foldSelection(chosen.profiles, input.noDedupe ?? false)
    for (const warning of duplicateWarnings(folds)) ports.notices.warn(warning)
    if (!input.noDedupe) for (const fold of folds) ports.notices.note(describeFold(fold))
    selection = {...chosen, profiles: targets, skipped: [...chosen.skipped, ...skipped]}
  } finally {
    await hub.close()
  }
  checkMinTargets(selection.profiles.length, input.minTargets, scope)
  return selection
}

async function chooseTargets(
  ports: ExecTargetPorts,
  hub: TargetHub,
  input: ExecTargetInput,
  scope: SelectionScope,
): Promise<FleetSelection> {
  const selection = await selectFleet(hub, {
    namespace: hub.namespace,
    allNamespaces: input.allNamespaces,
    refs: input.names.map(parseProfileRef),
    selector: input.selector,
    all: input.all,
    shard: input.shard,
    placement: input.placement,
    placementKey: input.placementKey,
    healthy: input.healthy,
  })
  const placed = input.placement !== undefined || input.placementKey !== undefined
  if (selection.profiles.length > 0 || selection.unresolved.length > 0 || selection.skipped.length > 0)
    return selection
  if (input.names.length > 0 || input.selector !== undefined || input.all || placed) {
    ports.notices.note(noProfilesNote(scope))
    return selection
  }
  if (!ports.pick) {
    throw new UsageError(
      'no target given',
      'name profiles before --, or use -l SELECTOR or --all (there is no terminal to choose on)',
    )
  }
  const inScope = await listProfiles(hub, {namespace: scope.namespace})
  const picked = await ports.pick(inScope.profiles, 'Run on which clusters? (space selects, enter runs)')
  return {profiles: picked, unresolved: [], skipped: []}
}
