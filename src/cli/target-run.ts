// What the commands that reach targets (exec, get) take from the wiring and their flags alike: the
// credential pipeline's ports with the selection's, and the selection the flags make. Small, as the
// exec bundle holds it.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {Shard} from '../core/fleet/shard.js'
import type {PipelinePorts} from '../usecases/credential-pipeline.js'
import type {ExecTargetInput, ExecTargetPorts} from '../usecases/exec-targets.js'
import type {Notices} from '../usecases/ports.js'
import type {FlagValues} from './flag-table.js'
import {
  hubSelection,
  pipelineInput,
  type MIN_TARGETS_FLAG,
  type PLACEMENT_FLAGS,
  type TARGET_FLAGS,
} from './flags.js'
import type {Wiring} from './wiring.js'

type TargetRunFlags = Parameters<typeof pipelineInput>[0] &
  FlagValues<typeof TARGET_FLAGS & typeof PLACEMENT_FLAGS & typeof MIN_TARGETS_FLAG>

/** The ports every run that obtains credentials for selected targets needs, its hub opened once. */
export function targetRunPorts(
  wiring: Wiring,
  flags: TargetRunFlags,
): PipelinePorts & {notices: Notices; targets: ExecTargetPorts} {
  const {printer} = wiring
  let recent: ReturnType<typeof wiring.recentProfiles> | undefined
  const recentProfiles = () => (recent ??= wiring.recentProfiles(hubSelection(flags), flags['api-version']))
  return {
    recentProfiles,
    providers: wiring.providers,
    plugins: wiring.plugins,
    store: (onProblem) => wiring.credentialStore(onProblem),
    answers: (store) => wiring.answers(store),
    federation: () => wiring.federation(async () => (await recentProfiles()).hubConfig()),
    notices: wiring.notices,
    targets: {
      openHub: async () => wiring.targetHub(await (await recentProfiles()).hubConfig(), flags['api-version']),
      // Asked only when nothing is named or selected.
      get pick() {
        return printer.interactive
          ? async (profiles: ClusterProfile[], message: string) =>
              (await wiring.picker()).pickProfiles(profiles, message, {
                reachable: await wiring.reachability(pipelineInput(flags).providers),
              })
          : undefined
      },
      notices: wiring.notices,
    },
  }
}

/** The targets the names and flags select. */
export function targetSelection(
  names: string[],
  flags: TargetRunFlags,
  shard: Shard | undefined,
): ExecTargetInput {
  return {
    names,
    selector: flags.selector,
    all: flags.all,
    allNamespaces: flags['all-namespaces'],
    shard,
    minTargets: flags['min-targets'],
    placement: flags.placement,
    placementKey: flags['placement-key'],
    healthy: flags.healthy,
    noDedupe: flags['no-dedupe'],
  }
}
