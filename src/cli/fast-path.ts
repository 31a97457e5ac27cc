// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion, and `cpcred list`, which scripts and people run all the time (which command
// lines come here: src/cli/fast-path-commands.ts). They never load oclif, and the build bundles this
// module and what it imports into one file, dist/fast/fast-path.cjs: resolving and loading a few
// dozen small modules one by one costs more than the rest of a warm run. `cpcred exec` has a bundle
// of its own (dist/fast/exec.cjs), so the node modules it needs at start are not loaded here.
import {COMPLETE_COMMAND, type CommandsOf} from './fast-path-commands.js'
import {runToExit} from './run-to-exit.js'
import {processWiring, type Wiring} from './wiring.js'

/** The router's entry (src/cli/router.ts): runs the command line and exits with its code. */
export function run(argv: string[]): void {
  void runToExit(() => runFastPath(argv))
}

type Runner = (wiring: Wiring, args: string[]) => Promise<void>

/** Each command's code is loaded only when it runs (in the bundle, its module is initialised lazily). */
const RUNNERS: Record<CommandsOf<'fast-path'>, Runner> = {
  credential: async (wiring, args) => (await import('./credential.js')).runCredential(wiring, args),
  list: async (_, args) => (await import('./list.js')).runList(args),
  ls: async (_, args) => (await import('./list.js')).runList(args),
  plugin: async (wiring, [name = '', ...args]) =>
    (await import('./plugins/run.js')).runBuiltinPlugin(name, args, wiring),
  [COMPLETE_COMMAND]: async (wiring, args) => (await import('./complete.js')).runComplete(wiring, args),
}

export async function runFastPath(argv: string[]): Promise<number> {
  // The router sends only the table's fast-path commands here.
  const [command, ...args] = argv as [CommandsOf<'fast-path'>, ...string[]]
  await RUNNERS[command](processWiring(), args)
  return 0
}
