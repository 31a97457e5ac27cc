// `cpcred describe <profile>`: everything about one ClusterProfile and how the local provider file
// would reach it, as kubectl-describe text or as data for -o json|yaml. Pure: the clock is an input,
// and decoding the CA certificates is computation, not I/O.
//
// Everything a profile says is data, never a command: the text comes out as cells, which the printer
// makes printable (a condition message cannot start a fake "Command:" line or send terminal
// escapes), and the only command shown is the one resolveAccess builds from the provider file.
import {X509Certificate} from 'node:crypto'
import {quote} from 'shell-quote'
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  offeredProviders,
  withoutUserInfo,
  type ClusterProfile,
  type OfferedProvider,
  type ProviderSource,
} from '../profiles/cluster-profile.js'
import {isCpcredError} from '../errors.js'
import {pinnedEnv, pinsHub, type HubPin} from '../profiles/hub-pin.js'
import {age, humanDuration, type Cells} from '../text/format.js'
import type {Provider} from '../access/provider-file.js'
import {chooseProvider, resolveAccess, type Resolution} from '../access/resolve-access.js'

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
}

export interface CertificateSummary {
  subject: string
  issuer: string
  notBefore: string
  notAfter: string
  expired: boolean
  notYetValid: boolean
  sha256Fingerprint: string
}

export interface CertificateAuthorityDescription {
  certificates: CertificateSummary[]
  /** Why the data, or one certificate in it, could not be read; empty when all of it decoded. */
  problems: string[]
}

export interface ExtensionDescription {
  name: string
  /** The value; additional-envs values are redacted unless showEnv. */
  value: unknown
  /** What happens to it for this entry's provider; null for extensions cpcred does not read. */
  effect: string | null
  /** Why resolution would refuse it, or null. */
  problem: string | null
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
}

export interface UnresolvedDescription {
  error: string
  hint?: string
}

export interface ProfileDescription {
  /** The profile as read, except that additional-envs values and proxy passwords are redacted. */
  profile: ClusterProfile
  clusterset: string | null
  /** The namespace label it was read from (the upstream spelling, or the one the KEP text used). */
  clustersetLabel: string | null
  providerSource: string
  offeredProviders: OfferedProviderDescription[]
  resolution: ResolvedDescription | UnresolvedDescription
}

const REDACTED = '<redacted>'
const NONE = '<none>'
/** kubectl describe hides it too: it repeats the whole object. */
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration'
/** kubectl describe's maxAnnotationLen. */
const MAX_ANNOTATION_LENGTH = 140
/** Extension values can be whole documents; -o json has them in full. */
const MAX_EXTENSION_VALUE_LENGTH = 120

export function describeProfileData(input: DescribeInput): ProfileDescription {
  const {profile, providers, now, showEnv} = input
  const chosen = chooseProvider(profile, providers)?.offered
  const deprecatedNames = new Set(
    arrayOf<{name?: unknown}>(profile.status?.credentialProviders).map((entry) => entry?.name),
  )
  return {
    profile: redactProfile(profile, showEnv),
    clusterset: input.clusterset?.clusterset ?? null,
    clustersetLabel: input.clusterset?.label ?? null,
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
    resolution: describeResolution(profile, providers, showEnv, input.hubPin),
  }
}

