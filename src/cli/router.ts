// The one command router: which code runs a command line. bin/run.js calls `main` (this module is
// the small bundle dist/fast/router.cjs); bin/dev.mjs calls `route` on the sources. What kubectl and
// CI run all the time comes from CommonJS bundles in dist/fast, loaded with require: no ES module
// loader and no oclif on the way. `credential` and `exec` first ask for the last answer to the same
// question (dist/fast/answer.cjs); everything else, and --help, goes to oclif (src/cli/main.ts).
import {isBuiltinPlugin} from './plugins/names.js'

/** The hidden command the shell completion scripts call (src/hooks/completion-scripts.ts). */
export const COMPLETE_COMMAND = '__complete'

/** A bundle of dist/fast (built from src/cli/<name>.ts), or oclif. */
export type Route = 'fast-path' | 'exec' | 'oclif'

const FAST_PATH_COMMANDS = new Set(['credential', 'list', 'ls'])

const asksForHelp = (args: string[]) => args.some((arg) => arg === '--help' || arg === '-h')

/** Where these arguments run. Help is oclif's; completion words are the user's, never a request for help. */
export function route(argv: string[]): Route {
  const [command = ''] = argv
  if (command === COMPLETE_COMMAND) return 'fast-path'
  if (command === 'exec') {
    // After -- the words are the user's command's (`cpcred exec x -- kubectl --help`).
    const separator = argv.indexOf('--')
    return asksForHelp(separator === -1 ? argv : argv.slice(0, separator)) ? 'oclif' : 'exec'
  }
  if (asksForHelp(argv)) return 'oclif'
  if (FAST_PATH_COMMANDS.has(command) || (command === 'plugin' && isBuiltinPlugin(argv[1])))
    return 'fast-path'
  return 'oclif'
}

/** Whether the last answer to the same question may be given before any command code loads. */
export const answerable = (argv: string[]): boolean => argv[0] === 'credential' || argv[0] === 'exec'

interface Bundle {
  /** Runs the command line and exits the process with its code. */
  run(argv: string[]): void
}

/** bin/run.js's entry, run from dist/fast/router.cjs. */
export function main(argv: string[]): void {
  // A path esbuild cannot resolve, so that each bundle stays a file of its own, loaded only here;
  // require, because the bundles are CommonJS and the ES module loader costs milliseconds.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (name: string): unknown => require(`${__dirname}/${name}.cjs`)
  if (answerable(argv) && (load('answer') as {main(argv: string[]): boolean}).main(argv)) return
  const where = route(argv)
  if (where !== 'oclif') return (load(where) as Bundle).run(argv)
  void import(`${__dirname}/../cli/main.js`).then((cli: {run(argv: string[]): Promise<void>}) =>
    cli.run(argv),
  )
}
