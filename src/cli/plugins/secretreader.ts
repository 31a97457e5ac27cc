// `cpcred plugin secretreader`: the front end (flags, KUBERNETES_EXEC_INFO, the ExecCredential on
// stdout) of src/usecases/read-secret-token.ts; compatible with the upstream plugin
// (sigs.k8s.io/cluster-inventory-api cmd/secretreader-plugin).
import type {SecretreaderOptions} from '../../core/exec-credential/secretreader.js'
import {secretreaderCommand} from '../../usecases/read-secret-token.js'
import {usageLine, type FlagTable} from '../flag-table.js'
import {answerWith, PLUGIN_HUB_FLAGS, parsePluginArgs, type PluginIo} from './common.js'

export const SECRETREADER_USAGE = usageLine('plugin secretreader', '')

export const SECRETREADER_FLAGS = {
  namespace: {
    kind: 'string',
    char: 'n',
    summary: `Namespace of the Secret (default: the hub context's namespace, else "default").`,
    helpGroup: 'HUB',
  },
  ...PLUGIN_HUB_FLAGS,
} as const satisfies FlagTable

/** What the words of `cpcred plugin secretreader` ask for: the use case's options. */
export type SecretreaderRequest = SecretreaderOptions

/** The words of `cpcred plugin secretreader`, read and checked without the hub. */
export function parseSecretreader(argv: string[], _env: NodeJS.ProcessEnv = {}): SecretreaderRequest {
  const values = parsePluginArgs(argv, SECRETREADER_FLAGS, SECRETREADER_USAGE)
  return {
    kubeconfig: values.kubeconfig,
    context: values.context,
    namespace: values.namespace || undefined,
    verbose: values.verbose,
  }
}

export async function runSecretreader(io: PluginIo, argv: string[]): Promise<void> {
  await answerWith(io, secretreaderCommand, parseSecretreader(argv, io.env))
}
