// `cpcred plugin token-request`: the front end (flags, KUBERNETES_EXEC_INFO, the ExecCredential on
// stdout) of src/usecases/request-token.ts.
import {
  DEFAULT_EXPIRATION_SECONDS,
  MAX_EXPIRATION_SECONDS,
  MIN_EXPIRATION_SECONDS,
  parseExpirationSeconds,
  type TokenRequestOptions,
} from '../../core/exec-credential/token-request.js'
import {tokenRequestCommand} from '../../usecases/request-token.js'
import {usageLine, type FlagTable} from '../flag-table.js'
import {answerWith, PLUGIN_HUB_FLAGS, parsePluginArgs, type PluginIo} from './common.js'

export const TOKEN_REQUEST_USAGE = usageLine('plugin token-request', '')

export const TOKEN_REQUEST_FLAGS = {
  'service-account': {
    kind: 'string',
    summary: 'The ServiceAccount (default: serviceAccount in spec.cluster.config).',
  },
  namespace: {
    kind: 'string',
    char: 'n',
    summary:
      "Namespace of the ServiceAccount (default: namespace in spec.cluster.config, else the hub context's).",
    helpGroup: 'HUB',
  },
  audience: {
    kind: 'string',
    summary: "The token's audience (default: audience in spec.cluster.config, else the target's server URL).",
  },
  'expiration-seconds': {
    kind: 'string',
    summary: `Requested lifetime in seconds, ${MIN_EXPIRATION_SECONDS} to ${MAX_EXPIRATION_SECONDS} (default: expirationSeconds in spec.cluster.config, else ${DEFAULT_EXPIRATION_SECONDS}).`,
  },
  ...PLUGIN_HUB_FLAGS,
} as const satisfies FlagTable

/** What the words of `cpcred plugin token-request` ask for: the use case's options. */
export type TokenRequestRequest = TokenRequestOptions

/** The words of `cpcred plugin token-request`, read and checked without the hub. */
export function parseTokenRequest(argv: string[], _env: NodeJS.ProcessEnv = {}): TokenRequestRequest {
  const values = parsePluginArgs(argv, TOKEN_REQUEST_FLAGS, TOKEN_REQUEST_USAGE)
  const expiration = values['expiration-seconds']
  return {
    kubeconfig: values.kubeconfig,
    context: values.context,
    namespace: values.namespace || undefined,
    serviceAccount: values['service-account'] || undefined,
    audience: values.audience || undefined,
    expirationSeconds:
      expiration === undefined ? undefined : parseExpirationSeconds(expiration, '--expiration-seconds'),
    verbose: values.verbose,
  }
}

export async function runTokenRequest(io: PluginIo, argv: string[]): Promise<void> {
  await answerWith(io, tokenRequestCommand, parseTokenRequest(argv, io.env))
}
