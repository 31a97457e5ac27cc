// Commands that run until interrupted (sync --watch, list --watch): SIGINT and SIGTERM end them
// cleanly, through an AbortSignal, instead of killing cpcred in the middle of a write; so does a
// reader of stdout that has gone (`cpcred list -w | grep -m1 x`), which then ends cpcred with 141 as
// it ends kubectl. The mechanism is src/adapters/interrupts.ts, the one listener to signals.
import type {Wiring} from './wiring.js'

/** `action` until interrupted, with this run's wiring: its signals and the reader of its printer. */
export function untilInterrupted<T>(
  wiring: Pick<Wiring, 'interrupts' | 'printer'>,
  action: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return wiring.interrupts.untilInterrupted(wiring.printer, action)
}
