// Reads the consumer's providers: the provider file a selection names (core/access/provider-selection.ts
// has the rules) and the --access-provider flags.
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import {UsageError} from '../core/errors.js'
import type {Provider} from '../core/access/provider-file.js'
import * as selectionRules from '../core/access/provider-selection.js'
import type {LoadedProviders, ProviderSelection} from '../core/access/provider-selection.js'
import {cpcredCommand} from './self-command.js'

export type {LoadedProviders, ProviderSelection} from '../core/access/provider-selection.js'

export function defaultProviderFile(env = process.env): string {
  return selectionRules.defaultProviderFile(env, os.homedir())
}

/** The provider file a selection reads: --provider-file, else $CPCRED_PROVIDER_FILE, else the default. */
export function providerFilePath(selection: ProviderSelection, env = process.env): string {
  return selectionRules.providerFilePath(selection, env, os.homedir())
}

export async function loadProviders(
  selection: ProviderSelection,
  env = process.env,
): Promise<LoadedProviders> {
  const file = providerFilePath(selection, env)
  let text: string | undefined
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (!selectionRules.mayBeAbsent(selection, env) || code !== 'ENOENT') {
      throw new UsageError(
        `cannot read the provider file ${file}: ${code === 'ENOENT' ? 'no such file' : code}`,
        'pass --provider-file PATH, set CPCRED_PROVIDER_FILE, or create ' + defaultProviderFile(env),
      )
    }
  }
  // `cpcred plugin …` in a provider file runs this cpcred, also where krew put only kubectl-cpcred
  // on PATH; when the first cpcred on PATH is this one, the command stays `cpcred`.
  // Worked out (a PATH search) only for a file that names cpcred, never for other plugins' runs.
  let self: string | undefined
  const selfCommand = () => (self ??= cpcredCommand(undefined, env)[0]!)
  return selectionRules.providersFrom(file, text, selection, process.cwd(), selfCommand)
}

/** For commands that must run a plugin: no providers at all is a usage error with the way out. */
export function requireProviders(loaded: LoadedProviders, env = process.env): Provider[] {
  return selectionRules.requireProviders(loaded, defaultProviderFile(env))
}
