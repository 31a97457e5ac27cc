// Runs one built-in plugin by name (bin/run.js and the oclif classes both come here).
import {CpcredError, isCpcredError, UsageError} from '../../core/errors.js'
import type {PluginIo} from './common.js'
import {BUILTIN_PLUGINS} from './names.js'

/**
 * Runs one built-in plugin. Its errors name it: when kubectl runs it, its stderr is shown above kubectl's
 * own "getting credentials" error, and the plugin name is what tells the user where to look.
 */
export async function runBuiltinPlugin(name: string, argv: string[], io: PluginIo): Promise<void> {
  try {
    if (name === 'secretreader') {
      const {runSecretreader} = await import('./secretreader.js')
      await runSecretreader(argv, io)
    } else if (name === 'token-request') {
      const {runTokenRequest} = await import('./token-request.js')
      await runTokenRequest(argv, io)
    } else {
      throw new UsageError(
        `unknown built-in plugin "${name}"`,
        `built-in plugins: ${BUILTIN_PLUGINS.join(', ')}`,
      )
    }
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
