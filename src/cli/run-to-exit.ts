// How an entry point ends its run (src/cli/exit.ts), with the printer and the signal mechanism of
// the wiring that entry built: a status line its command showed is cleared by the same printer.
import {runToExitWith} from './exit.js'
import type {Wiring} from './wiring.js'

export function runToExit(
  wiring: Pick<Wiring, 'printer' | 'interrupts'>,
  command: () => Promise<number | void>,
): Promise<never> {
  return runToExitWith(command, async () => wiring)
}
