// A provider's `serviceAccountToken` block (cpcred's, beside the upstream fields of the provider
// file, which the upstream Go library skips as an unknown field): before the plugin runs, cpcred asks
// the hub's TokenRequest API for a token of a hub ServiceAccount with this audience, writes it to a
// private file and names the file in the variable `fileEnv`, as a cloud CLI expects a projected
// web-identity token (AWS_WEB_IDENTITY_TOKEN_FILE, AZURE_FEDERATED_TOKEN_FILE, credential_source.file).
import {UsageError} from '../errors.js'
import {isDnsLabel as isNamespaceName, isDnsSubdomain as isObjectName} from '../profiles/names.js'
import {EXEC_INFO_ENV} from '../exec-credential/protocol.js'
import {isGuardedEnvName} from './guarded-env.js'
import {DEFAULT_EXPIRATION_SECONDS, parseExpirationSeconds} from '../exec-credential/token-lifetime.js'

/** A ServiceAccount on the hub (the shape of core/kubeconfig/in-cluster.ts's PodServiceAccount). */
export interface ServiceAccountName {
  namespace: string
  name: string
}

const quoted = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)

export const SERVICE_ACCOUNT_TOKEN_FIELD = 'serviceAccountToken'

export interface ServiceAccountTokenBlock {
  /** The token's audience: what the cloud's trust names (sts.amazonaws.com, api://AzureADTokenExchange…). */
  audience: string
  /** The variable that gets the token file's path. */
  fileEnv: string
  /** `namespace/name` on the hub; absent: the pod's own ServiceAccount (in a pod only). */
  serviceAccount?: ServiceAccountName
  expirationSeconds: number
}

const FIELDS = new Set(['audience', 'fileEnv', 'serviceAccount', 'expirationSeconds'])
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export const SERVICE_ACCOUNT_TOKEN_HINT =
  `"${SERVICE_ACCOUNT_TOKEN_FIELD}": {"audience": "sts.amazonaws.com", "fileEnv": "AWS_WEB_IDENTITY_TOKEN_FILE", ` +
  `"serviceAccount": "namespace/name", "expirationSeconds": 3600} (docs/providers.md)`

/**
 * The block as the provider file has it; `at` says where (`file: providers[0] ("aws")`), and
 * `providerEnv` names the variables the provider's execConfig.env sets.
 */
export function parseServiceAccountTokenBlock(
  value: unknown,
  at: string,
  warnings: string[],
  providerEnv: readonly string[],
): ServiceAccountTokenBlock | undefined {
  if (value === undefined || value === null) return undefined
  const where = `${at}: ${SERVICE_ACCOUNT_TOKEN_FIELD}`
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${where} must be an object`, SERVICE_ACCOUNT_TOKEN_HINT)
  }
  const block = value as Record<string, unknown>
  for (const key of Object.keys(block)) {
    if (!FIELDS.has(key)) warnings.push(`${where}: unknown field "${key}" is ignored`)
  }
  const {audience, fileEnv, serviceAccount, expirationSeconds} = block
  if (typeof audience !== 'string' || audience.trim() === '') {
    throw new UsageError(
      `${where}.audience must be a non-empty string (the audience the cloud's trust of the hub's issuer names)`,
      SERVICE_ACCOUNT_TOKEN_HINT,
    )
  }
  if (typeof fileEnv !== 'string' || !ENV_NAME.test(fileEnv)) {
    throw new UsageError(
      `${where}.fileEnv ${fileEnv === undefined ? 'is missing' : `${quoted(String(fileEnv))} is not a variable name`}: ` +
        'name the variable that gets the token file, like AWS_WEB_IDENTITY_TOKEN_FILE',
      SERVICE_ACCOUNT_TOKEN_HINT,
    )
  }
  if (fileEnv === EXEC_INFO_ENV) {
    throw new UsageError(`${where}.fileEnv cannot be ${EXEC_INFO_ENV}: the exec protocol sets it`)
  }
  // The token file's path would replace what the variable means to every process the plugin starts.
  if (isGuardedEnvName(fileEnv)) {
    throw new UsageError(
      `${where}.fileEnv cannot be ${fileEnv}: it decides which code the plugin runs, or which hub and identity it uses`,
      'name a variable of its own for the token file, like AWS_WEB_IDENTITY_TOKEN_FILE (docs/providers.md lists the refused names)',
    )
  }
  if (providerEnv.includes(fileEnv)) {
    throw new UsageError(
      `${where}.fileEnv ${fileEnv} is also set by execConfig.env, whose value the token file's path would silently replace`,
      `remove ${fileEnv} from execConfig.env, or name another variable in fileEnv`,
    )
  }
  const parsed: ServiceAccountTokenBlock = {
    audience,
    fileEnv,
    expirationSeconds:
      expirationSeconds === undefined || expirationSeconds === null
        ? DEFAULT_EXPIRATION_SECONDS
        : parseExpirationSeconds(expirationSeconds, `${where}.expirationSeconds`),
  }
  if (serviceAccount !== undefined && serviceAccount !== null) {
    parsed.serviceAccount = parseServiceAccountName(serviceAccount, `${where}.serviceAccount`)
  }
  return parsed
}

function parseServiceAccountName(value: unknown, where: string): ServiceAccountName {
  const text = typeof value === 'string' ? value : ''
  const [namespace, name, ...rest] = text.split('/')
  if (
    rest.length > 0 ||
    namespace === undefined ||
    name === undefined ||
    !isNamespaceName(namespace) ||
    !isObjectName(name)
  ) {
    throw new UsageError(
      `${where} ${typeof value === 'string' ? quoted(value) : String(value)} is not "namespace/name" of a ServiceAccount`,
      'write the hub ServiceAccount as "namespace/name"; leave it out in a pod to use the pod\'s own',
    )
  }
  return {namespace, name}
}

/**
 * Whose token to ask for: the block's ServiceAccount, else (in a pod whose hub is the in-cluster
 * config) the pod's own; outside a pod one must be named.
 */
export function federatedServiceAccount(
  block: ServiceAccountTokenBlock,
  providerName: string,
  pod: ServiceAccountName | undefined,
): ServiceAccountName & {podOwn: boolean} {
  if (block.serviceAccount) return {...block.serviceAccount, podOwn: false}
  if (pod) return {namespace: pod.namespace, name: pod.name, podOwn: true}
  throw new UsageError(
    `provider "${providerName}": ${SERVICE_ACCOUNT_TOKEN_FIELD} names no serviceAccount, and cpcred is not in a pod ` +
      'whose own ServiceAccount could be used',
    `add "serviceAccount": "namespace/name" (a hub ServiceAccount) to the ${SERVICE_ACCOUNT_TOKEN_FIELD} block`,
  )
}