export function describeProfile(input: DescribeInput): Cells {
  const data = describeProfileData(input)
  const {profile, now} = input
  const metadata = profile.metadata ?? {name: ''}
  const out = new DescribeWriter()

  out.field(0, 'Name', metadata.name)
  out.field(0, 'Namespace', metadata.namespace)
  out.field(0, 'API Version', profile.apiVersion && `${profile.apiVersion} (the version read from the hub)`)
  out.labels(0, 'Labels', metadata.labels)
  out.annotations(0, 'Annotations', metadata.annotations)
  out.field(0, 'Display Name', profile.spec?.displayName)
  out.field(0, 'Cluster Manager', profile.spec?.clusterManager?.name)
  out.field(
    0,
    'Clusterset',
    input.clusterset && `${input.clusterset.clusterset} (namespace label ${input.clusterset.label})`,
  )
  out.field(0, 'Created', created(text(metadata.creationTimestamp), now))
  out.field(0, 'Kubernetes Version', profile.status?.version?.kubernetes)

  const conditions = arrayOf<Record<string, unknown>>(profile.status?.conditions)
  out.table(
    0,
    'Conditions',
    ['Type', 'Status', 'Reason', 'Age', 'Message'],
    conditions.map((condition) => [
      text(condition?.type),
      text(condition?.status),
      text(condition?.reason),
      age(optionalText(condition?.lastTransitionTime), now),
      text(condition?.message),
    ]),
  )
  const properties = arrayOf<Record<string, unknown>>(profile.status?.properties)
  out.table(
    0,
    'Properties',
    ['Name', 'Value', 'Last Observed'],
    properties.map((property) => [
      text(property?.name),
      text(property?.value),
      age(optionalText(property?.lastObservedTime), now),
    ]),
  )

  if (data.offeredProviders.length === 0) out.field(0, 'Access Providers', '')
  else out.heading(0, 'Access Providers')
  for (const entry of data.offeredProviders) writeEntry(out, entry, now)

  out.heading(0, 'Resolution')
  out.field(1, 'Providers From', data.providerSource)
  writeResolution(out, data, input.showEnv)

  if ('warnings' in data.resolution && data.resolution.warnings.length > 0) {
    out.heading(0, 'Warnings')
    for (const warning of data.resolution.warnings) out.line(1, `- ${warning}`)
  }
  return out.cells()
}

function created(timestamp: string, now: Date): string {
  const createdAge = age(timestamp, now)
  return createdAge === '<unknown>' ? timestamp : `${timestamp} (${createdAge} ago)`
}

function writeEntry(out: DescribeWriter, entry: OfferedProviderDescription, now: Date): void {
  out.heading(1, entry.name)
  out.field(
    2,
    'Source',
    entry.deprecated
      ? 'status.credentialProviders (DEPRECATED: the cluster manager should publish status.accessProviders)'
      : entry.overridesDeprecatedEntry
        ? 'status.accessProviders (overrides the deprecated status.credentialProviders entry of the same name)'
        : 'status.accessProviders',
  )
  out.field(
    2,
    'In Provider File',
    !entry.inProviderFile
      ? 'no'
      : entry.chosen
        ? 'yes (chosen)'
        : 'yes (not chosen: an earlier provider matches)',
  )
  out.field(
    2,
    'Server',
    entry.invalid !== null
      ? `<invalid: ${entry.invalid}> (this entry cannot be used)`
      : entry.server === null
        ? '<none> (this entry cannot be used)'
        : isHttps(entry.server)
          ? entry.server
          : `${entry.server}  WARNING: not https, credentials would travel without TLS protection`,
  )
  out.list(2, 'Certificate Authority', certificateLines(entry.certificateAuthority, now))
  if (entry.certificateAuthorityFile !== null) {
    out.field(
      2,
      'Certificate Authority File',
      `${entry.certificateAuthorityFile} (ignored: a profile cannot point at files on this machine)`,
    )
  }
  out.field(2, 'TLS Server Name', entry.tlsServerName)
  out.field(
    2,
    'Insecure Skip TLS Verify',
    !entry.insecureSkipTLSVerify
      ? 'false'
      : entry.certificateAuthority !== null
        ? 'true  WARNING: set together with certificate-authority-data, which kubectl refuses'
        : "true  WARNING: the server's certificate is not checked; anyone on the path can impersonate the cluster " +
          'and receive your credentials',
  )
  out.field(2, 'Proxy URL', entry.proxyURL)
  out.field(2, 'Disable Compression', String(entry.disableCompression))
  if (entry.extensions.length === 0) {
    out.field(2, 'Extensions', '')
    return
  }
  out.heading(2, 'Extensions')
  for (const extension of entry.extensions) {
    out.heading(3, extension.name)
    out.field(4, 'Value', compactJson(extension.value))
    if (extension.effect !== null) out.field(4, 'Effect', extension.effect)
    if (extension.problem !== null) out.field(4, 'Problem', extension.problem)
  }
}

