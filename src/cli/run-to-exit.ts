// How the fast path and oclif end a run (src/cli/exit.ts), with the printer and the signal
// mechanism from the wiring.
import {runToExitWith} from './exit.js'

export function runToExit(command: () => Promise<number | void>): Promise<never> {
  return runToExitWith(command, async () => (await import('./wiring.js')).wireEnding())
}
