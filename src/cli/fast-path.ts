// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion, and `cpcred list`, which scripts and people run all the time (which command
// lines come here: src/cli/fast-path-commands.ts). They never load oclif, and the build bundles this
// module and what it imports into one file, dist/fast/fast-path.cjs: resolving and loading a few
// dozen small modules one by one costs more than the rest of a warm run. `cpcred exec` has a bundle
// of its own (dist/fast/exec.cjs), so the node modules it needs at start are not loaded here.
import {COMPLETE_COMMAND, type CommandsOf} from './fast-path-commands.js'
import {runToExit} from './run-to-exit.js'
import {wire, type Wiring} from './wiring.js'

/**
 * The router's entry (src/cli/router.ts), this bundle's composition root: the wiring is built here,
 * once, and handed to the command's front; the run exits with its code.
 */
export function run(argv: string[]): void {
  const wiring = wire(process.env)
  void runToExit(wiring, () => runFastPath(wiring, argv))
}

type Runner = (wiring: Wiring, args: string[]) => Promise<void>

/** Each command's code is loaded only when it runs (in the bundle, its module is initialised lazily). */
const RUNNERS: Record<CommandsOf<'fast-path'>, Runner> = {
  credential: async (wiring, args) => (await import('./credential.js')).runCredential(wiring, args),
  list: async (wiring, args) => (await import('./list.js')).runList(wiring, args),
  ls: async (wiring, args) => (await import('./list.js')).runList(wiring, args),
  plugin: async (wiring, args) => (await import('./plugins/run.js')).runBuiltinPlugin(wiring, args),
  [COMPLETE_COMMAND]: async (wiring, args) => (await import('./complete.js')).runComplete(wiring, args),
}

export async function runFastPath(wiring: Wiring, argv: string[]): Promise<number> {
  // The router sends only the table's fast-path commands here.
  const [command, ...args] = argv as [CommandsOf<'fast-path'>, ...string[]]
  await RUNNERS[command](wiring, args)
  return 0
}
