// How an entry point ends its run (src/cli/exit.ts), with the printer and the signal mechanism of
// the wiring that entry built: a status line its command showed is cleared by the same printer.
import type {Front} from './command-table.js'
import {runToExitWith} from './exit.js'
import {wire, type Wiring} from './wiring.js'

export function runToExit(
  wiring: Pick<Wiring, 'printer' | 'interrupts'>,
  command: () => Promise<number | void>,
): Promise<never> {
  return runToExitWith(command, async () => wiring)
}

/**
 * The entry of a bundle that runs one command (exec, get, lint: the router calls its `run`), and so
 * that run's composition root: the wiring is built here, once, and handed to the command's front
 * with the words after the command; the run exits with its code.
 */
export function runFront(front: Front, argv: string[]): void {
  const wiring = wire(process.env)
  void runToExit(wiring, () => front(wiring, argv.slice(1)))
}
