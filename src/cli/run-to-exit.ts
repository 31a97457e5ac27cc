// How every cpcred process ends: the command's exit code, or its failure shown once on stderr with
// the exit code of its kind (reportError, the one place that maps errors to codes).

// Output goes through src/adapters/output-sink.ts, whose writes are finished when they return, so
// process.exit here loses nothing, however slow the reader.
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
