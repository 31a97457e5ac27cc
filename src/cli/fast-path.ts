// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion, and `cpcred list`, which scripts and people run all the time (the router,
// src/cli/router.ts, decides which command lines come here). They never load oclif, and the build
// bundles this module and what it imports into one file, dist/fast/fast-path.js: resolving and
// loading a few dozen small modules one by one costs more than the rest of a warm run. `cpcred exec`
// has a bundle of its own (dist/fast/exec.js), so the node modules it needs at start are not loaded
// here.
import {COMPLETE_COMMAND} from './router.js'
import {runToExit} from './run-to-exit.js'
import {processWiring} from './wiring.js'

/** The router's entry (src/cli/router.ts): runs the command line and exits with its code. */
export function run(argv: string[]): void {
  void runToExit(() => runFastPath(argv))
}

/** Each command's code is loaded only when it runs (in the bundle, its module is initialised lazily). */
export async function runFastPath(argv: string[]): Promise<number> {
  const wiring = processWiring()
  if (argv[0] === 'credential') {
    await (await import('./credential.js')).runCredential(wiring, argv.slice(1))
  } else if (argv[0] === 'list' || argv[0] === 'ls') {
    await (await import('./list.js')).runList(argv.slice(1))
  } else if (argv[0] === COMPLETE_COMMAND) {
    await (await import('./complete.js')).runComplete(wiring, argv.slice(1))
  } else {
    await (await import('./plugins/run.js')).runBuiltinPlugin(argv[1]!, argv.slice(2), wiring)
  }
  return 0
}
