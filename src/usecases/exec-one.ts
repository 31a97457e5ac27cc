// One target of `cpcred exec` whose kubeconfig is ready: written to a private temporary file, the
// command run with the terminal, cpcred's exit code the command's; the file removed however the
// command ends. Shared by the full path and by the answer fast path (src/cli/answer.ts), so it
// imports nothing heavy.
import {CpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {ChildResult, ChildRunner, RunningChild} from '../adapters/child-process.js'

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

/** A target ready to run: its kubeconfig's content (holding the credential) and its environment. */
export interface PreparedTarget {
  kubeconfig: string
  /** CPCRED_PROFILE and CPCRED_NAMESPACE; KUBECONFIG is added when the file is written. */
  env: Record<string, string>
}

export interface TerminalDeps {
  children: ChildRunner
  temp: TempKubeconfigs
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals<T>(forward: (signal: NodeJS.Signals) => void, action: () => Promise<T>): Promise<T>
}

/** timeout(1)'s status for a command it stopped: scripts already know it. */
export const TIMED_OUT_EXIT_CODE = 124

export async function runWithTerminal(
  deps: TerminalDeps,
  command: string[],
  target: PreparedTarget,
  options: {timeoutMs?: number; onVerbose?: (message: string) => void} = {},
): Promise<number> {
  const kubeconfig = await deps.temp.create(target.kubeconfig)
  options.onVerbose?.(`temporary kubeconfig ${kubeconfig}`)
  try {
    const child = deps.children.inherited(
      {command: command[0]!, args: command.slice(1), env: {...target.env, KUBECONFIG: kubeconfig}},
      {ownGroup: options.timeoutMs !== undefined},
    )
    const timer = stopAfter(child, options.timeoutMs)
    // Housekeeping while the command runs, off the path to its start.
    const sweeping = deps.temp.sweepStale()
    const result = await deps.forwardingSignals(
      (signal) => child.kill(signal),
      () => child.result,
    )
    timer.cancel()
    await sweeping
    if (timer.fired) {
      throw new CpcredError(`${command[0]} timed out after ${formatDuration(options.timeoutMs!)}`, {
        exitCode: TIMED_OUT_EXIT_CODE,
        hint: 'raise --timeout, or look at why the command hangs',
      })
    }
    return commandOutcome(result, command[0]!)
  } finally {
    await deps.temp.remove(kubeconfig)
  }
}

/** --timeout: stops the child (TERM to its group, KILL after a grace) when the time is up. */
export function stopAfter(
  child: RunningChild,
  timeoutMs: number | undefined,
): {fired: boolean; cancel(): void} {
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
  if (result.startError) {
    throw new CpcredError(`cannot start ${command}: ${result.startError}`, {
      hint: 'check the command after --',
    })
  }
  return result.exitCode
}
