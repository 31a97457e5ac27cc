// The ClusterProfile API (multicluster.x-k8s.io v1alpha1 and v1alpha2, KEP-4322/KEP-5339) as cpcred
// reads it. Field names follow the API exactly; the cluster of an access provider is a kubeconfig v1
// Cluster. Both versions read into one model: v1alpha2 is v1alpha1 without the deprecated
// credentialProviders (and with stricter validation, which the hub applies).

export const GROUP = 'multicluster.x-k8s.io'
/**
 * The versions cpcred reads, the one it prefers first: v1alpha1 while the hub serves it. Its fields
 * are a superset of v1alpha2's (credentialProviders), and the upstream access library
 * (sigs.k8s.io/cluster-inventory-api/pkg/access) and the controllers built on it read v1alpha1, so
 * reading v1alpha2 would make cpcred choose differently from every Go consumer on the same hub.
 * Revisit when pkg/access reads v1alpha2, or v1alpha2 gains fields v1alpha1 lacks (docs/providers.md).
 */
export const PROFILE_VERSIONS = ['v1alpha1', 'v1alpha2'] as const
export type ProfileVersion = (typeof PROFILE_VERSIONS)[number]
export const PLURAL = 'clusterprofiles'
export const RESOURCE = `${PLURAL}.${GROUP}`

/**
 * Label on the namespace that holds a clusterset's profiles: the upstream constant first, then the
 * spelling the KEP text has used, which real hubs may carry.
 */
export const CLUSTERSET_LABELS = [
  'multicluster.x-k8s.io/clusterset',
  'clusterset.multicluster.x-k8s.io',
] as const
/** Label correlating the profiles that stand for one member cluster (upstream LabelInventoryMemberIDKey). */
export const MEMBER_ID_LABEL = 'multicluster.x-k8s.io/inventory-member-id'
export const CONTROL_PLANE_HEALTHY = 'ControlPlaneHealthy'

/** Extension passed verbatim to the plugin as ExecCredential.spec.cluster.config. */
export const EXEC_EXTENSION = 'client.authentication.k8s.io/exec'
/** Extension with a YAML list of strings, appended to args only under profileSourcedCLIArgsPolicy Append. */
export const ADDITIONAL_ARGS_EXTENSION = 'clusterprofiles.multicluster.x-k8s.io/exec/additional-args'
/** Extension with a YAML string map, merged into env by profileSourcedEnvVarsPolicy. */
export const ADDITIONAL_ENVS_EXTENSION = 'clusterprofiles.multicluster.x-k8s.io/exec/additional-envs'

