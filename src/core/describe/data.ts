// `cpcred describe`'s data: everything about one ClusterProfile and how the local provider file
// would reach it, for -o json|yaml and for the text layout (describe.ts). Pure: the clock is an input.
import {quote} from 'shell-quote'
import {
  clustersetMemberships,
  offeredProviders,
  type ClusterProfile,
  type ClustersetMembership,
  type OfferedProvider,
  type ProviderSource,
} from '../profiles/cluster-profile.js'
import {isCpcredError} from '../errors.js'
import {pinnedEnv, pinsHub, type HubPin} from '../profiles/hub-pin.js'
import {entryConnectionWarnings} from '../access/connection.js'
import type {Provider} from '../access/provider-file.js'
import {chooseProvider, resolveAccess, type Resolution} from '../access/resolve-access.js'
import {decodeCertificateAuthorityData, type CertificateAuthorityDescription} from './certificates.js'
import {describeExtensions, type ExtensionDescription} from './extensions.js'
import {redactProfile, redactProxyPassword} from './redact.js'
import {arrayOf, nonEmptyText} from './values.js'
import {describeFederationBlock, type FederationDescription, type TokenAccess} from './federation.js'
import {isRecord} from '../json.js'

export type {ExtensionDescription} from './extensions.js'

export interface DescribeInput {
  profile: ClusterProfile
  /** The clusterset of the profile's namespace and which namespace label names it, when known. */
  clusterset?: {clusterset: string; label: string}
  /** The consumer's providers, in the provider file's order. */
  providers: Provider[]
  /** Where the providers came from, for the reader: a file path, or "no provider file". */
  providerSource: string
  now: Date
  /** Print environment values; without it only names are shown. */
  showEnv: boolean
  /** The hub the profile was read from: kubeconfigs cpcred writes pin it in the plugin's env. */
  hubPin?: HubPin
  /** The PlacementDecisions (NAMESPACE/NAME) in the profile's namespace that reference it, when any. */
  placedBy?: string[]
  /** For a chosen provider with a serviceAccountToken block: whose token, and may the caller create it. */
  tokenAccess?: TokenAccess
}

export interface OfferedProviderDescription {
  name: string
  source: ProviderSource
  deprecated: boolean
  /** This accessProviders entry hides a deprecated credentialProviders entry of the same name. */
  overridesDeprecatedEntry: boolean
  /** The provider file has a provider of this name. */
  inProviderFile: boolean
  /** Resolution uses this entry. */
  chosen: boolean
  /** Why cpcred refuses this entry (its server URL, for one), or null when it can be used. */
  invalid: string | null
  /** Null when the entry has none, or when it is invalid (the URL may hold a password). */
  server: string | null
  certificateAuthority: CertificateAuthorityDescription | null
  /** A file path in a profile means nothing on this machine: shown, never read. */
  certificateAuthorityFile: string | null
  tlsServerName: string | null
  insecureSkipTLSVerify: boolean
  /** With any password replaced by <redacted>. */
  proxyURL: string | null
  disableCompression: boolean
  extensions: ExtensionDescription[]
  warnings: string[]
}

export interface ResolvedEnvVar {
  name: string
  /** Only with showEnv. */
  value?: string
  /**
   * `profile` when the profile's additional-envs extension set or replaced it; `hub` for the hub pin
   * that kubeconfigs cpcred writes add (a path and a context name, shown always: no secret).
   */
  source: 'provider' | 'profile' | 'hub'
}

export interface ResolvedDescription {
  provider: string
  source: ProviderSource
  command: string
  args: string[]
  /** command and args, shell-quoted, for people to read. */
  commandLine: string
  env: ResolvedEnvVar[]
  apiVersion: string
  provideClusterInfo: boolean
  interactiveMode: string
  decisions: string[]
  warnings: string[]
  /** The provider's serviceAccountToken block (workload-identity federation), when it has one. */
  serviceAccountToken?: FederationDescription
}

export interface UnresolvedDescription {
  error: string
  hint?: string
}

export interface ProfileDescription {
  /** The profile as read, except that additional-envs values and proxy passwords are redacted. */
  profile: ClusterProfile
  /** The clusterset the profile belongs to: its clusterset.k8s.io property, else its namespace's label. */
  clusterset: string | null
  /** The namespace label it was read from (the upstream spelling, or the one the KEP text used). */
  clustersetLabel: string | null
  /** The property it was read from (clusterset.k8s.io), when it was. */
  clustersetProperty: string | null
  /**
   * Every clusterset the property and the namespace label name, and which named it: the property is
   * KEP-4322's source; the namespace label is legacy (removed from the KEP), read for older hubs.
   */
  clustersets: {clusterset: string; from: string; legacy: boolean}[]
  /** The PlacementDecisions that reference the profile; absent when none does (or none could be read). */
  placedBy?: string[]
  providerSource: string
  offeredProviders: OfferedProviderDescription[]
  resolution: ResolvedDescription | UnresolvedDescription
}

