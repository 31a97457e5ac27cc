// Entry point of the cpcred binary: runs the command and turns every failure into one message on
// stderr and the exit code of its kind (the one place that maps errors to codes).
import {reportError} from './report-error.js'

export interface RunOptions {
  development?: boolean
}

/** `credential` is run by kubectl on every request: it skips oclif unless help is asked for. */
function isCredentialFastPath(argv: string[]): boolean {
  return argv[0] === 'credential' && !argv.some((arg) => arg === '--help' || arg === '-h')
}

/** The built-in plugins are exec plugins too, run on every request: the same fast path. */
function isBuiltinPluginFastPath(argv: string[]): boolean {
  return (
    argv[0] === 'plugin' &&
    (argv[1] === 'secretreader' || argv[1] === 'token-request') &&
    !argv.some((arg) => arg === '--help' || arg === '-h')
  )
}

export async function run(argv: string[], options: RunOptions = {}): Promise<void> {
  // `cpcred list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
  })
  let code = 0
  try {
    if (isCredentialFastPath(argv)) {
      const {runCredential} = await import('./credential.js')
      await runCredential(argv.slice(1))
    } else if (isBuiltinPluginFastPath(argv)) {
      const {runBuiltinPlugin} = await import('../plugins/common.js')
      await runBuiltinPlugin(argv[1]!, argv.slice(2))
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
