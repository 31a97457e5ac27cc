// `cpcred exec`: for each target, a fresh (or cached) credential, a private temporary kubeconfig,
// and the user's command run against it; the file is removed however the command ends.
import {profileKey, type ClusterProfile} from '../core/cluster-profile.js'
import {CpcredError, ExitCode, isCpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {TargetResult} from '../core/fan-out-report.js'
import type {HubPin} from '../core/hub-pin.js'
import type {Provider} from '../core/provider-file.js'
import {resolveAccess} from '../core/resolve-access.js'
import {renderTargetKubeconfig} from '../core/target-kubeconfig.js'
import type {ChildResult, ChildRunner, OnLine, RunningChild} from '../adapters/child-process.js'
import type {PluginProcessRunner} from '../adapters/process.js'
import {obtainCredential, type CredentialCache} from './obtain-credential.js'

export interface TempKubeconfigs {
  /** Writes the content to a new private file (0600 in a 0700 directory); returns its path. */
  create(content: string): Promise<string>
  /** Removes the file. */
  remove(file: string): Promise<void>
  /** Removes the run's private directory (and anything left in it); called once, at the end. */
  dispose(): Promise<void>
  /** Removes what runs killed before they could clean up left behind (housekeeping, never fails). */
  sweepStale(): Promise<unknown>
}

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

/** timeout(1)'s status for a command it stopped: scripts already know it. */
export const TIMED_OUT_EXIT_CODE = 124

/** One target: the command gets the terminal; cpcred returns its exit code. */
export async function execOne(deps: ExecDeps, input: ExecInput, profile: ClusterProfile): Promise<number> {
  try {
    return await runOne(deps, input, profile)
  } finally {
    await deps.temp.dispose()
  }
}

async function runOne(deps: ExecDeps, input: ExecInput, profile: ClusterProfile): Promise<number> {
  const prepared = await prepare(deps, input, profile)
  try {
    const child = deps.children.inherited(
      {command: input.command[0]!, args: input.command.slice(1), env: prepared.env},
      {ownGroup: input.timeoutMs !== undefined},
    )
    const timer = stopAfter(child, input.timeoutMs)
    // Housekeeping while the command runs, off the path to its start.
    const sweeping = deps.temp.sweepStale()
    const result = await deps.forwardingSignals(
      (signal) => child.kill(signal),
      () => child.result,
    )
    timer.cancel()
    await sweeping
    if (timer.fired) {
      throw new CpcredError(`${input.command[0]} timed out after ${formatDuration(input.timeoutMs!)}`, {
        exitCode: TIMED_OUT_EXIT_CODE,
        hint: 'raise --timeout, or look at why the command hangs',
      })
    }
    return commandOutcome(result, input.command[0]!)
  } finally {
    await deps.temp.remove(prepared.kubeconfig)
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
    const prepared = await prepare(deps, input, profile)
    try {
      const child = deps.children.prefixed(
        {command: input.command[0]!, args: input.command.slice(1), env: prepared.env},
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
        started: !outcome.notFound,
      }
      if (outcome.signal) result.signal = outcome.signal
      if (timer.fired) {
        result.timedOut = true
        result.error = `timed out after ${formatDuration(input.timeoutMs!)}`
      } else if (outcome.notFound) result.error = `command not found: ${input.command[0]}`
      else if (outcome.signal) result.error = `killed by ${outcome.signal}`
      return result
    } finally {
      await deps.temp.remove(prepared.kubeconfig)
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

interface Prepared {
  kubeconfig: string
  env: Record<string, string>
}

async function prepare(deps: ExecDeps, input: ExecInput, profile: ClusterProfile): Promise<Prepared> {
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
  const kubeconfig = await deps.temp.create(
    renderTargetKubeconfig(resolution, obtained.credential, {as: input.as, asGroups: input.asGroups}),
  )
  input.onVerbose?.(`${resolution.profile}: temporary kubeconfig ${kubeconfig}`)
  return {
    kubeconfig,
    env: {
      KUBECONFIG: kubeconfig,
      CPCRED_PROFILE: profile.metadata.name,
      CPCRED_NAMESPACE: profile.metadata.namespace ?? '',
    },
  }
}

/** --timeout: stops the child (TERM to its group, KILL after a grace) when the time is up. */
function stopAfter(child: RunningChild, timeoutMs: number | undefined): {fired: boolean; cancel(): void} {
  const timer = {fired: false, cancel: () => {}}
  if (timeoutMs === undefined) return timer
  const handle = setTimeout(() => {
    timer.fired = true
    child.stop()
  }, timeoutMs)
  timer.cancel = () => clearTimeout(handle)
  return timer
}

function commandOutcome(result: ChildResult, command: string): number {
  if (result.notFound) {
    throw new CpcredError(`command not found: ${command}`, {hint: 'check the command after --, or your PATH'})
  }
  return result.exitCode
}
