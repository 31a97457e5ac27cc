// What a failed call to a Kubernetes API server means, in words, and what to do about it: TLS
// verification failures, connections that fail, 401 and 403, an API the server does not serve. One
// module for the ordinary error path (src/adapters/kube-errors.ts turns the REST client's errors into
// these) and for `cpcred doctor`, which words the same failures with more detail. The error keeps the
// failure as data (its HTTP status, its connection code), so no caller reads a status out of a message.
import {GROUP, PLURAL} from './profiles/cluster-profile.js'
import {CpcredError, ExitCode, isCpcredError} from './errors.js'
import type {PodServiceAccount} from './kubeconfig/in-cluster.js'

/** A failed call, as the REST client saw it. */
export type KubeFailure =
  | {
      kind: 'http'
      status: number
      /** The message of the Kubernetes Status the server answered with. */
      message?: string
      /** details.name of that Status: set when the object asked for does not exist (a 404 on a name). */
      name?: string
    }
  | {
      kind: 'connection'
      code?: string
      reason: string
      /** Set when the request's own deadline passed (--request-timeout): that deadline, in ms. */
      deadlineMs?: number
    }

/** A CpcredError that says which failure it explains. */
export class ApiFailure extends CpcredError {
  constructor(
    message: string,
    readonly failure: KubeFailure,
    options: {exitCode?: number; hint?: string; cause?: unknown},
  ) {
    super(message, options)
    this.name = 'ApiFailure'
  }
}

/** The failure behind an error, looking through causes (a plugin names its errors by wrapping them). */
export function failureOf(error: unknown): KubeFailure | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof ApiFailure) return current.failure
    current = (current as {cause?: unknown}).cause
  }
  return undefined
}

/** The HTTP status a server answered a failed call with; undefined when it did not answer. */
export function httpStatusOf(error: unknown): number | undefined {
  const failure = failureOf(error)
  return failure?.kind === 'http' ? failure.status : undefined
}

// ---------------------------------------------------------------------------------------------
// Connections and TLS

const TLS_FAILURE_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in an untrusted CA',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate is not signed by a trusted CA',
  UNABLE_TO_GET_ISSUER_CERT: 'its certificate is not signed by a trusted CA',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is not valid for that host name',
}

/** Why TLS verification failed, in words, for a code Node reports (undefined for others). */
export function tlsFailureReason(code: string): string | undefined {
  return Object.hasOwn(TLS_FAILURE_REASONS, code) ? TLS_FAILURE_REASONS[code] : undefined
}

/** What kind of TLS verification failure a code is: each has its own remedy. */
export type TlsFailureKind = 'host-name' | 'expired' | 'not-yet-valid' | 'untrusted'

export function tlsFailureKind(code: string | undefined): TlsFailureKind | undefined {
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'host-name'
    case 'CERT_HAS_EXPIRED':
      return 'expired'
    case 'CERT_NOT_YET_VALID':
      return 'not-yet-valid'
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return 'untrusted'
    default:
      return undefined
  }
}

export const CHECK_CLOCK = "check this machine's clock (date -u)"

/** What to do about a TLS verification failure when nothing more than its kind is known. */
export function tlsFailureHint(kind: TlsFailureKind): string {
  switch (kind) {
    case 'host-name':
      return "use a server URL the server's certificate names, or set tls-server-name; 'cpcred doctor' shows the names it has"
    case 'expired':
      return `the server's certificate must be renewed; if the date looks wrong, ${CHECK_CLOCK}`
    case 'not-yet-valid':
      return `${CHECK_CLOCK}; it may be behind`
    case 'untrusted':
      return "the server's certificate is not signed by the CA this connection trusts: check certificate-authority-data; 'cpcred doctor' shows the certificate the server presents"
  }
}

const CONNECTION_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPROTO: 'TLS handshake failed (is it an https server?)',
}

