// Entry point of the cpcred binary: runs the command and turns every failure into one message on
// stderr and the exit code of its kind (the one place that maps errors to codes).
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import type {runFastPath} from './fast-path.js'
import {reportError} from './report-error.js'

export interface RunOptions {
  development?: boolean
}

/** Whether argv names a command kubectl runs as an exec plugin (help still goes through oclif). */
function isFastPath(argv: string[]): boolean {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return false
  return (
    argv[0] === 'credential' ||
    (argv[0] === 'plugin' && ['secretreader', 'token-request'].includes(argv[1] ?? ''))
  )
}

/** The bundled fast path when the build made one, else the modules themselves (development). */
async function loadFastPath(): Promise<{runFastPath: typeof runFastPath}> {
  const bundle = new URL('../fast/fast-path.js', import.meta.url)
  return existsSync(fileURLToPath(bundle)) ? import(bundle.href) : import('./fast-path.js')
}

export async function run(argv: string[], options: RunOptions = {}): Promise<void> {
  // `cpcred list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
  })
  let code = 0
  try {
    if (isFastPath(argv)) {
      await (await loadFastPath()).runFastPath(argv)
    } else {
      const {run: runCommand, flush, settings} = await import('@oclif/core')
      if (options.development) settings.debug = true
      await runCommand(argv, import.meta.url)
      await flush()
    }
  } catch (error) {
    code = reportError(error, process.stderr, {debug: Boolean(process.env.CPCRED_DEBUG)})
  }
  process.exit(code)
}
