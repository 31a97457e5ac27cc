// How every cpcred process ends: the command's exit code, or its failure shown once on stderr with
// the exit code of its kind (reportError, the one place that maps errors to codes).

export async function runToExit(command: () => Promise<number | void>): Promise<never> {
  // `cpcred list | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
  })
  let code: number
  try {
    code = (await command()) ?? 0
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
