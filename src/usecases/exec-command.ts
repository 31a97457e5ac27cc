// `cpcred exec`: for each target, a fresh (or cached) credential, a private temporary kubeconfig,
// and the user's command run against it; the file is removed however the command ends.
import {profileKey, type ClusterProfile} from '../core/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {TargetResult} from '../core/fan-out-report.js'
import type {HubPin} from '../core/hub-pin.js'
import type {Provider} from '../core/provider-file.js'
import {resolveAccess} from '../core/resolve-access.js'
import {renderTargetKubeconfig} from '../core/target-kubeconfig.js'
import type {ChildRunner, OnLine, RunningChild} from '../adapters/child-process.js'
import type {PluginProcessRunner} from '../adapters/process.js'
import {obtainCredential, type CredentialCache} from './obtain-credential.js'
import {runWithTerminal, stopAfter, type PreparedTarget, type TempKubeconfigs} from './exec-one.js'

export type {PreparedTarget, TempKubeconfigs} from './exec-one.js'
export {TIMED_OUT_EXIT_CODE} from './exec-one.js'

export interface ExecDeps {
  plugins: PluginProcessRunner
  cache?: CredentialCache
  children: ChildRunner
  temp: TempKubeconfigs
  now: () => number
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals<T>(forward: (signal: NodeJS.Signals) => void, action: () => Promise<T>): Promise<T>
}

export interface ExecInput {
  command: string[]
  providers: Provider[]
  hubIdentity: string
  hubPin: HubPin
  stdinIsTTY: boolean
  pluginTimeoutMs?: number
  cacheTtlSeconds?: number
  as?: string
  asGroups: string[]
  onWarning: (message: string) => void
  onPluginStderr: (text: string) => void
  /** --verbose: what cpcred does, never a secret. */
  onVerbose?: (message: string) => void
  /** --timeout: each target's command is stopped (its whole process group) after this long. */
  timeoutMs?: number
}

export type {TargetResult} from '../core/fan-out-report.js'

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
}

/** Many targets, `parallel` at a time; each one's output comes back line by line. */
export async function execMany(
  deps: ExecDeps,
  input: ExecInput,
  profiles: ClusterProfile[],
  options: FanOutOptions,
): Promise<TargetResult[]> {
  const results: TargetResult[] = new Array(profiles.length)
  const running = new Set<RunningChild>()
  let next = 0
  let done = 0
  let stopping = false

  const runTarget = async (index: number): Promise<void> => {
    const profile = profiles[index]!
    const key = profileKey(profile)
    const started = deps.now()
    let result: TargetResult
    if (stopping) {
      result = {
        profile: key,
        exitCode: ExitCode.Failure,
        durationMs: 0,
        started: false,
        cancelled: true,
        error: 'not started (--fail-fast)',
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
    if (result.exitCode !== 0 && options.failFast && !stopping) {
      stopping = true
      for (const child of running) child.stop()
    }
  }

  const runCommand = async (
    key: string,
    profile: ClusterProfile,
    output: TargetOutput,
    started: number,
  ): Promise<TargetResult> => {
    const {target} = await prepare(deps, input, profile)
    const kubeconfig = await deps.temp.create(target.kubeconfig)
    try {
      const child = deps.children.prefixed(
        {
          command: input.command[0]!,
          args: input.command.slice(1),
          env: {...target.env, KUBECONFIG: kubeconfig},
        },
        output.line,
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
        started: !outcome.notFound && outcome.startError === undefined,
      }
      if (outcome.signal) result.signal = outcome.signal
      if (timer.fired) {
        result.timedOut = true
        result.error = `timed out after ${formatDuration(input.timeoutMs!)}`
      } else if (outcome.notFound) result.error = `command not found: ${input.command[0]}`
      else if (outcome.startError) result.error = `cannot start ${input.command[0]}: ${outcome.startError}`
      else if (outcome.signal) result.error = `killed by ${outcome.signal}`
      return result
    } finally {
      await deps.temp.remove(kubeconfig)
    }
  }

  const worker = async () => {
    while (next < profiles.length) await runTarget(next++)
  }
  const sweeping = deps.temp.sweepStale()
  try {
    await deps.forwardingSignals(
      (signal) => {
        stopping = true
        for (const child of running) child.kill(signal)
      },
      () => Promise.all(Array.from({length: Math.min(options.parallel, profiles.length)}, worker)),
    )
  } finally {
    await sweeping
    await deps.temp.dispose()
  }
  return results
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
      onPluginStderr: input.onPluginStderr,
    },
  )
  input.onVerbose?.(
    `${resolution.profile}: provider "${resolution.provider.name}", credential ${obtained.fromCache ? 'from the cache' : 'from the plugin'}`,
  )
  return {
    target: {
      kubeconfig: renderTargetKubeconfig(resolution, obtained.credential, {
        as: input.as,
        asGroups: input.asGroups,
      }),
      env: {CPCRED_PROFILE: profile.metadata.name, CPCRED_NAMESPACE: profile.metadata.namespace ?? ''},
    },
    credential: {cacheKey: obtained.cacheKey, cachedUntil: obtained.cachedUntil},
  }
}
