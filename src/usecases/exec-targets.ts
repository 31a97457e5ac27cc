// The targets of `cpcred exec` when they are not one named profile: names (with -A, in any
// namespace), -l or --all (split by --shard), or on a terminal with none of those, the user's pick;
// those that stand for one member cluster folded into one; at least --min-targets of them.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {Provider} from '../core/access/provider-file.js'
import {UsageError} from '../core/errors.js'
import {checkMinTargets, noProfilesNote, type SelectionScope} from '../core/fleet/selection-note.js'
import type {Shard} from '../core/fleet/shard.js'
import {selectProfiles} from './find-profiles.js'
import {listProfiles} from './list-profiles.js'
import {parseProfileRef} from './profile-ref.js'
import type {Notices, ProfileFinder} from './ports.js'

/** The hub, connected, for selecting targets. */
export type TargetHub = ProfileFinder & {
  /** -n, else the context's namespace. */
  namespace: string
  close(): Promise<void>
}

export interface ExecTargetPorts {
  openHub(): Promise<TargetHub>
  /** The user picks on a terminal; absent without one. */
  pick?: (profiles: ClusterProfile[], message: string) => Promise<ClusterProfile[]>
  /** Folds the profiles that stand for one member cluster into one (unless --no-dedupe), saying so. */
  fold(profiles: ClusterProfile[], providers: Provider[]): ClusterProfile[]
  notices: Pick<Notices, 'note'>
}

export interface ExecTargetInput {
  /** NAME or NAMESPACE/NAME, as typed. */
  names: string[]
  selector?: string
  all: boolean
  allNamespaces: boolean
  shard?: Shard
  minTargets?: number
}

/** The targets; empty when a selection matched none (said as a note). */
export async function selectExecTargets(
  ports: ExecTargetPorts,
  input: ExecTargetInput,
  providers: Provider[],
): Promise<ClusterProfile[]> {
  const hub = await ports.openHub()
  const scope: SelectionScope = {
    namespace: input.allNamespaces ? undefined : hub.namespace,
    selector: input.selector,
    shard: input.shard,
  }
  let profiles: ClusterProfile[]
  try {
    profiles = ports.fold(await chooseTargets(ports, hub, input, scope), providers)
  } finally {
    await hub.close()
  }
  checkMinTargets(profiles.length, input.minTargets, scope)
  return profiles
}

async function chooseTargets(
  ports: ExecTargetPorts,
  hub: TargetHub,
  input: ExecTargetInput,
  scope: SelectionScope,
): Promise<ClusterProfile[]> {
  const profiles = await selectProfiles(hub, {
    namespace: hub.namespace,
    allNamespaces: input.allNamespaces,
    refs: input.names.map(parseProfileRef),
    selector: input.selector,
    all: input.all,
    shard: input.shard,
  })
  if (profiles.length > 0) return profiles
  if (input.names.length > 0 || input.selector !== undefined || input.all) {
    ports.notices.note(noProfilesNote(scope))
    return []
  }
  if (!ports.pick) {
    throw new UsageError(
      'no target given',
      'name profiles before --, or use -l SELECTOR or --all (there is no terminal to choose on)',
    )
  }
  const inScope = await listProfiles(hub, {namespace: scope.namespace})
  return ports.pick(inScope.profiles, 'Run on which clusters? (space selects, enter runs)')
}
