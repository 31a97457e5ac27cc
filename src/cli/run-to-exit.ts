// How every cpcred process ends: the command's exit code, or its failure shown once on stderr with
// the exit code of its kind (reportError, the one place that maps errors to codes).

// Output goes through src/adapters/output-sink.ts, whose writes are finished when they return, so
// process.exit here loses nothing, however slow the reader.
export async function runToExit(command: () => Promise<number | void>): Promise<never> {
  let code: number
  try {
    code = (await command()) ?? 0
  } catch (error) {
    const reraise = (error as {reraise?: NodeJS.Signals} | undefined)?.reraise
    if (reraise) {
      // Everything is cleaned up: die of the signal, with Node's default action for it.
      process.removeAllListeners(reraise)
      process.kill(process.pid, reraise)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    // Loaded only on failure: a warm run never pays for them.
    const [{processPrinter}, {reportError}] = await Promise.all([
      import('../adapters/printer.js'),
      import('./report-error.js'),
    ])
    code = reportError(error, processPrinter(), {debug: Boolean(process.env.CPCRED_DEBUG)})
  }
  process.exit(code)
}
