// Commands that run on every kubectl request or keypress: `cpcred credential`, the built-in plugins
// and shell completion, and `cpcred list`, which scripts and people run all the time (main.ts decides which argv come here). They never load oclif, and the build
// bundles this module and what it imports into one file, dist/fast/fast-path.js: resolving and
// loading a few dozen small modules one by one costs more than the rest of a warm run. `cpcred exec`
// has a bundle of its own (dist/fast/exec.js), so the node modules it needs at start are not loaded
// here.
import {isBuiltinPlugin} from './plugins/names.js'
import {COMPLETE_COMMAND} from './complete-command.js'
import {runToExit} from './run-to-exit.js'

/** Whether these arguments are this bundle's; --help (and anything else) is oclif's. */
export function handles(argv: string[]): boolean {
  // Completion words are the user's, --help among them: they are never cpcred's own flags.
  if (argv[0] === COMPLETE_COMMAND) return true
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return false
  return (
    argv[0] === 'credential' ||
    argv[0] === 'list' ||
    argv[0] === 'ls' ||
    (argv[0] === 'plugin' && isBuiltinPlugin(argv[1]))
  )
}

/** bin/run.js's entry: false when the arguments are not this bundle's, else runs them and exits. */
export function main(argv: string[]): boolean {
  if (!handles(argv)) return false
  void runToExit(() => runFastPath(argv))
  return true
}

/** Each command's code is loaded only when it runs (in the bundle, its module is initialised lazily). */
export async function runFastPath(argv: string[]): Promise<number> {
  if (argv[0] === 'credential') {
    await (await import('./credential.js')).runCredential(argv.slice(1))
  } else if (argv[0] === 'list' || argv[0] === 'ls') {
    await (await import('./list.js')).runList(argv.slice(1))
  } else if (argv[0] === COMPLETE_COMMAND) {
    const [{runComplete}, {processPrinter}] = await Promise.all([
      import('./complete.js'),
      import('../adapters/printer.js'),
    ])
    await runComplete(argv.slice(1), processPrinter().data)
  } else {
    await (await import('./plugins/run.js')).runBuiltinPlugin(argv[1]!, argv.slice(2))
  }
  return 0
}
