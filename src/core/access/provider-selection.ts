// Where the consumer's providers come from: --provider-file, else $CPCRED_PROVIDER_FILE, else
// $XDG_CONFIG_HOME/cpcred/providers.json; plus repeatable --access-provider flags, which replace a
// file entry of the same name. The rules only: adapters/providers.ts reads the file.
import path from 'node:path'
import {UsageError} from '../errors.js'
import {withResolvedCommands, type SelfCommand} from './plugin-commands.js'
import {mergeProviders, parseAccessProviderFlag, parseProviderFile, type Provider} from './provider-file.js'

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

export function defaultProviderFile(env: NodeJS.ProcessEnv, home: string): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config')
  return path.join(configHome, 'cpcred', 'providers.json')
}

/** The provider file a selection reads: --provider-file, else $CPCRED_PROVIDER_FILE, else the default. */
export function providerFilePath(selection: ProviderSelection, env: NodeJS.ProcessEnv, home: string): string {
  return path.resolve(selection.providerFile || env.CPCRED_PROVIDER_FILE || defaultProviderFile(env, home))
}

/** Only the default location may be absent: a file someone named must exist. */
export function mayBeAbsent(selection: ProviderSelection, env: NodeJS.ProcessEnv): boolean {
  return !(selection.providerFile || env.CPCRED_PROVIDER_FILE)
}

/**
 * The providers from the file's text (undefined when the file does not exist) and the flags; relative
 * commands resolve against the file's directory, and against `cwd` for flags; a command naming
 * cpcred itself (`cpcred`, `kubectl-cpcred`) becomes `self`, the command this cpcred is run by.
 */
export function providersFrom(
  file: string,
  text: string | undefined,
  selection: ProviderSelection,
  cwd: string,
  self?: SelfCommand,
): LoadedProviders {
  const fromFile = text === undefined ? {providers: [], warnings: []} : parseProviderFile(text, file)
  const fromFlags = (selection.accessProviders ?? []).map(parseAccessProviderFlag)
  const providers = mergeProviders(
    withResolvedCommands(fromFile.providers, path.dirname(file), self),
    withResolvedCommands(fromFlags, cwd, self),
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
export function requireProviders(loaded: LoadedProviders, defaultFile: string): Provider[] {
  if (loaded.providers.length === 0) {
    throw new UsageError(
      `no credential providers configured (${loaded.source})`,
      `write a provider file (see docs/providers.md) at ${defaultFile}, or pass --provider-file or --access-provider`,
    )
  }
  return loaded.providers
}
