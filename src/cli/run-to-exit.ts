// How every cpcred process ends: the command's exit code, or its failure shown once on stderr with
// the exit code of its kind (reportError, the one place that maps errors to codes).

// The printer writes to the file descriptors and takes a closed pipe (`cpcred exec … | head`) as the
// end of the output, not an error; process.stdout is never created on the way (src/adapters/printer.ts).
export async function runToExit(command: () => Promise<number | void>): Promise<never> {
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