/** Why a connection failed, in words, from Node's error code (else the error's own message). */
export function connectionReason(code: string | undefined, message: string): string {
  const tls = code === undefined ? undefined : tlsFailureReason(code)
  if (tls) return `TLS verification failed: ${tls}`
  return (
    (code !== undefined && Object.hasOwn(CONNECTION_REASONS, code) && CONNECTION_REASONS[code]) || message
  )
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

/** Whether a connection failure's errno code says the server is down or out of reach. */
export function isOutageCode(code: string | undefined): boolean {
  return code !== undefined && OUTAGE_CODES.has(code)
}

// ---------------------------------------------------------------------------------------------
// APIs not served

/** The one remedy for a hub without the ClusterProfile API. */
export const INSTALL_CRD_HINT =
  'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or choose the hub cluster: cpcred hub use CONTEXT (or --context)'

/** What a 404 on the ClusterProfile collection means. */
export const PROFILE_API_NOT_SERVED = {what: `${GROUP} ${PLURAL}`, hint: INSTALL_CRD_HINT}

// ---------------------------------------------------------------------------------------------
// 401 and 403

/** What to do when the hub answers 401, by how the kubeconfig user authenticates. */
export function hubRejectedHint(userKind: string): string {
  if (userKind.startsWith('exec plugin'))
    return `log in again with the ${userKind} of the hub kubeconfig user`
  if (userKind.includes('client certificate')) {
    return "the hub does not accept this client certificate (expired, revoked, or from another CA): get a new one from the hub's administrator"
  }
  if (userKind.includes('token'))
    return 'the token of the hub kubeconfig user is not valid on the hub (any more): get a new one'
  return 'log in to the hub again, or check the user entry of the hub kubeconfig'
}

/** A 401 from the hub to a pod's in-cluster config: nobody can log in again; the token is the pod's. */
export const POD_TOKEN_REJECTED_HINT =
  "the pod's ServiceAccount token was not accepted: check that its ServiceAccount still exists, that the token is the one the kubelet mounted (it rotates a projected token; a token copied into a Secret or an env variable expires), and that the hub's service-account issuer did not change"

/** The hub is the pod's in-cluster config: who its token names, when it names someone. */
export interface PodHubIdentity {
  serviceAccount?: PodServiceAccount
}

/**
 * What to grant on the hub, and to whom, after a 403. In a pod the hub identity is the pod's
 * ServiceAccount, and another one comes from serviceAccountName, not from a kubeconfig context.
 */
export function hubRbacHint(grant: string, pod: PodHubIdentity | undefined, scope = ''): string {
  if (!pod) {
    return `the hub identity needs ${grant} (a Role and RoleBinding)${scope}. Or select another hub identity with KUBECONFIG/--context`
  }
  const account = pod.serviceAccount
    ? `ServiceAccount ${pod.serviceAccount.namespace}/${pod.serviceAccount.name}`
    : 'ServiceAccount'
  return (
    `the pod's ${account} (the hub identity in a pod) needs ${grant} (a Role and RoleBinding to it)${scope}. ` +
    'Or run the pod with a serviceAccountName that has it'
  )
}

// ---------------------------------------------------------------------------------------------
// One failure, explained

export interface ExplainOptions {
  user?: string
  /** What a 404 on a collection means: the API is not served there. */
  notServed?: {what: string; hint: string}
  forbiddenHint?: string
  unreachableHint?: string
  /** What to do about a 401, where "log in again" is not the way (a pod's ServiceAccount token). */
  rejectedHint?: string
}

/**
 * A failed call to `where` (e.g. `the hub (context "x", https://…)`) while trying to `action`, as a
 * one-line error with the exit code of its class: 4 for 401/403, 3 for an unreachable server or an
 * API it does not serve, 1 otherwise.
 */
export function explainFailure(
  failure: KubeFailure,
  action: string,
  where: string,
  options: ExplainOptions = {},
  cause?: unknown,
): ApiFailure {
  const make = (message: string, exitCode: number, hint?: string) =>
    new ApiFailure(message, failure, {exitCode, hint, cause})
  if (failure.kind === 'connection') {
    const tls = tlsFailureKind(failure.code)
    const unreachable =
      options.unreachableHint ??
      'check that the cluster is running and that the kubeconfig and context select it'
    // The deadline is the hub's --request-timeout (targets are given none): say which flag it was.
    if (failure.deadlineMs !== undefined) {
      return make(
        `cannot reach ${where}: ${failure.reason} (--request-timeout)`,
        ExitCode.Unreachable,
        `${unreachable}; a hub that is only slow can be given longer with --request-timeout (0: no limit)`,
      )
    }
    return make(
      `cannot reach ${where}: ${failure.reason}`,
      ExitCode.Unreachable,
      tls ? tlsFailureHint(tls) : unreachable,
    )
  }
  const {status, message} = failure
  if (status === 401) {
    return make(
      `${where} rejected the credentials${options.user ? ` of user "${options.user}"` : ''} (401 Unauthorized)`,
      ExitCode.Denied,
      options.rejectedHint ?? 'log in again, or check the credentials this command uses',
    )
  }
  if (status === 403) {
    // The server says "<resource> is forbidden: User "x" cannot list resource ..."; keep the reason.
    const reason = message?.replace(/^.*? is forbidden: /, '') ?? 'forbidden'
    return make(`cannot ${action} on ${where}: ${reason}`, ExitCode.Denied, options.forbiddenHint)
  }
  if (status === 404 && options.notServed && !failure.name) {
    return make(
      `${where} does not serve ${options.notServed.what}`,
      ExitCode.Unreachable,
      options.notServed.hint,
    )
  }
  return make(
    `cannot ${action} on ${where}: HTTP ${status}${message ? `: ${message}` : ''}`,
    ExitCode.Failure,
  )
}

/** An error that is not a failed call (a bug, a file), said as a failure of `action`. */
export function explainOther(error: unknown, action: string, where: string): CpcredError {
  if (isCpcredError(error)) return error
  return new CpcredError(`cannot ${action} on ${where}: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  })
}
