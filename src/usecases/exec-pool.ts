// The targets of `cpcred exec` run `parallel` at a time (for exec-many.ts): each one prepared
// (exec-prepare.ts), its command run with a process group of its own and its output line by line,
// its files removed however it ends; signals to cpcred reach every running command, and none starts
// after them.
import {inPool} from '../core/fleet/worker-pool.js'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {TargetResult} from '../core/fleet/fan-out-report.js'
import type {ChildStdin, OnLine, RunningChild} from './ports.js'
import {stopAfter} from './exec-one.js'
import {prepareTarget, type TargetRunInput, type TargetRunPorts} from './exec-prepare.js'
import {writeTarget} from './exec-target-files.js'

/** Where one target's output goes, from its start to its end. */
export interface TargetOutput {
  /** Each line of the command's stdout and stderr; without it the output goes to /dev/null. */
  line?: OnLine
  /** The target has ended (its result is known); called once, before onDone. */
  close(result: TargetResult): void
}

/** How the pool runs: how many at once, and where each target's output and end go. */
export interface PoolInput {
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

/** How the pool ended: every result, and what stopped it early (a signal to cpcred, or `stop`). */
export interface PoolOutcome {
  results: TargetResult[]
  interrupted?: NodeJS.Signals
  stopped?: boolean
}

/** Many targets, `parallel` at a time; each one's output comes back line by line. */
export async function runTargets(
  ports: TargetRunPorts,
  input: TargetRunInput,
  profiles: ClusterProfile[],
  options: PoolInput,
): Promise<PoolOutcome> {
  const results: TargetResult[] = new Array(profiles.length)
  const running = new Set<RunningChild>()
  let done = 0
  /** Set once: why targets that have not started yet never will. */
  let stoppedBecause: string | undefined
  let interrupted: NodeJS.Signals | undefined
  /** The commands `stop` ended (the reader went away, say): cpcred's doing, not their failure. */
  const stoppedEarly = new Set<RunningChild>()
  const stopAll = (because: string, early = false) => {
    if (stoppedBecause !== undefined) return
    stoppedBecause = because
    for (const child of running) {
      if (early) stoppedEarly.add(child)
      child.stop()
    }
  }
  const onStop = () => stopAll(String(options.stop?.reason), true)
  options.stop?.addEventListener('abort', onStop)
  const notStarted = (key: string, because: string): TargetResult => ({
    profile: key,
    exitCode: ExitCode.Failure,
    durationMs: 0,
    started: false,
    cancelled: true,
    error: `not started (${because})`,
  })

  const runTarget = async (index: number): Promise<void> => {
    const profile = profiles[index]!
    const key = profileKey(profile)
    const started = ports.now()
    let result: TargetResult
    if (stoppedBecause !== undefined) result = notStarted(key, stoppedBecause)
    else {
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
          durationMs: ports.now() - started,
          started: false,
          error: error.message,
          ...(error.hint ? {hint: error.hint} : {}),
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
    const {target} = await prepareTarget(ports, input, profile)
    const written = await writeTarget(ports, target, input.onWarning)
    const kubeconfig = written.kubeconfig
    try {
      // Stopped while its credential was being obtained: it would start after the stop.
      if (stoppedBecause !== undefined) return notStarted(key, stoppedBecause)
      const child = ports.children.prefixed(
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
        durationMs: ports.now() - started,
        started: outcome.startError === undefined,
      }
      if (outcome.signal) result.signal = outcome.signal
      if (stoppedEarly.has(child) && outcome.exitCode !== 0) {
        result.stopped = true
        result.error = `stopped (${stoppedBecause})`
      } else if (timer.fired) {
        result.timedOut = true
        result.error = `timed out after ${formatDuration(input.timeoutMs!)}`
      } else if (outcome.startError) result.error = `${input.command[0]}: ${outcome.startError}`
      else if (outcome.signal) result.error = `killed by ${outcome.signal}`
      return result
    } finally {
      await written.remove()
    }
  }

  const sweeping = ports.temp.sweepStale()
  try {
    await ports.forwardingSignals(
      (signal) => {
        // The signal reaches every running command as it would in a shell; none starts after it.
        interrupted ??= signal
        stoppedBecause ??= `interrupted by ${signal}`
        for (const child of running) child.kill(signal)
      },
      () => inPool(profiles, options.parallel, (_, index) => runTarget(index)),
    )
  } finally {
    options.stop?.removeEventListener('abort', onStop)
    await sweeping
    await Promise.all([ports.temp.dispose(), ports.children.close()])
  }
  return {
    results,
    interrupted,
    stopped: options.stop?.aborted && stoppedBecause === String(options.stop.reason),
  }
}
