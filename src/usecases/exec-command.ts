// `cpcred exec`: for each target, a fresh (or cached) credential, a private temporary kubeconfig,
// and the user's command run against it; the file is removed however the command ends.
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {TargetResult} from '../core/fleet/fan-out-report.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import type {Provider} from '../core/access/provider-file.js'
import {resolveAccess} from '../core/access/resolve-access.js'
import {TARGET_EXEC_API, targetConnection} from '../core/kubeconfig/target.js'
import {renderExecCredential} from '../core/exec-credential/protocol.js'
import type {LifetimeRule} from '../core/exec-credential/cache.js'
import type {
  ChildRunner,
  ChildStdin,
  CredentialCache,
  ForwardingSignals,
  OnLine,
  PluginProcessRunner,
  RunningChild,
} from './ports.js'
import {obtainCredential} from './obtain-credential.js'
import {
  renewalTime,
  runWithTerminal,
  stopAfter,
  writeTarget,
  type PreparedTarget,
  type RenewCredential,
  type TempKubeconfigs,
} from './exec-one.js'

export type {PreparedTarget, TempKubeconfigs} from './exec-one.js'
export {TIMED_OUT_EXIT_CODE} from './exec-one.js'

export interface ExecDeps {
  plugins: PluginProcessRunner
  cache?: CredentialCache
  children: ChildRunner
  temp: TempKubeconfigs
  now: () => number
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals: ForwardingSignals
  /** Renews a running command's credential (src/adapters/credential-renewal.ts). */
  renew: RenewCredential
}

export interface ExecInput {
  command: string[]
  providers: Provider[]
  hubIdentity: string
  hubPin: HubPin
  stdinIsTTY: boolean
  pluginTimeoutMs?: number
  cacheTtlSeconds?: number
  /** How much of its life a credential must have left when a command starts with it. */
  lifetimeRule: LifetimeRule
  /** The hub is down and the profile is a stale snapshot: a cached credential only (obtain-credential.ts). */
  cacheOnly?: string
  /** `cpcred credential` for a profile (NAMESPACE/NAME) with this run's hub and provider flags. */
  renewCommand: (profile: string) => string[]
  as?: string
  asGroups: string[]
  onWarning: (message: string) => void
  onPluginStderr: (text: string) => void
  /** --verbose: what cpcred does, never a secret. */
  onVerbose?: (message: string) => void
  /** --timeout: each target's command is stopped (its whole process group) after this long. */
  timeoutMs?: number
}

export type {TargetResult} from '../core/fleet/fan-out-report.js'

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
    const {target, credential} = await prepare(deps, input, profile)
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

/** Where one target's output goes, from its start to its end. */
export interface TargetOutput {
  /** Each line of the command's stdout and stderr; without it the output goes to /dev/null. */
  line?: OnLine
  /** The target has ended (its result is known); called once, before onDone. */
  close(result: TargetResult): void
}

export interface FanOutOptions {
  parallel: number
  failFast: boolean
  /** Opened when a target's turn comes, so open files stay bounded by `parallel`. */
  openOutput: (profile: string) => TargetOutput
  onStart?: (profile: string) => void
  onDone: (result: TargetResult, done: number, total: number) => void
  /**
   * Aborted, with a reason such as "the output was closed", when the run must end early: running
   * targets are stopped and no more start.
   */
  stop?: AbortSignal
  /** Each target's stdin (a copy of cpcred's); /dev/null without it. */
  stdin?: () => ChildStdin
}

/** How a fan-out ended: every result, and what stopped it early (a signal to cpcred, or `stop`). */
export interface FanOutOutcome {
  results: TargetResult[]
  interrupted?: NodeJS.Signals
  stopped?: boolean
}

