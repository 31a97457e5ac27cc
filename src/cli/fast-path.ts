// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion (main.ts decides which argv come here). They never load oclif, and the build
// bundles this module and what it imports into one file, dist/fast/fast-path.js: resolving and
// loading a few dozen small modules one by one costs more than the rest of a warm run. `cpcred exec`
// has a bundle of its own (dist/fast/exec.js), so the node modules it needs at start are not loaded
// here.
import {processPrinter} from '../adapters/printer.js'
import {runBuiltinPlugin} from '../plugins/common.js'
import {COMPLETE_COMMAND, runComplete} from './complete.js'
import {runCredential} from './credential.js'

export async function runFastPath(argv: string[]): Promise<number> {
  if (argv[0] === 'credential') await runCredential(argv.slice(1))
  else if (argv[0] === COMPLETE_COMMAND) await runComplete(argv.slice(1), processPrinter().data)
  else await runBuiltinPlugin(argv[1]!, argv.slice(2))
  return 0
}
