// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion, and `cpcred list`, which scripts and people run all the time (which command
// lines come here: src/cli/command-table.ts). They never load oclif, and the build bundles this
// module and what it imports into one file, dist/fast/fast-path.cjs: resolving and loading a few
// dozen small modules one by one costs more than the rest of a warm run. `cpcred exec` has a bundle
// of its own (dist/fast/exec.cjs), so the node modules it needs at start are not loaded here.
import {COMPLETE_COMMAND, commandOf, type CommandsOf, type Front} from './command-table.js'
import {runToExit} from './run-to-exit.js'
import {wire} from './wiring.js'

/**
 * The router's entry (src/cli/router.ts), this bundle's composition root: the wiring is built here,
 * once, and handed to the command's front; the run exits with its code.
 */
export function run(argv: string[]): void {
  const wiring = wire(process.env)
  void runToExit(wiring, async () =>
    (await FAST_FRONTS[commandOf(argv[0]) as CommandsOf<'fast-path'>]())(wiring, argv.slice(1)),
  )
}

/**
 * The fronts of the commands this bundle runs (command-table.ts), each loaded only when it runs (in
 * the bundle, its module is initialised lazily); the oclif side's table (fronts.ts) takes them from here.
 */
export const FAST_FRONTS: Record<CommandsOf<'fast-path'>, () => Promise<Front>> = {
  credential: async () => (await import('./credential.js')).runCredential,
  list: async () => (await import('./list.js')).runList,
  plugin: async () => (await import('./plugins/run.js')).runBuiltinPlugin,
  [COMPLETE_COMMAND]: async () => (await import('./complete.js')).runComplete,
}
