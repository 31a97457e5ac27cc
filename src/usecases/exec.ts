// `cpcred exec [PROFILE...] -- COMMAND`: the credential pipeline for each target, then the user's
// command against a private kubeconfig. One target named by itself gets the terminal (exec-one.ts)
// and its prepared target is kept as the answer to the same question; many targets (names, -l,
// --all, a terminal's choice) or CI output go to the fan-out (exec-many.ts, rendered by the front).
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {ExitCode} from '../core/errors.js'
import {notRunResults, type TargetResult} from '../core/fleet/fan-out-report.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {
  keepAnswer,
  openFederation,
  openPipeline,
  readRecentProfile,
  seconds,
  staleProfileWarning,
  type PipelineInput,
  type PipelinePorts,
  type RecentProfile,
} from './credential-pipeline.js'
import {runWithTerminal} from './exec-one.js'
import {prepareTarget, type ExecDeps, type ExecInput} from './exec-prepare.js'
import {selectExecTargets, type ExecTargetInput, type ExecTargetPorts} from './exec-targets.js'
import type {PreparedTarget} from './exec-target-files.js'
import {RunCredentials} from './obtain-credential.js'
import {parseProfileRef} from './profile-ref.js'
import type {ChildRunner, ForwardingSignals, Notices, RenewCredential, TempKubeconfigs} from './ports.js'

export interface ExecCommandInput extends PipelineInput {
  /** cpcred's own words (those before --), which name the answer kept for the next identical exec. */
  args: string[]
  /** The one profile named by itself (no -l, --all or -A), read as `cpcred credential` reads it. */
  oneNamed?: string
  /** The selection otherwise. */
  targets: ExecTargetInput
  /** At most one name and no -l or --all: a single target found runs alone, with the terminal. */
  alone: boolean
  /** Even one target runs as a fan-out: --report, --output-dir, --quiet or -o json. */
  fanOutAlways: boolean
  command: string[]
  /** --timeout: each target's command is stopped after this long. */
  timeoutMs?: number
  as?: string
  asGroups: string[]
  stdinIsTTY: boolean
  /** `cpcred credential` for a profile (NAMESPACE/NAME) with this run's hub and provider flags. */
  renewCommand: (profile: string) => string[]
}

export interface ExecCommandPorts extends PipelinePorts {
  commands(): Promise<{
    children: ChildRunner
    temp: TempKubeconfigs
    renew: RenewCredential
    forwardingSignals: ForwardingSignals
  }>
  /** A monotonic clock in milliseconds (durations of targets). */
  now(): number
  notices: Notices
  /** Selecting the targets when they are not one named profile (exec-targets.ts). */
  targets: ExecTargetPorts
  /**
   * Runs many targets with their view, logs and reports; `notRun` (unresolved references, what
   * --healthy left out) is reported beside them. Returns cpcred's exit code.
   */
  fanOut(
    deps: ExecDeps,
    input: ExecInput,
    profiles: ClusterProfile[],
    notRun: TargetResult[],
    /** The order of the summary and reports, when the selection has one (a placement's). */
    order?: readonly string[],
  ): Promise<number>
}

/** cpcred's exit code: the command's for one target, 0 or 1 for many. */
export async function execCommand(ports: ExecCommandPorts, input: ExecCommandInput): Promise<number> {
  const {notices} = ports
  const store = input.noCache
    ? undefined
    : await ports.store((message) => input.verbose && notices.note(`cache: ${message}`))
  // One named target, nothing that explains itself or bypasses the cache: the prepared target is
  // kept as the answer to the next identical exec. Its inputs are signed before they are read.
  const draft =
    store && input.oneNamed && !input.fanOutAlways && !input.verbose && input.timeoutMs === undefined
      ? (await ports.answers(store)).begin('exec', input.args, {
          kubeconfig: input.kubeconfig,
          providers: input.providers,
        })
      : undefined
  const {hub: recent, providers} = await openPipeline(
    ports.providers,
    () => ports.recentProfiles(),
    input.providers,
  )
  for (const warning of providers.warnings) notices.warn(warning)
  const shown = new Set(providers.warnings)
  let profiles: ClusterProfile[]
  let notRun: TargetResult[] = []
  let order: string[] | undefined
  let one: RecentProfile | undefined
  if (input.oneNamed) {
    // Like `cpcred credential`: a profile read moments ago is used again (--profile-max-age), and
    // while the hub is down, the last one read (--profile-max-stale).
    one = await readRecentProfile(recent, parseProfileRef(input.oneNamed), {
      maxAgeMs: input.noCache ? 0 : input.profileMaxAgeMs,
      maxStaleMs: input.profileMaxStaleMs,
      remember: !input.noCache,
    })
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
    if (profiles.length === 0 && notRun.length === 0 && !input.fanOutAlways) return ExitCode.Success
  }

  const {stale} = one ?? {}
  const deps: ExecDeps = {
    ...(await ports.commands()),
    plugins: ports.plugins,
    // Targets that need one credential share one plugin run (or one cache read).
    cache: new RunCredentials(store),
    now: () => ports.now(),
    federation: openFederation(ports),
  }
  const execInput: ExecInput = {
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
    if (profiles.length === 1 && notRun.length === 0 && input.alone && !input.fanOutAlways) {
      return await execOne(deps, execInput, profiles[0]!, (target, obtained) =>
        keepAnswer(draft, JSON.stringify(target), {
          obtained,
          snapshot: one?.snapshot,
          profileMaxAgeMs: input.profileMaxAgeMs,
          // Warnings are not replayed, so an answer that came with some is not kept.
          warned: shown.size > 0,
        }),
      )
    }
    return await ports.fanOut(deps, execInput, profiles, notRun, order)
  } finally {
    await deps.federation?.close()
  }
}

/**
 * One target: the command gets the terminal; cpcred returns its exit code. `onPrepared` learns the
 * target before it runs, and until when its credential is served (for the answer of this question).
 */
export async function execOne(
  deps: ExecDeps,
  input: ExecInput,
  profile: ClusterProfile,
  onPrepared?: (target: PreparedTarget, credential: {cacheKey: string; cachedUntil?: Date}) => Promise<void>,
): Promise<number> {
  try {
    const {target, credential} = await prepareTarget(deps, input, profile)
    await onPrepared?.(target, credential)
    return await runWithTerminal(deps, input.command, target, {
      timeoutMs: input.timeoutMs,
      onWarning: input.onWarning,
      onVerbose: input.onVerbose && ((message) => input.onVerbose!(`${profileKey(profile)}: ${message}`)),
    })
  } finally {
    await deps.temp.dispose()
  }
}
