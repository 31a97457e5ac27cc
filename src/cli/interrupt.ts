// Commands that run until interrupted (sync --watch, list --watch): SIGINT and SIGTERM end them
// cleanly, through an AbortSignal, instead of killing cpcred in the middle of a write; so does a
// reader of stdout that has gone (`cpcred list -w | grep -m1 x`), which then ends cpcred with 141 as
// it ends kubectl.
import {OUTPUT_CLOSED_EXIT_CODE, QuietExit} from '../core/errors.js'
import type {Printer} from '../adapters/printer.js'

export async function untilInterrupted<T>(
  printer: Pick<Printer, 'onStdoutClosed'>,
  action: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController()
  const signals = ['SIGINT', 'SIGTERM'] as const
  const onSignal = () => stop.abort()
  let readerGone = false
  printer.onStdoutClosed(() => {
    readerGone = true
    stop.abort()
  })
  for (const signal of signals) process.on(signal, onSignal)
  try {
    const result = await action(stop.signal)
    if (readerGone) throw new QuietExit(OUTPUT_CLOSED_EXIT_CODE)
    return result
  } finally {
    for (const signal of signals) process.off(signal, onSignal)
  }
}