/** Many targets, `parallel` at a time; each one's output comes back line by line. */
export async function execMany(
  deps: ExecDeps,
  input: ExecInput,
  profiles: ClusterProfile[],
  options: FanOutOptions,
): Promise<FanOutOutcome> {
  const results: TargetResult[] = new Array(profiles.length)
  const running = new Set<RunningChild>()
  let next = 0
  let done = 0
  /** Set once: why targets that have not started yet never will. */
  let stoppedBecause: string | undefined
  let interrupted: NodeJS.Signals | undefined
  const stopAll = (because: string) => {
    if (stoppedBecause !== undefined) return
    stoppedBecause = because
    for (const child of running) child.stop()
  }
  const onStop = () => stopAll(String(options.stop?.reason))
  options.stop?.addEventListener('abort', onStop)

  const runTarget = async (index: number): Promise<void> => {
    const profile = profiles[index]!
    const key = profileKey(profile)
    const started = deps.now()
    let result: TargetResult
    if (stoppedBecause !== undefined) {
      result = {
        profile: key,
        exitCode: ExitCode.Failure,
        durationMs: 0,
        started: false,
        cancelled: true,
        error: `not started (${stoppedBecause})`,
      }
    } else {
      options.onStart?.(key)
      let output: TargetOutput | undefined
      try {
        output = options.openOutput(key)
        result = await runCommand(key, profile, output, started)
      } catch (error) {
        if (!isCpcredError(error)) throw error
        result = {
          profile: key,
          exitCode: error.exitCode,
          durationMs: deps.now() - started,
          started: false,
          error: error.message,
        }
      }
      output?.close(result)
    }
    results[index] = result
    options.onDone(result, ++done, profiles.length)
    if (result.exitCode !== 0 && options.failFast) stopAll('--fail-fast')
  }

  const runCommand = async (
    key: string,
    profile: ClusterProfile,
    output: TargetOutput,
    started: number,
  ): Promise<TargetResult> => {
    const {target} = await prepare(deps, input, profile)
    const written = await writeTarget(deps, target, input.onWarning)
    const kubeconfig = written.kubeconfig
    try {
      const child = deps.children.prefixed(
        {
          command: input.command[0]!,
          args: input.command.slice(1),
          env: {...target.env, KUBECONFIG: kubeconfig},
        },
        output.line,
        options.stdin?.(),
      )
      running.add(child)
      const timer = stopAfter(child, input.timeoutMs)
      const outcome = await child.result
      timer.cancel()
      running.delete(child)
      const result: TargetResult = {
        profile: key,
        exitCode: outcome.exitCode,
        durationMs: deps.now() - started,
        started: outcome.startError === undefined,
      }
      if (outcome.signal) result.signal = outcome.signal
      if (timer.fired) {
        result.timedOut = true
        result.error = `timed out after ${formatDuration(input.timeoutMs!)}`
      } else if (outcome.startError) result.error = `${input.command[0]}: ${outcome.startError}`
      else if (outcome.signal) result.error = `killed by ${outcome.signal}`
      return result
    } finally {
      await written.remove()
    }
  }

  const worker = async () => {
    while (next < profiles.length) await runTarget(next++)
  }
  const sweeping = deps.temp.sweepStale()
  try {
    await deps.forwardingSignals(
      (signal) => {
        // The signal reaches every running command as it would in a shell; none starts after it.
        interrupted ??= signal
        stoppedBecause ??= `interrupted by ${signal}`
        for (const child of running) child.kill(signal)
      },
      () => Promise.all(Array.from({length: Math.min(options.parallel, profiles.length)}, worker)),
    )
  } finally {
    options.stop?.removeEventListener('abort', onStop)
    await sweeping
    await deps.temp.dispose()
  }
  return {
    results,
    interrupted,
    stopped: options.stop?.aborted && stoppedBecause === String(options.stop.reason),
  }
}

async function prepare(
  deps: ExecDeps,
  input: ExecInput,
  profile: ClusterProfile,
): Promise<{target: PreparedTarget; credential: {cacheKey: string; cachedUntil?: Date}}> {
  const resolution = resolveAccess(profile, input.providers)
  for (const warning of resolution.warnings) input.onWarning(warning)
  const obtained = await obtainCredential(
    {runner: deps.plugins, cache: deps.cache},
    {
      resolution,
      hubIdentity: input.hubIdentity,
      hubPin: input.hubPin,
      stdinIsTTY: input.stdinIsTTY,
      timeoutMs: input.pluginTimeoutMs,
      ttlSeconds: input.cacheTtlSeconds,
      lifetimeRule: input.lifetimeRule,
      cacheOnly: input.cacheOnly,
      onPluginStderr: input.onPluginStderr,
    },
  )
  input.onVerbose?.(
    `${resolution.profile}: provider "${resolution.provider.name}", credential ${obtained.fromCache ? 'from the cache' : 'from the plugin'}`,
  )
  const {credential, obtainedAt} = obtained
  const target: PreparedTarget = {
    connection: targetConnection(resolution, {as: input.as, asGroups: input.asGroups}),
    credential: renderExecCredential(credential, TARGET_EXEC_API),
    env: {CPCRED_PROFILE: profile.metadata.name, CPCRED_NAMESPACE: profile.metadata.namespace ?? ''},
  }
  // A credential that expires is renewed while the command runs, once it has only the lifetime
  // a command must start with left (the same rule, so the renewal finds the cache's copy too old).
  const expiresAt = credential.expiresAt?.getTime()
  if (expiresAt !== undefined) {
    const minLifetimeSeconds = Math.ceil(input.lifetimeRule((expiresAt - obtainedAt.getTime()) / 1000))
    target.refresh = {
      at: renewalTime(expiresAt, minLifetimeSeconds, Date.now()),
      minLifetimeSeconds,
      command: input.renewCommand(resolution.profile),
    }
  }
  return {
    target,
    credential: {cacheKey: obtained.cacheKey, cachedUntil: obtained.cachedUntil},
  }
}