function clustersetData(memberships: ClustersetMembership[]) {
  const [first] = memberships
  return {
    clusterset: first?.clusterset ?? null,
    clustersetLabel: first !== undefined && 'label' in first ? first.label : null,
    clustersetProperty: first !== undefined && 'property' in first ? first.property : null,
    clustersets: memberships.map((membership) =>
      'property' in membership
        ? {clusterset: membership.clusterset, from: `property ${membership.property}`, legacy: false}
        : {
            clusterset: membership.clusterset,
            from: `legacy namespace label ${membership.label}, removed from KEP-4322`,
            legacy: true,
          },
    ),
  }
}

export function describeProfileData(input: DescribeInput): ProfileDescription {
  const {profile, providers, now, showEnv} = input
  const chosen = chooseProvider(profile, providers)?.offered
  const deprecatedNames = new Set(
    arrayOf<{name?: unknown}>(profile.status?.credentialProviders).map((entry) => entry?.name),
  )
  return {
    profile: redactProfile(profile, showEnv),
    ...clustersetData(clustersetMemberships(profile, input.clusterset)),
    ...(input.placedBy?.length ? {placedBy: input.placedBy} : {}),
    providerSource: input.providerSource,
    offeredProviders: offeredProviders(profile).map((entry) =>
      describeEntry(entry, {
        provider: providers.find((provider) => provider.name === entry.name),
        chosen: chosen !== undefined && chosen.name === entry.name && chosen.source === entry.source,
        overridesDeprecatedEntry: entry.source === 'accessProviders' && deprecatedNames.has(entry.name),
        now,
        showEnv,
      }),
    ),
    resolution: describeResolution(profile, providers, showEnv, input.hubPin, input.tokenAccess),
  }
}

function describeResolution(
  profile: ClusterProfile,
  providers: Provider[],
  showEnv: boolean,
  hubPin?: HubPin,
  tokenAccess?: TokenAccess,
): ResolvedDescription | UnresolvedDescription {
  let resolution: Resolution
  try {
    resolution = resolveAccess(profile, providers)
  } catch (error) {
    // Anything else is a bug in cpcred, not something to explain as a property of the profile.
    if (!isCpcredError(error)) throw error
    return error.hint === undefined ? {error: error.message} : {error: error.message, hint: error.hint}
  }
  const {execConfig, provider} = resolution
  const args = execConfig.args ?? []
  // resolveAccess keeps the provider's variables in place and appends the profile's after them.
  const providerEnv = provider.execConfig.env ?? []
  const env = (execConfig.env ?? []).map((variable, index): ResolvedEnvVar => {
    const own = providerEnv[index]
    const source = own !== undefined && own.name === variable.name && own.value === variable.value
    const described: ResolvedEnvVar = {name: variable.name, source: source ? 'provider' : 'profile'}
    return showEnv ? {name: variable.name, value: variable.value, source: described.source} : described
  })
  if (hubPin && pinsHub(resolution)) {
    const pinned = pinnedEnv(resolution, hubPin).slice(-2)
    env.push(...pinned.map((variable): ResolvedEnvVar => ({...variable, source: 'hub'})))
  }
  return {
    provider: provider.name,
    source: resolution.offered.source,
    command: execConfig.command,
    args: [...args],
    commandLine: quote([execConfig.command, ...args]),
    env,
    apiVersion: execConfig.apiVersion,
    provideClusterInfo: execConfig.provideClusterInfo ?? false,
    interactiveMode: execConfig.interactiveMode ?? '',
    decisions: [...resolution.decisions],
    warnings: [...resolution.warnings],
    ...(provider.serviceAccountToken
      ? {serviceAccountToken: describeFederationBlock(provider.serviceAccountToken, tokenAccess)}
      : {}),
  }
}

interface EntryContext {
  provider: Provider | undefined
  chosen: boolean
  overridesDeprecatedEntry: boolean
  now: Date
  showEnv: boolean
}

function describeEntry(entry: OfferedProvider, context: EntryContext): OfferedProviderDescription {
  const cluster = isRecord(entry.cluster) ? entry.cluster : undefined
  const invalid = entry.invalid ?? null
  const server = invalid === null ? nonEmptyText(cluster?.server) : null
  const insecure = cluster?.['insecure-skip-tls-verify'] === true
  const caData = nonEmptyText(cluster?.['certificate-authority-data'])
  const certificateAuthority = caData === null ? null : decodeCertificateAuthorityData(caData, context.now)
  const warnings = entryConnectionWarnings(server, cluster)
  for (const certificate of certificateAuthority?.certificates ?? []) {
    if (certificate.expired)
      warnings.push(`CA certificate ${certificate.subject} expired ${certificate.notAfter}`)
  }
  if (certificateAuthority) warnings.push(...certificateAuthority.problems)

  return {
    name: entry.name,
    source: entry.source,
    deprecated: entry.source === 'credentialProviders',
    overridesDeprecatedEntry: context.overridesDeprecatedEntry,
    inProviderFile: context.provider !== undefined,
    chosen: context.chosen,
    invalid,
    server,
    certificateAuthority,
    certificateAuthorityFile: nonEmptyText(cluster?.['certificate-authority']),
    tlsServerName: nonEmptyText(cluster?.['tls-server-name']),
    insecureSkipTLSVerify: insecure,
    proxyURL: redactProxyPassword(nonEmptyText(cluster?.['proxy-url'])),
    disableCompression: cluster?.['disable-compression'] === true,
    extensions: describeExtensions(entry.name, cluster?.extensions, context),
    warnings,
  }
}
