// `cpcred exec [PROFILE...] -- COMMAND`: the credential pipeline for each target, then the user's
// command against a private kubeconfig. One target named by itself gets the terminal (exec-one.ts)
// and its prepared target is kept as the answer to the same question; many targets (names, -l,
// --all, a terminal's choice) or CI output go to the fan-out (exec-many.ts).
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {ExitCode} from '../core/errors.js'
import {notRunResults, type TargetResult} from '../core/fleet/fan-out-report.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {
  keepAnswer,
  openCredentialRun,
  openFederation,
  profileFreshness,
  readRecentProfile,
  seconds,
  staleProfileWarning,
  type PipelineInput,
  type PipelinePorts,
  type RecentProfile,
} from './credential-pipeline.js'
import type {FanOutInput} from './exec-many.js'
import {runWithTerminal} from './exec-one.js'
import {prepareTarget, type TargetRunInput, type TargetRunPorts} from './exec-prepare.js'
import {
  oneNamedTarget,
  selectExecTargets,
  type ExecTargetInput,
  type ExecTargetPorts,
} from './exec-targets.js'
import type {PreparedTarget} from './exec-target-files.js'
import {RunCredentials} from './obtain-credential.js'
import {parseProfileRef} from './profile-ref.js'
import type {
  AnswerQuestion,
  ChildRunner,
  FanOutPorts,
  ForwardingSignals,
  Notices,
  RenewCredential,
  TempKubeconfigs,
} from './ports.js'

export interface ExecInput extends PipelineInput {
  /** The question of this command line, for the answer kept for the next identical exec (none: not kept). */
  question?: AnswerQuestion
  /** Which profiles; one named by itself is read as `cpcred credential` reads it (oneNamedTarget). */
  targets: ExecTargetInput
  /** At most one name and no -l or --all: a single target found runs alone, with the terminal. */
  alone: boolean
  /** How many targets run: --parallel, --fail-fast, -o, --quiet, --output-dir, --report, --stdin. */
  fanOut: FanOutInput
  command: string[]
  /** --timeout: each target's command is stopped after this long. */
  timeoutMs?: number
  as?: string
  asGroups: string[]
  stdinIsTTY: boolean
  /** `cpcred credential` for a profile (NAMESPACE/NAME) with this run's hub and provider flags. */
  renewCommand: (profile: string) => string[]
}

export interface ExecPorts extends PipelinePorts {
  commands(): Promise<{
    children: ChildRunner
    temp: TempKubeconfigs
    renew: RenewCredential
    forwardingSignals: ForwardingSignals
  }>
  /** What many targets are shown and written with; asked for only when they run. */
  fanOutPorts(): Promise<FanOutPorts>
  /** A monotonic clock in milliseconds (durations of targets). */
  now(): number
  notices: Notices
  /** Selecting the targets when they are not one named profile (exec-targets.ts). */
  targets: ExecTargetPorts
}

/** cpcred's exit code: the command's for one target, 0 or 1 for many (or a signal's). */
export type ExecOutcome = number