function certificateLines(ca: CertificateAuthorityDescription | null, now: Date): string[] {
  if (ca === null) return ["<none> (the server is checked against this machine's trusted roots)"]
  const lines = ca.certificates.map((certificate) => {
    const issuer = certificate.issuer === certificate.subject ? '' : `, issued by ${certificate.issuer}`
    const notAfter = Date.parse(certificate.notAfter)
    const validity = certificate.expired
      ? `EXPIRED ${certificate.notAfter} (${humanDuration(now.getTime() - notAfter)} ago)`
      : certificate.notYetValid
        ? `NOT VALID BEFORE ${certificate.notBefore} (in ${humanDuration(Date.parse(certificate.notBefore) - now.getTime())})`
        : `expires ${certificate.notAfter} (in ${humanDuration(notAfter - now.getTime())})`
    return `${certificate.subject}${issuer}, ${validity}`
  })
  return [...lines, ...ca.problems.map((problem) => `<${problem}>`)]
}

function writeResolution(out: DescribeWriter, data: ProfileDescription, showEnv: boolean): void {
  const resolution = data.resolution
  if ('error' in resolution) {
    // A provider can match and the profile still be refused (a malformed extension, no server).
    const matched = data.offeredProviders.find((entry) => entry.chosen)
    out.field(
      1,
      'Provider',
      matched ? `${matched.name} (matched, but the profile cannot be used with it)` : '',
    )
    out.field(1, 'Reason', resolution.error)
    if (resolution.hint) out.field(1, 'Hint', resolution.hint)
    return
  }
  out.field(1, 'Provider', `${resolution.provider} (profile entry from status.${resolution.source})`)
  out.field(1, 'Command', resolution.commandLine)
  out.list(
    1,
    'Environment',
    resolution.env.map((variable) =>
      variable.source === 'hub'
        ? `${variable.name}=${quote([variable.value ?? ''])}  (the hub, pinned in kubeconfigs cpcred writes)`
        : `${variable.name}=${showEnv ? quote([variable.value ?? '']) : REDACTED}` +
          (variable.source === 'profile' ? '  (from the profile)' : ''),
    ),
  )
  out.field(1, 'Exec API Version', resolution.apiVersion)
  out.field(1, 'Provide Cluster Info', String(resolution.provideClusterInfo))
  out.field(1, 'Interactive Mode', resolution.interactiveMode)
  out.heading(1, 'Decisions')
  for (const decision of resolution.decisions) out.line(2, `- ${decision}`)
}

