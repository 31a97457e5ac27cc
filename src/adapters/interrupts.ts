// The one place where cpcred listens to the signals sent to it, and to a reader of its stdout that
// has gone. Three behaviours are built on it, each for what a command is doing when the signal comes:
// - a command cpcred runs for the user (`exec`): the signal is forwarded to it, cpcred waits for it
//   to end, cleans up, and ends as the command did (forwardingSignals; runToExit re-raises SIGINT);
// - processes cpcred runs for itself in groups of their own (plugins): they are stopped, and the
//   caller learns which signal stopped them (process-group.ts's StopOnSignal, on whileSignalled);
// - commands that run until interrupted (list --watch, sync --watch): an AbortSignal ends them
//   cleanly, as does a reader of stdout that has gone, which then ends cpcred with 141 as it ends
//   kubectl (untilInterrupted); a fan-out stops its targets on the same reader-gone signal.
import {OUTPUT_CLOSED_EXIT_CODE, QuietExit} from '../core/errors.js'
import type {ForwardingSignals} from '../usecases/ports.js'

/** What a user's command gets passed on, as a shell's job would get them from the terminal. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']
/** What stops processes cpcred runs for itself. */
export const STOPPING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
/** What ends a command that runs until interrupted. */
const INTERRUPTING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

/**
 * Until the returned function is called, these signals go to `handler` instead of ending cpcred
 * (Node's default action is taken back when the last handler of a signal goes).
 */
export function onSignals(
  signals: readonly NodeJS.Signals[],
  handler: (signal: NodeJS.Signals) => void,
): () => void {
  const handlers = signals.map((signal) => [signal, () => handler(signal)] as const)
  for (const [signal, listener] of handlers) process.on(signal, listener)
  return () => {
    for (const [signal, listener] of handlers) process.off(signal, listener)
  }
}

/** `onSignals` for as long as `action` runs. */
export async function whileSignalled<T>(
  signals: readonly NodeJS.Signals[],
  handler: (signal: NodeJS.Signals) => void,
  action: () => Promise<T>,
): Promise<T> {
  const off = onSignals(signals, handler)
  try {
    return await action()
  } finally {
    off()
  }
}

/**
 * While `action` runs, signals sent to cpcred go to `forward` instead of ending cpcred, so cleanup
 * (the temporary kubeconfig) happens after the command has ended, whatever ended it.
 */
export const forwardingSignals: ForwardingSignals = (forward, action) =>
  whileSignalled(FORWARDED_SIGNALS, forward, action)

/** The output boundary's word that the reader of stdout has gone (printer.onStdoutClosed). */
export interface StdoutWatch {
  onStdoutClosed(listener: () => void): void
}

/**
 * An AbortSignal aborted (with `reason`) once the reader of stdout has gone: `cpcred list -w | grep
 * -m1 x`, `cpcred exec --all -- … | head`. `gone` says whether it has.
 */
export function readerGone(
  output: StdoutWatch,
  reason = 'the output was closed',
): {signal: AbortSignal; readonly gone: boolean; abort(reason: string): void} {
  const stop = new AbortController()
  let gone = false
  output.onStdoutClosed(() => {
    gone = true
    stop.abort(reason)
  })
  return {
    signal: stop.signal,
    get gone() {
      return gone
    },
    abort: (why) => stop.abort(why),
  }
}

/**
 * Runs `action` until SIGINT or SIGTERM, or until the reader of stdout has gone: either aborts its
 * signal, so it ends cleanly instead of in the middle of a write; a gone reader then ends cpcred
 * with 141.
 */
export async function untilInterrupted<T>(
  output: StdoutWatch,
  action: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const reader = readerGone(output)
  const result = await whileSignalled(
    INTERRUPTING_SIGNALS,
    (signal) => reader.abort(`interrupted by ${signal}`),
    () => action(reader.signal),
  )
  if (reader.gone) throw new QuietExit(OUTPUT_CLOSED_EXIT_CODE)
  return result
}

/** Everything is cleaned up: cpcred dies of the signal its command died of, with Node's default action. */
export async function dieOfSignal(signal: NodeJS.Signals): Promise<void> {
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
  await new Promise((resolve) => setTimeout(resolve, 1000))
}
