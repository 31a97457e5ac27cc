// Entry point of the cpcred binary: runs the command and turns every failure into one message on
// stderr and the exit code of its kind (the one place that maps errors to codes).
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {isBuiltinPlugin} from '../plugins/names.js'

export interface RunOptions {
  development?: boolean
}

/** Commands kubectl or CI run all the time skip oclif; help (before any --) still goes through it. */
function isFastPath(argv: string[]): boolean {
  const separator = argv.indexOf('--')
  const options = separator === -1 ? argv : argv.slice(0, separator)
  // Completion words are the user's, --help among them: they are never cpcred's own flags.
  if (argv[0] === '__complete') return true
  if (options.some((arg) => arg === '--help' || arg === '-h')) return false
  return argv[0] === 'credential' || argv[0] === 'exec' || (argv[0] === 'plugin' && isBuiltinPlugin(argv[1]))
}

/** A bundled fast-path module when the build made one, else the module itself (development). */
async function loadBundled<T>(name: 'fast-path' | 'exec', fallback: () => Promise<T>): Promise<T> {
  const bundle = new URL(`../fast/${name}.js`, import.meta.url)
  return existsSync(fileURLToPath(bundle)) ? (import(bundle.href) as Promise<T>) : fallback()
}

export async function run(argv: string[], options: RunOptions = {}): Promise<void> {
  // `cpcred list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
  })
  let code = 0
  try {
    if (argv[0] === 'exec' && isFastPath(argv)) {
      code = await (await loadBundled('exec', () => import('./exec.js'))).runExec(argv.slice(1))
    } else if (isFastPath(argv)) {
      code = await (await loadBundled('fast-path', () => import('./fast-path.js'))).runFastPath(argv)
    } else {
      const {run: runCommand, flush, settings} = await import('@oclif/core')
      if (options.development) settings.debug = true
      await runCommand(argv, import.meta.url)
      await flush()
    }
  } catch (error) {
    // Loaded only on failure: a warm run never pays for them.
    const [{processPrinter}, {reportError}] = await Promise.all([
      import('../adapters/printer.js'),
      import('./report-error.js'),
    ])
    code = reportError(error, processPrinter(), {debug: Boolean(process.env.CPCRED_DEBUG)})
  }
  process.exit(code)
}
