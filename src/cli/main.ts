// The oclif side of the cpcred binary: every command that does not run on the fast path
// (bin/run.js sends credential, exec, the built-in plugins and completion to dist/fast), and --help.
import {runToExit} from './run-to-exit.js'

export interface RunOptions {
  development?: boolean
}

export async function run(argv: string[], options: RunOptions = {}): Promise<void> {
  if (options.development) {
    // bin/dev.mjs runs the sources: the fast-path commands come from them too.
    for (const entry of [await import('./fast-path.js'), await import('./exec.js')])
      if (entry.main(argv)) return
  }
  await runToExit(async () => {
    const {run: runCommand, flush, settings} = await import('@oclif/core')
    if (options.development) settings.debug = true
    await runCommand(argv, import.meta.url)
    await flush()
  })
}
