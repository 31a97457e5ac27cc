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
