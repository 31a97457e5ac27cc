// One place that maps Kubernetes API failures to messages and exit codes, for the hub and for
// targets alike (whoami, the built-in plugins), without loading the hub adapter. The original error
// stays as the cause: CPCRED_DEBUG shows it, and the doctor reads its HTTP status.
import {CpcredError, ExitCode, isCpcredError} from '../core/errors.js'
import {KubeApiError, KubeConnectionError, type Status} from './kube-client.js'

export interface TranslateOptions {
  user?: string
  /** What a 404 on a collection means: the API is not served there. */
  notServed?: {what: string; hint: string}
  forbiddenHint?: string
  unreachableHint?: string
}

export function translateKubeError(
  error: unknown,
  action: string,
  where: string,
  options: TranslateOptions = {},
): CpcredError {
  if (isCpcredError(error)) return error
  if (error instanceof KubeApiError) {
    const status: Status | undefined = error.statusObject
    if (error.status === 401) {
      return new CpcredError(
        `${where} rejected the credentials${options.user ? ` of user "${options.user}"` : ''} (401 Unauthorized)`,
        {
          exitCode: ExitCode.Denied,
          hint: 'log in again, or check the credentials this command uses',
          cause: error,
        },
      )
    }
    if (error.status === 403) {
      // The server says "<resource> is forbidden: User "x" cannot list resource ..."; keep the reason.
      const reason = status?.message?.replace(/^.*? is forbidden: /, '') ?? 'forbidden'
      return new CpcredError(`cannot ${action} on ${where}: ${reason}`, {
        exitCode: ExitCode.Denied,
        hint: options.forbiddenHint,
        cause: error,
      })
    }
    if (error.status === 404 && options.notServed && !status?.details?.name) {
      return new CpcredError(`${where} does not serve ${options.notServed.what}`, {
        exitCode: ExitCode.Unreachable,
        hint: options.notServed.hint,
        cause: error,
      })
    }
    return new CpcredError(
      `cannot ${action} on ${where}: HTTP ${error.status}${status?.message ? `: ${status.message}` : ''}`,
      {cause: error},
    )
  }
  if (error instanceof KubeConnectionError) {
    return new CpcredError(`cannot reach ${where}: ${error.reason}`, {
      exitCode: ExitCode.Unreachable,
      hint:
        options.unreachableHint ??
        'check that the cluster is running and that the kubeconfig and context select it',
      cause: error,
    })
  }
  return new CpcredError(`cannot ${action} on ${where}: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  })
}

/** Connection failures that say the server is down or out of reach, not that it is someone else. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EPIPE',
  'EAI_AGAIN',
])

/**
 * Whether a failure to talk to a cluster is an outage: refused, reset or timed-out connections, an
 * unreachable network, or a 5xx answer. Never a 401 or 403 (the server answered: the credential or
 * its rights are wrong), never a TLS verification failure (the server may not be the one it was), and
 * never a 4xx. Looks through CpcredError causes, since the hub adapter wraps what the client threw.
 */
export function isOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (current instanceof KubeConnectionError)
      return current.code !== undefined && OUTAGE_CODES.has(current.code)
    if (current instanceof KubeApiError) return current.status >= 500 && current.status <= 599
    current = (current as {cause?: unknown} | null)?.cause
  }
  return false
}

/** Whether a connection failure's errno code says the server is down or out of reach. */
export function isOutageCode(code: string | undefined): boolean {
  return code !== undefined && OUTAGE_CODES.has(code)
}
