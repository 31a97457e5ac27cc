// The ClusterProfile API (multicluster.x-k8s.io v1alpha1 and v1alpha2, KEP-4322/KEP-5339) as cpcred
// reads it. Field names follow the API exactly; the cluster of an access provider is a kubeconfig v1
// Cluster. Both versions read into one model: v1alpha2 is v1alpha1 without the deprecated
// credentialProviders (and with stricter validation, which the hub applies).
import {checkProfileCluster, type ClusterEntryFields} from '../access/connection.js'

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
 * The property that records ClusterSet membership: KEP-4322 reflects a member cluster's
 * ClusterProperty resources (KEP-2149) in status.properties, and this one names its ClusterSet.
 */
export const CLUSTERSET_PROPERTY = 'clusterset.k8s.io'
/**
 * Label on the namespace that holds a clusterset's profiles, as older hubs record membership: the
 * upstream constant first, then the spelling the KEP text has used, which real hubs may carry.
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
  /** Dropped as a profile is read (withoutManagedFields). */
  managedFields?: unknown
}

/**
 * A profile as cpcred keeps it: without metadata.managedFields, which kubectl hides too
 * (--show-managed-fields defaults to false) and which is about a third of what a listing holds.
 * Set to undefined rather than deleted (JSON output leaves it out either way), so the object keeps
 * its shape.
 */
export function withoutManagedFields<T extends {metadata?: ObjectMeta}>(object: T): T {
  if (object.metadata?.managedFields !== undefined) object.metadata.managedFields = undefined
  return object
}

export interface NamedExtension {
  name: string
  extension: unknown
}

/** A kubeconfig v1 Cluster, with kubeconfig field names: the connection and its extensions. */
export interface ProfileCluster extends ClusterEntryFields {
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

/**
 * The providers a profile offers: accessProviders in their order, then the deprecated
 * credentialProviders (v1alpha1 only) whose names accessProviders does not already give. Each
 * entry's cluster is checked here, once, and an entry that fails says why in `invalid`.
 */
export function offeredProviders(profile: ClusterProfile): readonly OfferedProvider[] {
  let offered = OFFERED.get(profile)
  if (offered === undefined) OFFERED.set(profile, (offered = checkOffered(profile)))
  return offered
}

// A listing asks this of every profile up to three times (the PROVIDERS column, the provider the
// file would use, its server): each entry's server URL is parsed once. Profiles are read-only.
const OFFERED = new WeakMap<ClusterProfile, readonly OfferedProvider[]>()

function checkOffered(profile: ClusterProfile): OfferedProvider[] {
  const {access, deprecated} = offeredEntries(profile)
  return [
    ...access.map((provider) => checked(provider, 'accessProviders')),
    ...deprecated.map((provider) => checked(provider, 'credentialProviders')),
  ]
}

/** The names offeredProviders gives, in its order, without judging the entries (a table's column). */
export function offeredProviderNames(profile: ClusterProfile): string[] {
  const {access, deprecated} = offeredEntries(profile)
  return [...access, ...deprecated].map((provider) => provider.name)
}

function offeredEntries(profile: ClusterProfile): {access: AccessProvider[]; deprecated: AccessProvider[]} {
  const access = namedEntries(profile.status?.accessProviders)
  const names = new Set(access.map((provider) => provider.name))
  const legacy = profile.apiVersion === undefined || profile.apiVersion === `${GROUP}/v1alpha1`
  const deprecated = (legacy ? namedEntries(profile.status?.credentialProviders) : []).filter(
    (provider) => !names.has(provider.name),
  )
  return {access, deprecated}
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

/** The clusterset a profile's clusterset.k8s.io property names, if it has one. */
export function clustersetPropertyOf(profile: ClusterProfile): string | undefined {
  const properties = profile.status?.properties
  // The CRD's schema guarantees the shape; a hub whose CRD does not must not crash a listing.
  const property = Array.isArray(properties)
    ? properties.find((entry) => entry?.name === CLUSTERSET_PROPERTY)
    : undefined
  return typeof property?.value === 'string' && property.value !== '' ? property.value : undefined
}

/** A clusterset a profile belongs to, and what named it: its property, or its namespace's label. */
export type ClustersetMembership = {clusterset: string} & ({property: string} | {label: string})

/**
 * Every clusterset a profile is said to belong to: its clusterset.k8s.io property first, then the
 * clusterset its namespace's label names (`namespaceSet`, when it was read).
 */
export function clustersetMemberships(
  profile: ClusterProfile,
  namespaceSet: {clusterset: string; label: string} | undefined,
): ClustersetMembership[] {
  const property = clustersetPropertyOf(profile)
  return [
    ...(property === undefined ? [] : [{clusterset: property, property: CLUSTERSET_PROPERTY}]),
    ...(namespaceSet === undefined ? [] : [namespaceSet]),
  ]
}

/** The inventory member id of a profile, if its cluster manager set one. */
export function memberIdOf(profile: ClusterProfile): string | undefined {
  return profile.metadata.labels?.[MEMBER_ID_LABEL] || undefined
}
