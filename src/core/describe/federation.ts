// What describe says about a provider's serviceAccountToken block: whose token its plugin is handed,
// for which audience and in which variable, and whether the hub identity may create it (a
// SelfSubjectAccessReview the caller made). Never a token: none is minted to describe.
import type {ServiceAccountTokenBlock} from '../access/service-account-token.js'

/** Who the token would name and whether the hub says the caller may create it. */
export interface TokenAccess {
  /** `namespace/name`; undefined when the block names none and cpcred is not in a pod. */
  serviceAccount?: string
  podOwn: boolean
  /** undefined when it was not (or could not be) asked. */
  allowed?: boolean
  reason?: string
}

export interface FederationDescription {
  serviceAccount: string | null
  podOwn: boolean
  audience: string
  fileEnv: string
  expirationSeconds: number
  /** May the hub identity create serviceaccounts/token for it; null when not known. */
  mayCreateToken: boolean | null
  reason?: string
}

export function describeFederationBlock(
  block: ServiceAccountTokenBlock,
  access: TokenAccess | undefined,
): FederationDescription {
  const named = block.serviceAccount && `${block.serviceAccount.namespace}/${block.serviceAccount.name}`
  return {
    serviceAccount: access?.serviceAccount ?? named ?? null,
    podOwn: access?.podOwn ?? false,
    audience: block.audience,
    fileEnv: block.fileEnv,
    expirationSeconds: block.expirationSeconds,
    mayCreateToken: access?.allowed ?? null,
    ...(access?.reason ? {reason: access.reason} : {}),
  }
}

/** The lines describe prints under Resolution. */
export function federationFields(federation: FederationDescription): Array<[string, string]> {
  const account =
    federation.serviceAccount === null
      ? '<none: name serviceAccount outside a pod>'
      : `${federation.serviceAccount}${federation.podOwn ? " (the pod's own)" : ''}`
  const may =
    federation.mayCreateToken === null
      ? 'unknown'
      : federation.mayCreateToken
        ? 'yes'
        : `no${federation.reason ? ` (${federation.reason})` : ''}: needs "create" on serviceaccounts/token`
  return [
    ['Federates As', `ServiceAccount ${account}`],
    ['Token Audience', federation.audience],
    [
      'Token File In',
      `$${federation.fileEnv} (${federation.expirationSeconds}s, private, removed after the run)`,
    ],
    ['May Create Token', may],
  ]
}
