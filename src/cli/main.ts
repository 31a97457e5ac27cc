// The oclif side of the cpcred binary: every command the router (src/cli/router.ts) does not send to
// a fast-path bundle, and --help.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Interfaces} from '@oclif/core'
import type {CommandBundle} from './command-table.js'
import {runToExit} from './run-to-exit.js'
import {invokedName, wire} from './wiring.js'
import {VERSION_WORDS} from './version.js'

/** What each bundle of dist/fast that runs a command line is built from, for bin/dev.mjs. */
const SOURCE_BUNDLES: Record<CommandBundle, () => Promise<{run(argv: string[]): void}>> = {
  'fast-path': () => import('./fast-path.js'),
  exec: () => import('./exec.js'),
  get: () => import('./get.js'),
  lint: () => import('./lint.js'),
}

export interface RunOptions {
  development?: boolean
}

export async function run(argv: string[], options: RunOptions = {}): Promise<void> {
  // oclif would answer --version with its own one line; `cpcred version` says more.
  if (VERSION_WORDS.includes(argv[0] ?? '')) argv = ['version', ...argv.slice(1)]
  if (options.development) {
    // bin/dev.mjs runs the sources: the fast-path commands come from them too.
    const where = (await import('./router.js')).route(argv)
    if (where !== 'oclif') return (await SOURCE_BUNDLES[where]()).run(argv)
  }
  // oclif's own failures (a word it cannot parse, an unknown command) end through this wiring; a
  // command builds its own (FrontCommand) and ends through it.
  await runToExit(wire(process.env), async () => {
    const {run: runCommand, flush, settings} = await import('@oclif/core')
    if (options.development) settings.debug = true
    await runCommand(argv, await loadOptions())
    await flush()
  })
}

/**
 * Run by kubectl as its plugin (kubectl-cpcred on PATH), help and examples show the command the user
 * types, `kubectl cpcred`: the package's oclif settings are handed over with that name.
 */
async function loadOptions(): Promise<Interfaces.LoadOptions> {
  if (invokedName() !== 'kubectl-cpcred') return import.meta.url
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const pjson = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as Interfaces.PJSON
  return {root, pjson: {...pjson, oclif: {...pjson.oclif, bin: 'kubectl cpcred'}}}
}
