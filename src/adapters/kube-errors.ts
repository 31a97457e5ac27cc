// The REST client's errors (src/adapters/kube-client.ts) as the failures src/core/failures.ts
// explains, for the hub and for targets alike (whoami, the built-in plugins), without loading the hub
// adapter. The error keeps the failure as data (ApiFailure.failure) and the original as its cause:
// CPCRED_DEBUG shows it.
import type {CpcredError} from '../core/errors.js'
import {
  explainFailure,
  explainOther,
  isOutageCode,
  type ExplainOptions,
  type KubeFailure,
} from '../core/failures.js'
import {KubeApiError, KubeConnectionError} from './kube-client.js'

export type TranslateOptions = ExplainOptions

/** The failure a REST client error stands for; undefined for anything else. */
export function kubeFailure(error: unknown): KubeFailure | undefined {
  if (error instanceof KubeApiError) {
    const failure: KubeFailure = {kind: 'http', status: error.status}
    if (error.statusObject?.message) failure.message = error.statusObject.message
    if (error.statusObject?.details?.name) failure.name = error.statusObject.details.name
    return failure
  }
  if (error instanceof KubeConnectionError) {
    return {
      kind: 'connection',
      ...(error.code === undefined ? {} : {code: error.code}),
      reason: error.reason,
      ...(error.deadlineMs === undefined ? {} : {deadlineMs: error.deadlineMs}),
    }
  }
  return undefined
}

export function translateKubeError(
  error: unknown,
  action: string,
  where: string,
  options: TranslateOptions = {},
): CpcredError {
  const failure = kubeFailure(error)
  return failure ? explainFailure(failure, action, where, options, error) : explainOther(error, action, where)
}

/**
 * Whether a failure to talk to a cluster is an outage: refused, reset or timed-out connections, an
 * unreachable network, or a 5xx answer. Never a 401 or 403 (the server answered: the credential or
 * its rights are wrong), never a TLS verification failure (the server may not be the one it was), and
 * never a 4xx. Looks through CpcredError causes, since the hub adapter wraps what the client threw.
 */
export function isOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (current instanceof KubeConnectionError) return isOutageCode(current.code)
    if (current instanceof KubeApiError) return current.status >= 500 && current.status <= 599
    current = (current as {cause?: unknown} | null)?.cause
  }
  return false
}
