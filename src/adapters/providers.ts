// Where the consumer's providers come from: --provider-file, else $CPCRED_PROVIDER_FILE, else
// $XDG_CONFIG_HOME/cpcred/providers.json; plus repeatable --access-provider flags.
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {UsageError} from '../core/errors.js'
import {
  mergeProviders,
  parseAccessProviderFlag,
  parseProviderFile,
  type Provider,
} from '../core/access/provider-file.js'
import {withResolvedCommands} from '../core/access/plugin-commands.js'

export interface ProviderSelection {
  providerFile?: string
  accessProviders?: string[]
}

export interface LoadedProviders {
  providers: Provider[]
  /** The absolute path of the provider file read, if any. */
  file?: string
  /** Says where the providers came from, for messages. */
  source: string
  warnings: string[]
}

export function defaultProviderFile(env = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config')
  return path.join(configHome, 'cpcred', 'providers.json')
}

/** The provider file a selection reads: --provider-file, else $CPCRED_PROVIDER_FILE, else the default. */
export function providerFilePath(selection: ProviderSelection, env = process.env): string {
  return path.resolve(selection.providerFile || env.CPCRED_PROVIDER_FILE || defaultProviderFile(env))
}

export async function loadProviders(
  selection: ProviderSelection,
  env = process.env,
): Promise<LoadedProviders> {
  const explicit = selection.providerFile || env.CPCRED_PROVIDER_FILE
  const file = providerFilePath(selection, env)
  let text: string | undefined
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Only the default location may be absent: a file someone named must exist.
    if (explicit || code !== 'ENOENT') {
      throw new UsageError(
        `cannot read the provider file ${file}: ${code === 'ENOENT' ? 'no such file' : code}`,
        'pass --provider-file PATH, set CPCRED_PROVIDER_FILE, or create ' + defaultProviderFile(env),
      )
    }
  }
  const fromFile = text === undefined ? {providers: [], warnings: []} : parseProviderFile(text, file)
  const fromFlags = (selection.accessProviders ?? []).map(parseAccessProviderFlag)
  const providers = mergeProviders(
    withResolvedCommands(fromFile.providers, path.dirname(file)),
    withResolvedCommands(fromFlags, process.cwd()),
  )
  const parts = [
    text === undefined ? undefined : file,
    fromFlags.length ? '--access-provider flags' : undefined,
  ].filter(Boolean)
  return {
    providers,
    file: text === undefined ? undefined : file,
    source: parts.length ? parts.join(' and ') : `no provider file (${file} does not exist)`,
    warnings: fromFile.warnings,
  }
}

/** For commands that must run a plugin: no providers at all is a usage error with the way out. */
export function requireProviders(loaded: LoadedProviders, env = process.env): Provider[] {
  if (loaded.providers.length === 0) {
    throw new UsageError(
      `no credential providers configured (${loaded.source})`,
      `write a provider file (see docs/providers.md) at ${defaultProviderFile(env)}, or pass --provider-file or --access-provider`,
    )
  }
  return loaded.providers
}
