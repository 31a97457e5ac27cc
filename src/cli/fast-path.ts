// Commands that run on every kubectl request: `cpcred credential` and the built-in plugins (main.ts
// decides which argv come here). They never load oclif, and the build bundles this module and what
// it imports into one file, dist/fast/fast-path.js: resolving and loading a few dozen small modules
// one by one costs more than the rest of a warm run. `cpcred exec` has a bundle of its own
// (dist/fast/exec.js), so the node modules it needs at start are not loaded here.
import {runBuiltinPlugin} from '../plugins/common.js'
import {runCredential} from './credential.js'

export async function runFastPath(argv: string[]): Promise<number> {
  if (argv[0] === 'credential') await runCredential(argv.slice(1))
  else await runBuiltinPlugin(argv[1]!, argv.slice(2))
  return 0
}