export async function execCommand(ports: ExecPorts, input: ExecInput): Promise<ExecOutcome> {
  const {notices} = ports
  // CI options make even one target a fan-out, so a shard of one reports like any other.
  const fanOutAlways = isCiOutput(input.fanOut)
  const oneNamed = oneNamedTarget(input.targets)
  // One named target, nothing that explains itself or bypasses the cache: the prepared target is
  // kept as the answer to the next identical exec.
  const {
    store,
    draft,
    hub: recent,
    providers,
  } = await openCredentialRun(
    ports,
    input,
    oneNamed && !fanOutAlways && input.timeoutMs === undefined ? input.question : undefined,
  )
  for (const warning of providers.warnings) notices.warn(warning)
  const shown = new Set(providers.warnings)
  let profiles: ClusterProfile[]
  let notRun: TargetResult[] = []
  let order: string[] | undefined
  let one: RecentProfile | undefined
  if (oneNamed) {
    // Like `cpcred credential`: a profile read moments ago is used again (--profile-max-age), and
    // while the hub is down, the last one read (--profile-max-stale).
    one = await readRecentProfile(recent, parseProfileRef(oneNamed), profileFreshness(input))
    profiles = [one.profile]
    if (one.stale) {
      const warning = staleProfileWarning(profileKey(one.profile), one.stale)
      notices.warn(warning)
      shown.add(warning)
    }
  } else {
    // Which targets, before whether a provider can reach them: a usage error names the first mistake.
    const selection = await selectExecTargets(ports.targets, input.targets)
    profiles = selection.profiles
    notRun = notRunResults(selection.unresolved, selection.skipped)
    order = selection.order
    if (profiles.length === 0 && notRun.length === 0 && !fanOutAlways) return ExitCode.Success
  }

  const {stale} = one ?? {}
  const run: TargetRunPorts = {
    ...(await ports.commands()),
    plugins: ports.plugins,
    // Targets that need one credential share one plugin run (or one cache read).
    cache: new RunCredentials(store),
    now: () => ports.now(),
    federation: openFederation(ports),
  }
  const runInput: TargetRunInput = {
    command: input.command,
    providers: providers.required(),
    hubIdentity: recent.hub.identity,
    hubPin: recent.hub.pin,
    stdinIsTTY: input.stdinIsTTY,
    pluginTimeoutMs: input.pluginTimeoutMs,
    cacheTtlSeconds: seconds(input.cacheTtlMs),
    // During a hub outage the credential in the cache is all there is: any still valid will do.
    lifetimeRule: lifetimeRule(stale ? undefined : seconds(input.minCredentialLifetimeMs), !stale),
    cacheOnly: stale?.reason,
    renewCommand: input.renewCommand,
    as: input.as,
    asGroups: input.asGroups,
    onWarning: (message) => {
      if (!shown.has(message)) notices.warn(message)
      shown.add(message)
    },
    onPluginStderr: (text) => notices.pluginStderr(text),
    onVerbose: input.verbose ? (message) => notices.note(`cpcred: ${message}`) : undefined,
    timeoutMs: input.timeoutMs,
  }
  try {
    // One target named by itself: the command owns the terminal and its exit code is ours.
    if (profiles.length === 1 && notRun.length === 0 && input.alone && !fanOutAlways) {
      return await execOne(run, runInput, profiles[0]!, (target, obtained) =>
        keepAnswer(draft, JSON.stringify(target), {
          obtained,
          snapshot: one?.snapshot,
          profileMaxAgeMs: input.profileMaxAgeMs,
          // Warnings are not replayed, so an answer that came with some is not kept.
          warned: shown.size > 0,
        }),
      )
    }
    // Loaded only for a fan-out: one target needs none of it.
    const {execManyCommand} = await import('./exec-many.js')
    return await execManyCommand(
      {...run, ...(await ports.fanOutPorts())},
      {...runInput, ...input.fanOut, profiles, notRun, order},
    )
  } finally {
    await run.federation?.close()
  }
}

/** --report, --output-dir, --quiet or -o json|yaml|jsonl. */
function isCiOutput(fanOut: FanOutInput): boolean {
  return (
    fanOut.reports.length > 0 || fanOut.outputDir !== undefined || fanOut.quiet || fanOut.presenter.records
  )
}

/**
 * One target: the command gets the terminal; cpcred returns its exit code. `onPrepared` learns the
 * target before it runs, and until when its credential is served (for the answer of this question).
 */
export async function execOne(
  ports: TargetRunPorts,
  input: TargetRunInput,
  profile: ClusterProfile,
  onPrepared?: (target: PreparedTarget, credential: {cacheKey: string; cachedUntil?: Date}) => Promise<void>,
): Promise<number> {
  try {
    const {target, credential} = await prepareTarget(ports, input, profile)
    await onPrepared?.(target, credential)
    return await runWithTerminal(ports, input.command, target, {
      timeoutMs: input.timeoutMs,
      onWarning: input.onWarning,
      onVerbose: input.onVerbose && ((message) => input.onVerbose!(`${profileKey(profile)}: ${message}`)),
    })
  } finally {
    await ports.temp.dispose()
  }
}