export interface ObjectMeta {
  name: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

export interface NamedExtension {
  name: string
  extension: unknown
}

/** A kubeconfig v1 Cluster, with kubeconfig field names. */
export interface ProfileCluster {
  server: string
  'certificate-authority'?: string
  'certificate-authority-data'?: string
  'tls-server-name'?: string
  'insecure-skip-tls-verify'?: boolean
  'proxy-url'?: string
  'disable-compression'?: boolean
  extensions?: NamedExtension[]
}

export interface AccessProvider {
  name: string
  cluster?: ProfileCluster
}

export interface Condition {
  type: string
  status: 'True' | 'False' | 'Unknown' | string
  reason?: string
  message?: string
  lastTransitionTime?: string
  observedGeneration?: number
}

export interface Property {
  name: string
  value: string
  lastObservedTime?: string
}

export interface ClusterProfile {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
  spec: {
    displayName?: string
    clusterManager: {name: string}
  }
  status?: {
    conditions?: Condition[]
    version?: {kubernetes?: string}
    properties?: Property[]
    accessProviders?: AccessProvider[]
    /** Deprecated: replaced by accessProviders, which wins for the same name. */
    credentialProviders?: AccessProvider[]
  }
}

export type ProviderSource = 'accessProviders' | 'credentialProviders'

export interface OfferedProvider extends AccessProvider {
  source: ProviderSource
  /**
   * Why this entry cannot be used, when it cannot: its cluster was refused where the profile
   * entered cpcred (see checkProfileCluster). Never contains the server URL itself.
   */
  invalid?: string
}

/** Cluster fields that name files: they mean nothing on the consumer's machine (DESIGN.md §5). */
export const LOCAL_FILE_FIELDS = ['certificate-authority'] as const

/**
 * Why a profile's cluster entry cannot be used, or undefined when it can: the server must be an
 * absolute http(s) URL without user information (a password in a URL ends up in kubeconfigs, logs
 * and terminals), without control characters or whitespace (which break kubeconfigs and forge
 * lines). The reason never repeats the URL: it may hold the very secret being refused.
 */
export function checkProfileCluster(cluster: unknown): string | undefined {
  if (typeof cluster !== 'object' || cluster === null || Array.isArray(cluster)) return 'it has no cluster'
  const server = (cluster as {server?: unknown}).server
  if (server === undefined || server === null || server === '') return 'it has no cluster.server'
  if (typeof server !== 'string') return 'its cluster.server is not a string'
  const problem = serverUrlProblem(server)
  if (problem) return problem
  const fields = cluster as Record<string, unknown>
  for (const field of ['certificate-authority-data', 'tls-server-name', 'proxy-url', ...LOCAL_FILE_FIELDS]) {
    if (fields[field] !== undefined && fields[field] !== null && typeof fields[field] !== 'string') {
      return `its cluster.${field} is not a string`
    }
  }
  for (const field of ['insecure-skip-tls-verify', 'disable-compression']) {
    if (fields[field] !== undefined && fields[field] !== null && typeof fields[field] !== 'boolean') {
      return `its cluster.${field} is not a boolean`
    }
  }
  if (typeof fields['proxy-url'] === 'string' && fields['proxy-url'] !== '') {
    return proxyUrlProblem(fields['proxy-url'])
  }
  return undefined
}

/** Why a server URL cannot be used (absolute http(s), a host, no user information, no controls). */
export function serverUrlProblem(server: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(server)) {
    return 'control characters or whitespace in the server URL'
  }
  let url: URL
  try {
    url = new URL(server)
  } catch {
    return 'the server URL is not an absolute URL'
  }
  // Checked on the text as well: WHATWG URL drops an empty userinfo ("https://@host").
  if (url.username !== '' || url.password !== '' || /^[^:/?#]+:\/\/[^/?#]*@/.test(server)) {
    return 'user information in the server URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'the server URL is not http or https'
  if (url.hostname === '') return 'the server URL has no host'
  return undefined
}

/** Why a proxy URL cannot be used: client-go takes http, https and socks5 proxies. */
export function proxyUrlProblem(proxy: string): string | undefined {
  try {
    const {protocol} = new URL(proxy)
    return ['http:', 'https:', 'socks5:'].includes(protocol)
      ? undefined
      : 'the proxy URL is not http, https or socks5'
  } catch {
    return 'the proxy URL is not an absolute URL'
  }
}

/** The server URL with any user information replaced, for the rare place that shows a raw entry. */
export function withoutUserInfo(server: string): string {
  return server.replace(/^([^:/?#]+:\/\/)[^/?#]*@/, '$1<redacted>@')
}

/**
 * The providers a profile offers: accessProviders in their order, then the deprecated
 * credentialProviders (v1alpha1 only) whose names accessProviders does not already give. Each
 * entry's cluster is checked here, once, and an entry that fails says why in `invalid`.
 */
export function offeredProviders(profile: ClusterProfile): OfferedProvider[] {
  const access = namedEntries(profile.status?.accessProviders)
  const names = new Set(access.map((provider) => provider.name))
  const legacy = profile.apiVersion === undefined || profile.apiVersion === `${GROUP}/v1alpha1`
  const deprecated = (legacy ? namedEntries(profile.status?.credentialProviders) : []).filter(
    (provider) => !names.has(provider.name),
  )
  return [
    ...access.map((provider) => checked(provider, 'accessProviders')),
    ...deprecated.map((provider) => checked(provider, 'credentialProviders')),
  ]
}

/**
 * The entries of a provider list that have a name. The CRD's schema guarantees the shape; a hub
 * whose CRD does not (x-kubernetes-preserve-unknown-fields) must not crash every command.
 */
function namedEntries(list: unknown): AccessProvider[] {
  if (!Array.isArray(list)) return []
  return list.filter(
    (entry): entry is AccessProvider =>
      typeof entry === 'object' && entry !== null && typeof (entry as {name?: unknown}).name === 'string',
  )
}

/** The one point where a profile's cluster entry is judged: every command reads entries here. */
function checked(provider: AccessProvider, source: ProviderSource): OfferedProvider {
  const invalid = checkProfileCluster(provider.cluster)
  return invalid === undefined ? {...provider, source} : {...provider, source, invalid}
}

export function findCondition(profile: ClusterProfile, type: string): Condition | undefined {
  return profile.status?.conditions?.find((condition) => condition.type === type)
}

/** `namespace/name` of a profile, as users write it on the command line. */
export function profileKey(profile: ClusterProfile): string {
  return `${profile.metadata.namespace ?? ''}/${profile.metadata.name}`
}

/** The clusterset a namespace's labels name, and which spelling of the label named it. */
export function clustersetOf(
  labels: Record<string, string> | undefined,
): {clusterset: string; label: string} | undefined {
  for (const label of CLUSTERSET_LABELS) {
    const clusterset = labels?.[label]
    if (clusterset) return {clusterset, label}
  }
  return undefined
}

/** The inventory member id of a profile, if its cluster manager set one. */
export function memberIdOf(profile: ClusterProfile): string | undefined {
  return profile.metadata.labels?.[MEMBER_ID_LABEL] || undefined
}
