// One target of `cpcred exec` run with the terminal: its kubeconfig written (exec-target-files.ts), the
// command given the terminal and cpcred's signals, cpcred's exit code the command's; the files
// removed however the command ends. Shared by the full path and by the answer fast path (src/cli/answer.ts), so it
// imports nothing heavy.
import {CpcredError, DiedOfSignal} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {
  ChildResult,
  ChildRunner,
  ForwardingSignals,
  RenewCredential,
  RunningChild,
  TempKubeconfigs,
} from './ports.js'

import {writeTarget, type PreparedTarget} from './exec-target-files.js'

export type {CredentialRefresh, PreparedTarget} from './exec-target-files.js'
export type {RenewCredential, TempKubeconfigs} from './ports.js'

export interface TerminalPorts {
  children: Pick<ChildRunner, 'inherited'>
  temp: TempKubeconfigs
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals: ForwardingSignals
  renew: RenewCredential
}

/** timeout(1)'s status for a command it stopped: scripts already know it. */
export const TIMED_OUT_EXIT_CODE = 124

export async function runWithTerminal(
  ports: TerminalPorts,
  command: string[],
  target: PreparedTarget,
  options: {
    timeoutMs?: number
    onVerbose?: (message: string) => void
    onWarning?: (message: string) => void
  } = {},
): Promise<number> {
  const written = await writeTarget(ports, target, options.onWarning ?? (() => undefined))
  options.onVerbose?.(`temporary kubeconfig ${written.kubeconfig}`)
  try {
    const child = ports.children.inherited(
      {command: command[0]!, args: command.slice(1), env: {...target.env, KUBECONFIG: written.kubeconfig}},
      {ownGroup: options.timeoutMs !== undefined},
    )
    const timer = stopAfter(child, options.timeoutMs)
    // Housekeeping while the command runs, off the path to its start.
    const sweeping = ports.temp.sweepStale()
    const result = await ports.forwardingSignals(
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
    await written.remove()
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
  if (result.startError !== undefined) {
    // As a shell says it, with its status (127 not found, 126 not executable), so scripts can tell.
    throw new CpcredError(`${command}: ${result.startError}`, {
      exitCode: result.exitCode,
      hint: result.notFound
        ? 'check the command after --, or your PATH'
        : 'check that the command is executable',
    })
  }
  if (result.signal === 'SIGINT') throw new DiedOfSignal('SIGINT')
  return result.exitCode
}
