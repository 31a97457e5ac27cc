// The ClusterProfile API (multicluster.x-k8s.io v1alpha1 and v1alpha2, KEP-4322/KEP-5339) as cpcred
// reads it. Field names follow the API exactly; the cluster of an access provider is a kubeconfig v1
// Cluster. Both versions read into one model: v1alpha2 is v1alpha1 without the deprecated
// credentialProviders (and with stricter validation, which the hub applies).

export const GROUP = 'multicluster.x-k8s.io'
/** The versions cpcred reads, the one it prefers first. */
export const PROFILE_VERSIONS = ['v1alpha2', 'v1alpha1'] as const
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
}

/**
 * The providers a profile offers: accessProviders in their order, then the deprecated
 * credentialProviders (v1alpha1 only) whose names accessProviders does not already give.
 */
export function offeredProviders(profile: ClusterProfile): OfferedProvider[] {
  const access = profile.status?.accessProviders ?? []
  const names = new Set(access.map((provider) => provider.name))
  const legacy = profile.apiVersion === undefined || profile.apiVersion === `${GROUP}/v1alpha1`
  const deprecated = (legacy ? (profile.status?.credentialProviders ?? []) : []).filter(
    (provider) => !names.has(provider.name),
  )
  return [
    ...access.map((provider) => ({...provider, source: 'accessProviders' as const})),
    ...deprecated.map((provider) => ({...provider, source: 'credentialProviders' as const})),
  ]
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