function describeResolution(
  profile: ClusterProfile,
  providers: Provider[],
  showEnv: boolean,
  hubPin?: HubPin,
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
  const cluster = isObject(entry.cluster) ? entry.cluster : undefined
  const invalid = entry.invalid ?? null
  const server = invalid === null ? nonEmptyText(cluster?.server) : null
  const insecure = cluster?.['insecure-skip-tls-verify'] === true
  const caData = nonEmptyText(cluster?.['certificate-authority-data'])
  const certificateAuthority = caData === null ? null : decodeCertificateAuthorityData(caData, context.now)
  const warnings: string[] = []
  if (server !== null && !isHttps(server)) {
    warnings.push(`server ${server} is not https: credentials would travel without TLS protection`)
  }
  if (insecure && caData !== null) {
    warnings.push(
      'insecure-skip-tls-verify is set together with certificate-authority-data, which kubectl refuses',
    )
  } else if (insecure) {
    warnings.push("insecure-skip-tls-verify is set: the server's certificate is not checked")
  }
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

function describeExtensions(
  entryName: string,
  extensions: unknown,
  context: EntryContext,
): ExtensionDescription[] {
  if (extensions === undefined || extensions === null) return []
  if (!Array.isArray(extensions)) {
    return [
      {
        name: NONE,
        value: null,
        effect: null,
        problem: `extensions must be a list, not ${kindOf(extensions)}`,
      },
    ]
  }
  const counts = new Map<unknown, number>()
  for (const extension of extensions) counts.set(extension?.name, (counts.get(extension?.name) ?? 0) + 1)
  return extensions.map((extension): ExtensionDescription => {
    const name = typeof extension?.name === 'string' && extension.name !== '' ? extension.name : NONE
    const value: unknown = extension?.extension
    const shown = name === ADDITIONAL_ENVS_EXTENSION && !context.showEnv ? redactEnvExtension(value) : value
    const reserved =
      name === EXEC_EXTENSION || name === ADDITIONAL_ARGS_EXTENSION || name === ADDITIONAL_ENVS_EXTENSION
    const duplicate =
      reserved && (counts.get(name) ?? 0) > 1
        ? 'appears more than once, so resolution refuses this entry'
        : null
    const {effect, problem} = extensionEffect(name, value, entryName, context.provider)
    return {name, value: shown, effect, problem: duplicate ?? problem}
  })
}

/**
 * What the consumer's provider of the same name does with a reserved extension. The shape checks
 * mirror resolveAccess's, so an entry that is not chosen (or a policy that ignores the extension)
 * still shows what resolution would refuse.
 */
function extensionEffect(
  name: string,
  value: unknown,
  entryName: string,
  provider: Provider | undefined,
): {effect: string | null; problem: string | null} {
  const missing = `the provider file has no "${entryName}"`
  switch (name) {
    case EXEC_EXTENSION: {
      if (!provider) {
        return {
          effect: `passed to the plugin as ExecCredential.spec.cluster.config when its provider sets provideClusterInfo; ${missing}`,
          problem: null,
        }
      }
      return {
        effect: provider.execConfig.provideClusterInfo
          ? 'passed to the plugin as ExecCredential.spec.cluster.config'
          : `not passed to the plugin: provider "${provider.name}" has provideClusterInfo false`,
        problem: null,
      }
    }
    case ADDITIONAL_ARGS_EXTENSION: {
      const problem = additionalArgsProblem(value)
      const policy = provider?.profileSourcedCLIArgsPolicy
      let effect: string
      if (!provider) {
        effect = `appended to the plugin's arguments only under profileSourcedCLIArgsPolicy Append; ${missing}`
      } else if (policy === 'Append') {
        effect = `appended to the plugin's arguments (provider "${provider.name}" has profileSourcedCLIArgsPolicy Append)`
      } else if (isIgnorePolicy(policy)) {
        effect = `ignored: provider "${provider.name}" has ${policyInWords('profileSourcedCLIArgsPolicy', policy)}`
      } else {
        effect = `provider "${provider.name}" has an unknown profileSourcedCLIArgsPolicy ${JSON.stringify(policy)}, so resolution fails`
      }
      return {effect, problem: problem && `malformed: ${problem}`}
    }
    case ADDITIONAL_ENVS_EXTENSION: {
      const problem = additionalEnvsProblem(value)
      const policy = provider?.profileSourcedEnvVarsPolicy
      let effect: string
      if (!provider) {
        effect =
          "added to the plugin's environment only under profileSourcedEnvVarsPolicy AppendIfNotExists or " +
          `Replace; ${missing}`
      } else if (policy === 'AppendIfNotExists') {
        effect =
          `added to the plugin's environment where provider "${provider.name}" does not set the name itself ` +
          '(profileSourcedEnvVarsPolicy AppendIfNotExists)'
      } else if (policy === 'Replace') {
        effect =
          `added to the plugin's environment, replacing provider "${provider.name}"'s own values ` +
          '(profileSourcedEnvVarsPolicy Replace)'
      } else if (isIgnorePolicy(policy)) {
        effect = `ignored: provider "${provider.name}" has ${policyInWords('profileSourcedEnvVarsPolicy', policy)}`
      } else {
        effect = `provider "${provider.name}" has an unknown profileSourcedEnvVarsPolicy ${JSON.stringify(policy)}, so resolution fails`
      }
      return {effect, problem: problem && `malformed: ${problem}`}
    }
    default:
      return {effect: null, problem: null}
  }
}

function isIgnorePolicy(policy: string | undefined): boolean {
  return policy === undefined || policy === '' || policy === 'Ignore'
}

function policyInWords(field: string, policy: string | undefined): string {
  if (policy === undefined) return `no ${field} (Ignore)`
  if (policy === '') return `${field} "" (Ignore)`
  return `${field} ${policy}`
}

function additionalArgsProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (!Array.isArray(value)) return `it must be a list of strings, not ${kindOf(value)}`
  const index = value.findIndex((item) => !isScalar(item))
  return index < 0 ? null : `item ${index} is ${kindOf(value[index])}, not a string`
}

function additionalEnvsProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (!isObject(value)) return `it must be a map of variable names to strings, not ${kindOf(value)}`
  for (const [name, item] of Object.entries(value)) {
    if (name === '' || name.includes('=') || name.includes('\0'))
      return `${JSON.stringify(name)} is not a variable name`
    if (!isScalar(item)) return `${name} is ${kindOf(item)}, not a string`
  }
  return null
}

/** Env values never leave describe without showEnv; names stay, so the reader sees what is set. */
function redactEnvExtension(value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (!isObject(value)) return REDACTED
  return Object.fromEntries(Object.keys(value).map((name) => [name, REDACTED]))
}

/** A proxy URL may carry `user:password@`; the password is a secret like any other. */
function redactProxyPassword(proxyURL: string | null): string | null {
  if (proxyURL === null) return null
  // Greedy up to the authority's last "@", where a URL parser splits the userinfo off too.
  return proxyURL.replace(/^([^:/?#]+:\/\/[^/?#@:]*):[^/?#]*@/, `$1:${REDACTED}@`)
}

function redactProfile(profile: ClusterProfile, showEnv: boolean): ClusterProfile {
  const copy = structuredClone(profile)
  for (const list of [copy.status?.accessProviders, copy.status?.credentialProviders]) {
    for (const entry of arrayOf<{cluster?: Record<string, unknown>}>(list)) {
      const cluster = entry?.cluster
      if (!isObject(cluster)) continue
      if (typeof cluster.server === 'string') cluster.server = withoutUserInfo(cluster.server)
      if (typeof cluster['proxy-url'] === 'string')
        cluster['proxy-url'] = redactProxyPassword(cluster['proxy-url'])
      if (showEnv || !Array.isArray(cluster.extensions)) continue
      for (const extension of cluster.extensions) {
        if (extension?.name === ADDITIONAL_ENVS_EXTENSION)
          extension.extension = redactEnvExtension(extension.extension)
      }
    }
  }
  return copy
}

/**
 * The certificates in a kubeconfig `certificate-authority-data` value (base64 of a PEM bundle).
 * client-go trusts every certificate in the bundle, so each is listed.
 */
export function decodeCertificateAuthorityData(data: string, now: Date): CertificateAuthorityDescription {
  const compact = data.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    return {certificates: [], problems: ['undecodable: certificate-authority-data is not base64']}
  }
  const pem = Buffer.from(compact, 'base64').toString('latin1')
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) {
    return {
      certificates: [],
      problems: ['undecodable: certificate-authority-data holds no PEM certificate'],
    }
  }
  const certificates: CertificateSummary[] = []
  const problems: string[] = []
  blocks.forEach((block, index) => {
    let certificate: X509Certificate
    try {
      certificate = new X509Certificate(block)
    } catch (error) {
      problems.push(`undecodable: certificate ${index + 1} of ${blocks.length}: ${(error as Error).message}`)
      return
    }
    certificates.push(summarizeCertificate(certificate, now))
  })
  return {certificates, problems}
}

/** Subject, issuer and validity of one certificate, as describe and doctor show them. */
export function summarizeCertificate(certificate: X509Certificate, now: Date): CertificateSummary {
  const notBefore = Date.parse(certificate.validFrom)
  const notAfter = Date.parse(certificate.validTo)
  return {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    notBefore: rfc3339(notBefore),
    notAfter: rfc3339(notAfter),
    expired: now.getTime() > notAfter,
    notYetValid: now.getTime() < notBefore,
    sha256Fingerprint: certificate.fingerprint256,
  }
}

/** Node gives one attribute per line, most significant first; one line reads better. */
function distinguishedName(name: string): string {
  return name.split('\n').filter(Boolean).join(', ') || NONE
}

function rfc3339(milliseconds: number): string {
  if (Number.isNaN(milliseconds)) return NONE
  return new Date(milliseconds).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function compactJson(value: unknown): string {
  if (value === undefined) return NONE
  const json = JSON.stringify(value) ?? String(value)
  return json.length > MAX_EXTENSION_VALUE_LENGTH
    ? `${json.slice(0, MAX_EXTENSION_VALUE_LENGTH - 3)}... (${json.length} characters; -o json shows all)`
    : json
}

function isHttps(server: string): boolean {
  return /^https:\/\//i.test(server)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

/** Status lists come from the hub; a wrong shape shows as empty rather than crashing describe. */
function arrayOf<T>(value: unknown): Array<T | undefined> {
  return Array.isArray(value) ? (value as T[]) : []
}

function text(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function nonEmptyText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * kubectl describe's layout: two spaces per level, and cells aligned the way its tabwriter
 * (padding 2) aligns them, per block of consecutive lines. The printer makes every value printable.
 */
class DescribeWriter {
  private readonly rows: string[][] = []

  line(level: number, value: string): void {
    this.rows.push([indent(level) + value])
  }

  heading(level: number, title: string): void {
    this.rows.push([`${indent(level)}${title}:`])
  }

  field(level: number, key: string, value: string | undefined | null): void {
    this.rows.push([`${indent(level)}${key}:`, value || NONE])
  }

  /** Several values under one key, one per line, as kubectl prints labels. */
  list(level: number, key: string, values: string[]): void {
    if (values.length === 0) {
      this.field(level, key, '')
      return
    }
    values.forEach((value, index) => {
      this.rows.push([index === 0 ? `${indent(level)}${key}:` : indent(level), value])
    })
  }

  labels(level: number, key: string, labels: Record<string, string> | undefined): void {
    const entries = isObject(labels) ? Object.entries(labels).sort(([a], [b]) => compare(a, b)) : []
    this.list(
      level,
      key,
      entries.map(([name, value]) => `${name}=${text(value)}`),
    )
  }

  /** As kubectl's printAnnotationsMultiline: long or multi-line values go below their key, shortened. */
  annotations(level: number, key: string, annotations: Record<string, string> | undefined): void {
    const entries = (isObject(annotations) ? Object.entries(annotations) : [])
      .filter(([name]) => name !== LAST_APPLIED_ANNOTATION)
      .sort(([a], [b]) => compare(a, b))
    if (entries.length === 0) {
      this.field(level, key, '')
      return
    }
    const values: string[] = []
    for (const [name, raw] of entries) {
      const value = text(raw).replace(/\n$/, '')
      if (value.length + name.length + 2 > MAX_ANNOTATION_LENGTH || value.includes('\n')) {
        values.push(`${name}:`)
        for (const part of value.split('\n')) values.push(`  ${shorten(part, MAX_ANNOTATION_LENGTH - 2)}`)
      } else {
        values.push(`${name}: ${value}`)
      }
    }
    this.list(level, key, values)
  }

  /** A titled table with kubectl describe's dashed underline, or `<none>` when there are no rows. */
  table(level: number, title: string, headers: string[], rows: string[][]): void {
    if (rows.length === 0) {
      this.field(level, title, '')
      return
    }
    this.heading(level, title)
    const prefix = indent(level + 1)
    for (const cells of [headers, headers.map((header) => '-'.repeat(header.length)), ...rows]) {
      this.rows.push(cells.map((cell, index) => (index === 0 ? prefix : '') + cell))
    }
  }

  cells(): Cells {
    return {rows: this.rows, padding: 2, minWidth: 0, trimEnd: true}
  }
}

function indent(level: number): string {
  return '  '.repeat(level)
}

function shorten(value: string, length: number): string {
  return value.length > length ? `${value.slice(0, length)}...` : value
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
