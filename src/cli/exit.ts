// How every cpcred process ends: the command's exit code, or its failure shown once on stderr with
// the exit code of its kind (reportError, the one place that maps errors to codes), after dying of
// the signal its command died of when that is how it must end (DiedOfSignal's `reraise`).
// What failing needs (the printer, the signal mechanism) is handed in and loaded only on failure:
// a warm run never pays for it.

// Output goes through src/adapters/output-sink.ts, whose writes are finished when they return, so
// process.exit here loses nothing, however slow the reader.
import type {Printer} from '../adapters/printer.js'

export interface Ending {
  printer: Printer
  interrupts: {dieOfSignal(signal: NodeJS.Signals): Promise<void>}
}

export async function runToExitWith(
  command: () => Promise<number | void>,
  ending: () => Promise<Ending>,
): Promise<never> {
  let code: number
  try {
    code = (await command()) ?? 0
  } catch (error) {
    const reraise = (error as {reraise?: NodeJS.Signals} | undefined)?.reraise
    const [{printer, interrupts}, {reportError}] = await Promise.all([ending(), import('./report-error.js')])
    // Everything is cleaned up: die of the signal, with Node's default action for it.
    if (reraise) await interrupts.dieOfSignal(reraise)
    code = reportError(error, printer, {debug: Boolean(process.env.CPCRED_DEBUG)})
  }
  process.exit(code)
}
