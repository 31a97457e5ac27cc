// `cpcred plugin token-request`'s rules: workload identity for any conformant target. The hub issues
// a token of a hub ServiceAccount through its TokenRequest API with the target's server URL as the
// audience; the target trusts the hub's service-account issuer through its
// AuthenticationConfiguration. What to ask for comes from the arguments (the consumer's provider
// file) and spec.cluster.config (the profile), each value keeping where it came from.
import {CpcredError, UsageError} from '../errors.js'
import {hubRbacHint, type PodHubIdentity} from '../failures.js'
import {EXEC_INFO_ENV, parseRfc3339, type Credential} from './protocol.js'
import type {PodServiceAccount} from '../kubeconfig/in-cluster.js'
import {
  configString,
  execClusterConfig,
  isNamespaceName,
  isObjectName,
  quoted,
  type ExecInfo,
  type HubArgs,
} from './exec-info.js'

export {
  DEFAULT_EXPIRATION_SECONDS,
  MAX_EXPIRATION_SECONDS,
  MIN_EXPIRATION_SECONDS,
  parseExpirationSeconds,
} from './token-lifetime.js'
import {DEFAULT_EXPIRATION_SECONDS, parseExpirationSeconds} from './token-lifetime.js'

/** Keys of spec.cluster.config (the cluster's client.authentication.k8s.io/exec extension) it reads. */
export const CONFIG_KEYS = {
  serviceAccount: 'serviceAccount',
  namespace: 'namespace',
  audience: 'audience',
  expirationSeconds: 'expirationSeconds',
} as const

export interface TokenRequestOptions extends HubArgs {
  serviceAccount?: string
  audience?: string
  expirationSeconds?: number
  verbose: boolean
}

export type Origin = 'argument' | 'config' | 'server'

/** What to ask the hub for; every field says where it came from, so messages can too. */
export interface TokenRequestPlan {
  serviceAccount: string
  /** undefined: the hub context's namespace (else "default"). */
  namespace?: string
  audience: string
  audienceOrigin: Origin
  expirationSeconds: number
  /** The ServiceAccount is the pod's own (nothing named one). */
  podOwn?: boolean
}

/**
 * Arguments (the consumer's provider file) win over spec.cluster.config (the profile). The ServiceAccount
 * is one unit: a config namespace applies only to a config serviceAccount, so a profile cannot move the
 * consumer's --service-account into another namespace. The audience defaults to the target's server URL,
 * exactly as written, since the target compares it byte for byte with its AuthenticationConfiguration.
 * In a pod whose hub is the in-cluster config, nothing named means the pod's own ServiceAccount.
 */
export function planTokenRequest(
  options: TokenRequestOptions,
  info: ExecInfo | undefined,
  pod?: PodServiceAccount,
): TokenRequestPlan {
  const config = execClusterConfig(info)
  const fromArgs = options.serviceAccount !== undefined
  const named = options.serviceAccount ?? configString(config, CONFIG_KEYS.serviceAccount)
  // In a pod, the pod's own ServiceAccount (in its own namespace) when nothing names one.
  if (named === undefined && pod !== undefined) {
    return {
      ...planTokenRequest({...options, serviceAccount: pod.name, namespace: pod.namespace}, info),
      podOwn: true,
    }
  }
  const serviceAccount = named
  if (serviceAccount === undefined) {
    throw new UsageError(
      'no ServiceAccount to request a token for',
      `pass --service-account NAME (and -n NAMESPACE) in the provider's args, or set ${CONFIG_KEYS.serviceAccount} ` +
        `(and ${CONFIG_KEYS.namespace}) in the cluster's client.authentication.k8s.io/exec extension` +
        (info?.cluster ? '' : ' with provideClusterInfo: true'),
    )
  }
  if (!isObjectName(serviceAccount)) {
    throw new UsageError(`ServiceAccount name ${quoted(serviceAccount)} is not a valid name`)
  }
  const namespace = options.namespace ?? (fromArgs ? undefined : configString(config, CONFIG_KEYS.namespace))
  if (namespace !== undefined && !isNamespaceName(namespace)) {
    throw new UsageError(`namespace ${quoted(namespace)} is not a valid namespace name`)
  }

  const configAudience = configString(config, CONFIG_KEYS.audience)
  const [audience, audienceOrigin]: [string | undefined, Origin] =
    options.audience !== undefined
      ? [options.audience, 'argument']
      : configAudience !== undefined
        ? [configAudience, 'config']
        : [info?.cluster?.server, 'server']
  if (audience === undefined) {
    throw new UsageError(
      `no audience for the token: ${info === undefined ? `${EXEC_INFO_ENV} is not set` : `${EXEC_INFO_ENV} has no cluster information`}, and neither --audience nor an ${CONFIG_KEYS.audience} setting was given`,
      'set provideClusterInfo: true in the execConfig so the target server URL is the audience, or pass --audience',
    )
  }

  const configExpiration = config?.[CONFIG_KEYS.expirationSeconds]
  const expirationSeconds =
    options.expirationSeconds ??
    (configExpiration === undefined || configExpiration === null
      ? DEFAULT_EXPIRATION_SECONDS
      : parseExpirationSeconds(configExpiration, `spec.cluster.config.${CONFIG_KEYS.expirationSeconds}`))
  return {serviceAccount, namespace, audience, audienceOrigin, expirationSeconds}
}

/** The TokenRequest's spec. */
export function tokenRequestSpec(plan: TokenRequestPlan): {audiences: string[]; expirationSeconds: number} {
  return {audiences: [plan.audience], expirationSeconds: plan.expirationSeconds}
}

interface TokenRequestAnswer {
  status?: {token?: unknown; expirationTimestamp?: unknown}
}

/** The token and the expiry the hub gave it (which may be shorter than asked for: the hub caps it). */
export function credentialFromTokenRequest(answer: TokenRequestAnswer, serviceAccount: string): Credential {
  const token = answer.status?.token
  const expirationTimestamp = answer.status?.expirationTimestamp
  if (typeof token !== 'string' || token === '') {
    throw new CpcredError(`the hub answered the TokenRequest for ${serviceAccount} without a token`)
  }
  const expiresAt = typeof expirationTimestamp === 'string' ? parseRfc3339(expirationTimestamp) : undefined
  if (expiresAt === undefined) {
    // Without it the token would be cached as if it never expired.
    throw new CpcredError(
      `the hub answered the TokenRequest for ${serviceAccount} without a valid expirationTimestamp`,
    )
  }
  return {token, expirationTimestamp: expirationTimestamp as string, expiresAt}
}

export function tokenForbiddenHint(
  namespace: string,
  serviceAccount: string,
  pod: PodHubIdentity | undefined,
): string {
  return hubRbacHint(
    `RBAC verb "create" on serviceaccounts/token with resourceNames ["${serviceAccount}"] in namespace "${namespace}"`,
    pod,
  )
}

export const ORIGIN_TEXT: Record<Origin, string> = {
  argument: '--audience',
  config: 'the exec extension',
  server: "the target's server URL",
}

/** What to do when there is no such ServiceAccount. */
export const MISSING_SERVICE_ACCOUNT_HINT =
  `create it on the hub, or fix --service-account/-n (or ${CONFIG_KEYS.serviceAccount}/${CONFIG_KEYS.namespace} ` +
  "in the exec extension); without a namespace the hub context's is used"
