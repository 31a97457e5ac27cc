// Runs one built-in plugin by name (the fast path and the oclif classes both come here), and the one
// table of the built-in plugins' fronts.
import {CpcredError, isCpcredError, UsageError} from '../../core/errors.js'
import type {PluginIo} from './common.js'
import {BUILTIN_PLUGINS, isBuiltinPlugin, type BuiltinPlugin} from './names.js'

/** A plugin's front: its words after `cpcred plugin NAME`, in the run's wiring. */
type PluginFront = (io: PluginIo, argv: string[]) => Promise<void>

/** Each built-in plugin's front, loaded only when it runs; names.ts names them for the router. */
const PLUGIN_FRONTS: Record<BuiltinPlugin, () => Promise<PluginFront>> = {
  secretreader: async () => (await import('./secretreader.js')).runSecretreader,
  'token-request': async () => (await import('./token-request.js')).runTokenRequest,
}

/** What the words of `cpcred plugin NAME …` ask for: which plugin, and the words that are its own. */
export interface BuiltinPluginRequest {
  name: BuiltinPlugin
  argv: string[]
}

/** Which built-in plugin the words name; each plugin reads its own words (parseSecretreader…). */
export function parseBuiltinPlugin(
  [name = '', ...argv]: string[],
  _env: NodeJS.ProcessEnv = {},
): BuiltinPluginRequest {
  if (!isBuiltinPlugin(name)) {
    throw new UsageError(
      `unknown built-in plugin "${name}"`,
      `built-in plugins: ${BUILTIN_PLUGINS.join(', ')}`,
    )
  }
  return {name, argv}
}

/**
 * Runs one built-in plugin. Its errors name it: when kubectl runs it, its stderr is shown above kubectl's
 * own "getting credentials" error, and the plugin name is what tells the user where to look.
 */
export async function runBuiltinPlugin(io: PluginIo, words: string[]): Promise<void> {
  const {name, argv} = parseBuiltinPlugin(words, io.env)
  try {
    await (
      await PLUGIN_FRONTS[name]()
    )(io, argv)
  } catch (error) {
    if (isCpcredError(error)) {
      const named = new CpcredError(`${name}: ${error.message}`, {
        exitCode: error.exitCode,
        hint: error.hint,
        cause: error.cause ?? error,
      })
      named.name = error.name
      throw named
    }
    throw error
  }
}
