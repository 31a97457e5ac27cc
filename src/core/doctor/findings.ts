// What `cpcred doctor` makes of what it found: each function turns the answers of one check (a TLS
// handshake, access reviews, a discovery document, a credential, a cache file) into ✓/!/✗, one line of
// detail and, when something is wrong, one line on how to fix it. Pure: the clock is an input and
// certificates are decoded here, not fetched. No function returns any part of a secret: a token is
// described by its length, its type and, for a JWT, its aud/iss/sub/exp claims.
import {X509Certificate} from 'node:crypto'
import {
  CONTROL_PLANE_HEALTHY,
  GROUP,
  PLURAL,
  RESOURCE,
  PROFILE_VERSIONS,
  findCondition,
  offeredProviders,
  profileKey,
  type ClusterProfile,
} from '../profiles/cluster-profile.js'
import {
  DEFAULT_EXPIRY_MARGIN_SECONDS,
  isUsable,
  parseEntry,
  type CacheEntry,
} from '../exec-credential/cache.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'
import {formatDuration} from '../duration.js'
import {ExitCode} from '../errors.js'
import {describeCredential, formatRfc3339, type Credential} from '../exec-credential/protocol.js'
import {humanDuration} from '../text/format.js'
import {jwtClaims, type JwtClaims} from '../exec-credential/jwt.js'
import {
  decodeCertificateAuthorityData,
  summarizeCertificate,
  type CertificateSummary,
} from '../describe/describe.js'
import type {Provider} from '../access/provider-file.js'
import {chooseProvider, type Resolution} from '../access/resolve-access.js'
import {isHttps} from '../access/connection.js'

// ---------------------------------------------------------------------------------------------
// The hub kubeconfig

/** How a kubeconfig user authenticates, in words (never the credential). */
export function credentialKind(user: Record<string, unknown> | undefined): string {
  const exec = user?.exec as {command?: unknown} | undefined
  if (exec) return `exec plugin ${typeof exec.command === 'string' ? exec.command : ''}`.trim()
  const authProvider = user?.['auth-provider'] as {name?: unknown} | undefined
  if (authProvider)
    return `auth-provider ${typeof authProvider.name === 'string' ? authProvider.name : ''}`.trim()
  const kinds: string[] = []
  if (user?.['client-certificate-data'] || user?.['client-certificate']) kinds.push('client certificate')
  if (user?.token) kinds.push('bearer token')
  else if (user?.tokenFile) kinds.push('token file')
  else if (user?.username !== undefined || user?.password !== undefined) kinds.push('basic auth')
  return kinds.length === 0 ? 'no credentials' : kinds.join(' and ')
}

export interface HubKubeconfigFacts {
  files: string[]
  context: string
  server: string
  user: string
  userKind: string
  namespace: string
}

export function judgeHubKubeconfig(facts: HubKubeconfigFacts): CheckOutcome {
  const detail =
    `context "${facts.context}" of ${facts.files.join(', ')}: server ${facts.server}, ` +
    `user "${facts.user}" (${facts.userKind}), namespace "${facts.namespace}"`
  return isHttps(facts.server)
    ? ok(detail)
    : warn(
        `${detail}; the server is not https, so credentials travel unencrypted`,
        'use the https URL of the hub',
      )
}

// ---------------------------------------------------------------------------------------------
// Reaching a server: TCP, TLS, and the Date header of an anonymous GET /version

/** An anonymous answer from the server (no credential is ever sent for it). */
export interface HttpAnswer {
  status: number
  /** The Date header, as sent. */
  date?: string
  sentAt: Date
  receivedAt: Date
  /** gitVersion from /version, when the server shows it to anonymous callers. */
  version?: string
}

/** What a direct look at a server found (src/adapters/server-probe.ts). */
export interface ServerProbe {
  /** The server is reached through this proxy (no credentials in it), so it was not probed directly. */
  proxy?: string
  /** The connection failed before TLS completed. */
  connectError?: {code?: string; reason: string}
  /** The handshake, completed without verification so that a failed verification can be explained. */
  tls?: {
    protocol?: string
    /** Why verification against the configured CA (and host name) failed; absent when it passed. */
    verifyError?: {code: string; reason: string}
    /** The server's certificate, DER. */
    certificate?: Uint8Array
  }
  /** Asked only over a verified connection (or an insecure one the user configured). */
  http?: HttpAnswer
  httpError?: string
}

/** The hub (whose connection the user's kubeconfig describes) or a target (whose profile does). */
export type TlsSide =
  {kind: 'hub'; cluster: string} | {kind: 'target'; profile: string; provider: string; manager?: string}

export interface TlsExpectation {
  side: TlsSide
  server: string
  /** PEM of the trusted CA bundle; undefined: this machine's trusted roots. */
  caPem?: string
  insecure: boolean
  tlsServerName?: string
}

/** A serving certificate that expires sooner than this gets a warning. */
const CERTIFICATE_RENEWAL_WARNING_MS = 7 * 24 * 3600 * 1000

export function judgeServerTls(probe: ServerProbe, expected: TlsExpectation, now: Date): CheckOutcome {
  const {server, side} = expected
  const where = sideName(side)
  if (probe.proxy) {
    return warn(
      `not probed directly: ${where} is reached through proxy ${probe.proxy}; the next checks go through it`,
    )
  }
  if (probe.connectError) {
    return fail(
      ExitCode.Unreachable,
      `cannot connect to ${server}: ${probe.connectError.reason}`,
      unreachableHint(side),
    )
  }
  const version = probe.http?.version ? `; Kubernetes ${probe.http.version}` : ''
  if (!probe.tls) {
    return warn(
      `${server} answered over plain http: credentials travel unencrypted${version}`,
      side.kind === 'hub'
        ? 'use the https URL of the hub'
        : `ask the cluster manager${managerName(side)} to publish an https server URL for provider "${side.provider}"`,
    )
  }
  const certificate = peerCertificate(probe.tls.certificate, now)
  const issued = certificate
    ? `certificate ${certificate.subject}, issued by ${certificate.issuer}`
    : 'certificate (undecodable)'
  if (expected.insecure) {
    return warn(
      `not verified (insecure-skip-tls-verify): anyone on the path can pose as ${where}; it presents ${issued}${version}`,
      side.kind === 'hub'
        ? `put the hub's CA in certificate-authority-data of cluster "${side.cluster}" and remove insecure-skip-tls-verify`
        : `ask the cluster manager${managerName(side)} to publish certificate-authority-data for provider "${side.provider}"`,
    )
  }
  const failure = probe.tls.verifyError
  if (failure) return tlsFailure(failure, certificate, expected, now)

  const trusted = expected.caPem ? `the CA in ${caSource(side)}` : "this machine's trusted roots"
  const expiry = certificate
    ? `, expires ${certificate.notAfter} (in ${untilText(certificate.notAfter, now)})`
    : ''
  const detail = `verified (${probe.tls.protocol ?? 'TLS'}) against ${trusted}: ${issued}${expiry}${version}`
  if (certificate && Date.parse(certificate.notAfter) - now.getTime() < CERTIFICATE_RENEWAL_WARNING_MS) {
    return warn(detail, `${certificateOwner(side)} should renew the serving certificate soon`)
  }
  return ok(detail)
}

interface PeerCertificate extends CertificateSummary {
  /** The DNS names and IP addresses it is valid for. */
  names: string[]
}

function peerCertificate(der: Uint8Array | undefined, now: Date): PeerCertificate | undefined {
  if (!der || der.length === 0) return undefined
  try {
    const certificate = new X509Certificate(der)
    const names = (certificate.subjectAltName ?? '')
      .split(', ')
      .map((name) => name.replace(/^(DNS|IP Address):/, ''))
      .filter(Boolean)
    return {...summarizeCertificate(certificate, now), names}
  } catch {
    return undefined
  }
}

function tlsFailure(
  failure: {code: string; reason: string},
  certificate: PeerCertificate | undefined,
  expected: TlsExpectation,
  now: Date,
): CheckOutcome {
  const {server, side} = expected
  const of = `the certificate of ${server}`
  switch (failure.code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const host = expected.tlsServerName || new URL(server).hostname.replace(/^\[|\]$/g, '')
      const names = certificate?.names.length ? certificate.names.join(', ') : 'other names'
      return fail(
        ExitCode.Unreachable,
        `${of} is for ${names}, not ${host}`,
        side.kind === 'hub'
          ? `use a server URL the certificate names, or set tls-server-name on cluster "${side.cluster}" of the hub kubeconfig`
          : `ask the cluster manager${managerName(side)} to publish a server URL the certificate names (or tls-server-name) for provider "${side.provider}"`,
      )
    }
    case 'CERT_HAS_EXPIRED':
      return fail(
        ExitCode.Unreachable,
        `${of}${certificate ? ` (${certificate.subject})` : ''} expired${certificate ? ` ${certificate.notAfter} (${sinceText(certificate.notAfter, now)} ago)` : ''}`,
        `${certificateOwner(side)} must renew it; if the date looks wrong, check this machine's clock (date -u)`,
      )
    case 'CERT_NOT_YET_VALID':
      return fail(
        ExitCode.Unreachable,
        `${of} is not valid yet${certificate ? ` (not before ${certificate.notBefore})` : ''}`,
        "check this machine's clock (date -u); it may be behind",
      )
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT': {
      const issuer = certificate?.issuer ?? 'its issuer'
      const presented = certificate ? ` (${certificate.subject}, issued by ${certificate.issuer})` : ''
      return fail(
        ExitCode.Unreachable,
        `${of}${presented} is not signed by ${trustedCas(expected, certificate?.issuer, now)}`,
        side.kind === 'hub'
          ? `set certificate-authority-data of cluster "${side.cluster}" in the hub kubeconfig to the CA that issued the hub's certificate (${issuer})`
          : `the profile's certificate-authority-data (provider "${side.provider}") is not this cluster's CA: ask the cluster manager${managerName(side)} to publish the CA that issued it (${issuer})`,
      )
    }
    default:
      return fail(
        ExitCode.Unreachable,
        `TLS verification of ${server} failed: ${failure.reason}`,
        unreachableHint(side),
      )
  }
}

function trustedCas(expected: TlsExpectation, issuer: string | undefined, now: Date): string {
  if (!expected.caPem) {
    return `any CA this machine trusts (${caSource(expected.side)} has no certificate-authority-data)`
  }
  const subjects = decodeCertificateAuthorityData(
    Buffer.from(expected.caPem).toString('base64'),
    now,
  ).certificates.map((certificate) => certificate.subject)
  // Test and home-made CAs often share a name; without saying so the message would look wrong.
  const sameName = issuer !== undefined && subjects.includes(issuer) ? ', another CA of the same name' : ''
  return `the CA in ${caSource(expected.side)}${subjects.length ? ` (${subjects.join('; ')}${sameName})` : ''}`
}

function sideName(side: TlsSide): string {
  return side.kind === 'hub' ? 'the hub' : `the target of ${side.profile}`
}

function caSource(side: TlsSide): string {
  return side.kind === 'hub' ? 'the hub kubeconfig' : `the profile's entry for provider "${side.provider}"`
}

function managerName(side: {manager?: string}): string {
  return side.manager ? ` "${side.manager}"` : ''
}

function certificateOwner(side: TlsSide): string {
  return side.kind === 'hub' ? "the hub's administrator" : "the target's administrator"
}

function unreachableHint(side: TlsSide): string {
  return side.kind === 'hub'
    ? `check that the hub is running and reachable from here, and the server of cluster "${side.cluster}" in the hub kubeconfig`
    : `check that the cluster is up and reachable from this machine (VPN, firewall, proxy); its server comes from profile ${side.profile}`
}

/** Differences up to this much between this machine and a server are normal. */
export const MAX_CLOCK_SKEW_MS = 30_000

/**
 * How far the server's clock is ahead of this one (negative: behind), from its Date header. The header
 * has whole seconds, so the server's time is taken as the middle of that second, and this machine's as
 * the middle of the request.
 */
export function clockSkewMs(answer: HttpAnswer): number | undefined {
  const serverTime = answer.date === undefined ? NaN : Date.parse(answer.date)
  if (Number.isNaN(serverTime)) return undefined
  const localTime = (answer.sentAt.getTime() + answer.receivedAt.getTime()) / 2
  return serverTime + 500 - localTime
}

export function judgeClock(answer: HttpAnswer | undefined, name: string, why?: string): CheckOutcome {
  if (!answer) return warn(`could not read ${name}'s clock${why ? `: ${why}` : ''}`)
  const skew = clockSkewMs(answer)
  if (skew === undefined) return warn(`${name} sent no usable Date header, so its clock cannot be compared`)
  const size = Math.abs(skew)
  if (size <= MAX_CLOCK_SKEW_MS) {
    return ok(`this machine's clock is within ${Math.max(1, Math.ceil(size / 1000))}s of ${name}'s`)
  }
  return warn(
    `this machine's clock is ${humanDuration(size)} ${skew > 0 ? 'behind' : 'ahead of'} ${name}'s (its Date header)`,
    "sync this machine's clock (e.g. timedatectl set-ntp true): a skew makes fresh tokens look expired or not yet valid",
  )
}

// ---------------------------------------------------------------------------------------------
// The hub: identity, RBAC, the API

export interface UserInfo {
  username?: string
  groups?: string[]
}

/** Who a server says you are. */
export function identityText(user: UserInfo): string {
  const groups = user.groups?.length ? ` (groups ${user.groups.join(', ')})` : ''
  return `you are ${user.username || '<no name>'}${groups}`
}

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

/** The answer of one SelfSubjectAccessReview on clusterprofiles. */
export interface AccessAnswer {
  verb: string
  allowed: boolean
  reason?: string
}

/** Why a verb that is not required still matters. */
const OPTIONAL_VERB_USE: Record<string, string> = {
  list: "'cpcred list', -l and --all need it",
  watch: 'only watching needs it',
}

export function judgeRbac(
  answers: AccessAnswer[],
  required: readonly string[],
  scope: {user: string; namespace?: string},
): CheckOutcome {
  const where = scope.namespace ? `in namespace "${scope.namespace}"` : 'in all namespaces'
  const denied = answers.filter((answer) => !answer.allowed)
  const missing = denied.filter((answer) => required.includes(answer.verb))
  if (missing.length > 0) {
    const reason = missing.map((answer) => answer.reason).find(Boolean)
    return fail(
      ExitCode.Denied,
      `${scope.user} may not ${missing.map((answer) => answer.verb).join(' or ')} ${RESOURCE} ${where}${reason ? ` (${reason})` : ''}`,
      `ask the hub administrator to grant ${scope.user} get and list on ${RESOURCE} ${where} (docs/examples/hub-consumer.yaml is such a role)`,
    )
  }
  const allowed = answers.filter((answer) => answer.allowed).map((answer) => answer.verb)
  const notes = denied.map((answer) => `not ${answer.verb} (${OPTIONAL_VERB_USE[answer.verb] ?? 'optional'})`)
  return ok(
    `${scope.user} may ${allowed.join(', ')} ${PLURAL} ${where}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  )
}

/** The discovery documents of the ClusterProfile API group (GET /apis/GROUP and /apis/GROUP/<version>). */
export interface ApiGroupDocument {
  versions?: {version?: string}[]
  preferredVersion?: {version?: string}
}

export interface ApiResourcesDocument {
  resources?: {name?: string; namespaced?: boolean}[]
}

const CRD_HINT =
  'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or point --context at the hub cluster'

/**
 * `version` is the one cpcred reads (--api-version, else the first of v1alpha2 and v1alpha1 whose
 * resources name clusterprofiles, else the first served), undefined when the hub serves neither;
 * `resources` is that version's document.
 */
export function judgeApi(
  group: ApiGroupDocument | undefined,
  resources: ApiResourcesDocument | undefined,
  version: string | undefined,
  forced?: string,
): CheckOutcome {
  if (!group) {
    return fail(
      ExitCode.Unreachable,
      `the hub does not serve the ${GROUP} API: the ClusterProfile CRD is not installed`,
      CRD_HINT,
    )
  }
  const versions = (group.versions ?? []).map((entry) => entry.version).filter((v): v is string => Boolean(v))
  const served = `versions ${versions.join(', ') || 'none'}, preferred ${group.preferredVersion?.version ?? 'none'}`
  if (version === undefined) {
    const wanted = forced ?? PROFILE_VERSIONS.join(' or ')
    return fail(
      ExitCode.Unreachable,
      `the hub serves ${GROUP} ${served}, but not ${wanted}, which cpcred reads`,
      forced
        ? 'leave out --api-version, or use a version the hub serves'
        : `serve ${PROFILE_VERSIONS.join(' or ')} from the ClusterProfile CRD on the hub (the upstream CRD does)`,
    )
  }
  const names = (resources?.resources ?? []).map((resource) => resource.name)
  const profiles = resources?.resources?.find((resource) => resource.name === PLURAL)
  if (!profiles) {
    return fail(ExitCode.Unreachable, `the hub serves ${GROUP}/${version} without ${PLURAL}`, CRD_HINT)
  }
  if (profiles.namespaced !== true) {
    return fail(
      ExitCode.Unreachable,
      `the hub serves ${PLURAL} cluster-scoped; the Cluster Inventory API defines them namespaced`,
      'install the upstream ClusterProfile CRD on the hub',
    )
  }
  const detail = `${GROUP}/${version} ${PLURAL} served and read (${served})`
  return names.includes(`${PLURAL}/status`)
    ? ok(detail)
    : warn(
        `${detail}, without a status subresource`,
        'install the upstream ClusterProfile CRD, which has one',
      )
}

// ---------------------------------------------------------------------------------------------
// The provider file and the profiles

export function judgeProviderFile(source: string, providers: Provider[], warnings: string[]): CheckOutcome {
  if (providers.length === 0) {
    return fail(
      ExitCode.Failure,
      `no providers, so no cluster can be reached: ${source}`,
      'write a provider file (docs/providers.md), or pass --provider-file or --access-provider',
    )
  }
  const detail = `${source}: ${count(providers.length, 'provider')} (${providers.map((provider) => provider.name).join(', ')})`
  return warnings.length === 0
    ? ok(detail)
    : warn(`${detail}; ${warnings.join('; ')}`, 'fix or remove what the warning names')
}

/** Which providers no profile in scope offers, and how many profiles can be reached at all. */
export function judgeProviderUsage(
  providers: Provider[],
  profiles: ClusterProfile[],
  where: string,
): CheckOutcome {
  if (profiles.length === 0) {
    return warn(`no ClusterProfiles ${where}`, 'look elsewhere with -n NAMESPACE or -A')
  }
  const offered = new Set(profiles.flatMap((profile) => offeredProviders(profile).map((entry) => entry.name)))
  const reachable = profiles.filter((profile) => chooseProvider(profile, providers) !== undefined).length
  const reach = `${reachable} of ${count(profiles.length, 'profile')} ${where} can be reached with your providers`
  const unused = providers
    .filter((provider) => !offered.has(provider.name))
    .map((provider) => `"${provider.name}"`)
  if (unused.length === 0) return ok(reach)
  return warn(
    `${reach}; no profile ${where} offers ${unused.join(', ')}`,
    "remove unused providers, or check their names against what the profiles offer ('cpcred list -o wide')",
  )
}

export function judgeProfile(profile: ClusterProfile): CheckOutcome {
  const manager = profile.spec?.clusterManager?.name
  const base = `${profileKey(profile)}, managed by "${manager ?? '<none>'}"`
  const health = findCondition(profile, CONTROL_PLANE_HEALTHY)
  if (!health) return ok(`${base}; no ${CONTROL_PLANE_HEALTHY} condition reported`)
  const said = `${CONTROL_PLANE_HEALTHY} ${health.status}${health.reason ? ` (${health.reason})` : ''}`
  if (health.status === 'True') return ok(`${base}; ${said}`)
  return warn(
    `${base}; ${said}${health.message ? `: ${health.message}` : ''}`,
    `its cluster manager reports the control plane as not healthy: the target may not answer`,
  )
}

/** The provider that was chosen and why: the same decisions `cpcred describe` shows. */
export function judgeResolution(resolution: Resolution, profile: ClusterProfile): CheckOutcome {
  // resolveAccess says first which provider it chose and why, then which status list the cluster
  // comes from; the rest (arguments, environment) is describe's to show.
  const [chosen, source] = resolution.decisions
  const hidesDeprecated =
    resolution.offered.source === 'accessProviders' &&
    (profile.status?.credentialProviders ?? []).some((entry) => entry.name === resolution.provider.name)
  const detail = [
    chosen,
    source,
    hidesDeprecated ? 'It overrides the deprecated credentialProviders entry of the same name.' : undefined,
  ]
    .filter(Boolean)
    .join(' ')
  if (resolution.warnings.length === 0) return ok(detail)
  return warn(
    `${detail} ${resolution.warnings.join(' ')}`,
    resolution.offered.source === 'credentialProviders'
      ? 'ask the cluster manager to publish status.accessProviders'
      : "ask the profile's cluster manager to fix what the warning names",
  )
}

// ---------------------------------------------------------------------------------------------
// The plugin

/** Where a plugin command was found, as a program start finds it (src/adapters/executables.ts). */
export type ExecutableLookup =
  | {kind: 'found'; path: string; fromPath: boolean}
  | {kind: 'not-found'; searched: string[]}
  | {kind: 'not-executable'; path: string; mode: number}
  | {kind: 'not-a-file'; path: string}

export function judgePluginCommand(
  lookup: ExecutableLookup,
  command: string,
  provider: {name: string; installHint?: string; source: string},
): CheckOutcome {
  const fix = `fix execConfig.command of provider "${provider.name}" in ${provider.source}`
  switch (lookup.kind) {
    case 'found':
      return ok(
        lookup.fromPath
          ? `${command} is ${lookup.path} (found in PATH)`
          : `${lookup.path} is an executable file`,
      )
    case 'not-found':
      return fail(
        ExitCode.PluginFailed,
        command.includes('/')
          ? `${command} does not exist`
          : `${command} is not in PATH (${lookup.searched.join(':') || 'empty'})`,
        provider.installHint?.trim() || `install the plugin, or ${fix}`,
      )
    case 'not-executable':
      return fail(
        ExitCode.PluginFailed,
        `${lookup.path} is not executable (mode ${octal(lookup.mode)})`,
        `chmod +x ${lookup.path}`,
      )
    case 'not-a-file':
      return fail(ExitCode.PluginFailed, `${lookup.path} is not a file`, fix)
  }
}

/** What a credential is, for people: never any part of a secret. */
export function describeCredentialShape(credential: Credential, now: Date): string {
  const parts: string[] = []
  if (credential.token) {
    const claims = jwtClaims(credential.token)
    const length = `${credential.token.length} characters`
    parts.push(
      claims
        ? `bearer token (JWT, ${length}: ${claimsText(claims, now)})`
        : `bearer token (opaque, ${length})`,
    )
  }
  if (credential.clientCertificateData) {
    const certificate = clientCertificate(credential.clientCertificateData, now)
    parts.push(
      certificate
        ? `client certificate ${certificate.subject}, issued by ${certificate.issuer}, valid until ${certificate.notAfter}`
        : 'client certificate (undecodable PEM)',
    )
  }
  const expiresAt = credential.expiresAt
  const expiry = expiresAt
    ? `expires ${formatRfc3339(expiresAt)} (in ${humanDuration(expiresAt.getTime() - now.getTime())})`
    : 'no expirationTimestamp (kubectl asks again only after a 401; cpcred caches it only with --cache-ttl)'
  return `${parts.join(' and ')}, ${expiry}`
}

function claimsText(claims: JwtClaims, now: Date): string {
  const parts = [
    `aud ${claims.audiences.join(', ') || '<none>'}`,
    `iss ${claims.issuer ?? '<none>'}`,
    claims.subject === undefined ? undefined : `sub ${claims.subject}`,
    claims.expiresAt ? `exp ${formatRfc3339(claims.expiresAt)}` : 'no exp',
  ]
  if (claims.expiresAt && claims.expiresAt <= now) parts.push('EXPIRED')
  return parts.filter(Boolean).join(', ')
}

function clientCertificate(pem: string, now: Date): CertificateSummary | undefined {
  try {
    return summarizeCertificate(new X509Certificate(pem), now)
  } catch {
    return undefined
  }
}

export interface PluginRunFacts {
  credential: Credential
  elapsedMs: number
  timeoutMs: number
  now: Date
}

export function judgePluginRun(facts: PluginRunFacts): CheckOutcome {
  const {credential, now} = facts
  const detail = `${describeCredentialShape(credential, now)}; took ${formatDuration(facts.elapsedMs)}`
  const claims = credential.token ? jwtClaims(credential.token) : undefined
  if (claims?.expiresAt && claims.expiresAt <= now) {
    return fail(
      ExitCode.PluginFailed,
      `${detail}; the token expired at ${formatRfc3339(claims.expiresAt)}`,
      "the plugin handed out an expired token: check its own cache and this machine's clock (date -u)",
    )
  }
  if (claims?.notBefore && claims.notBefore.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) {
    return warn(
      `${detail}; the token is not valid before ${formatRfc3339(claims.notBefore)}`,
      "check this machine's clock and the issuer's (date -u)",
    )
  }
  const margin = DEFAULT_EXPIRY_MARGIN_SECONDS * 1000
  if (
    claims?.expiresAt &&
    credential.expiresAt &&
    claims.expiresAt.getTime() + margin < credential.expiresAt.getTime()
  ) {
    return warn(
      `${detail}; the token's exp is before the expirationTimestamp the plugin reported`,
      "the plugin should report the token's own expiry: until then kubectl and the cache keep using it after it expired",
    )
  }
  if (facts.elapsedMs > facts.timeoutMs / 2) {
    return warn(
      detail,
      'the plugin took more than half of --plugin-timeout; raise it if the plugin is slow at times',
    )
  }
  return ok(detail)
}

// ---------------------------------------------------------------------------------------------
// The target

/** Why a target answered 401 to this credential, as far as the credential itself can tell. */
export function explainRejection(
  credential: Credential,
  server: string,
  now: Date,
): {detail: string; hint: string} {
  if (credential.token) {
    const claims = jwtClaims(credential.token)
    if (!claims) {
      return {
        detail: `${server} rejected the bearer token (401 Unauthorized; opaque, ${credential.token.length} characters)`,
        hint: 'the token is not valid on this cluster: check that the plugin logs in to the identity this cluster expects',
      }
    }
    const audiences = claims.audiences.join(', ') || '<none>'
    if (claims.expiresAt && claims.expiresAt <= now) {
      return {
        detail: `${server} rejected the token (401 Unauthorized): it expired at ${formatRfc3339(claims.expiresAt)}`,
        hint: "the plugin handed out an expired token: check its own cache and this machine's clock (date -u)",
      }
    }
    if (!claims.audiences.some((audience) => sameUrl(audience, server))) {
      return {
        detail: `${server} rejected the token (401 Unauthorized): its audience is ${audiences}, not the target's URL ${server}`,
        hint:
          `have the plugin ask for a token with audience ${server} (token-request: provideClusterInfo true, or --audience); ` +
          'if the target expects another audience, add this one to its AuthenticationConfiguration',
      }
    }
    return {
      detail:
        `${server} rejected the token (401 Unauthorized) from issuer ${claims.issuer ?? '<none>'} for audience ${audiences}: ` +
        'the target does not trust that issuer, or no longer accepts this token',
      hint:
        `the target's administrator must trust issuer ${claims.issuer ?? '<none>'} for audience ${server} ` +
        '(AuthenticationConfiguration jwt[].issuer, docs/flow-token-request.md); if it does, the token was revoked (its service account deleted or recreated)',
    }
  }
  const certificate = credential.clientCertificateData
    ? clientCertificate(credential.clientCertificateData, now)
    : undefined
  return {
    detail: `${server} rejected the client certificate${certificate ? ` ${certificate.subject}, issued by ${certificate.issuer}` : ''} (401 Unauthorized)`,
    hint: `the target's --client-ca-file must include the CA that issued it${certificate ? ` (${certificate.issuer})` : ''}`,
  }
}

/** URLs that name the same server: a trailing slash or the case of the host makes no difference. */
function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => url.replace(/\/+$/, '').toLowerCase()
  return normal(a) === normal(b)
}

// ---------------------------------------------------------------------------------------------
// The cache

/** What is on disk for one cache key. */
export interface CacheFiles {
  dir: string
  /** undefined: the directory does not exist. */
  dirInfo?: {mode: number; uid: number}
  file: string
  fileInfo?: {mode: number; uid: number}
  text?: string
  /** This process's uid, where there is one. */
  uid?: number
}

export interface CacheFinding {
  outcome: CheckOutcome
  /** The entry cpcred would serve now, if any. */
  usable?: CacheEntry
}

export function judgeCache(files: CacheFiles, key: string, profile: string, now: Date): CacheFinding {
  const {dir, file} = files
  if (!files.dirInfo) return {outcome: ok(`no cached credentials yet (${dir} does not exist)`)}
  if (files.fileInfo) {
    const foreign = files.uid !== undefined && files.fileInfo.uid !== files.uid
    if ((files.fileInfo.mode & 0o077) !== 0 || foreign) {
      return {
        outcome: fail(
          ExitCode.Failure,
          foreign
            ? `${file} belongs to another user (uid ${files.fileInfo.uid}), who can read or replace the cached credential of ${profile}`
            : `${file} is mode ${octal(files.fileInfo.mode)}: other users may read the cached credential of ${profile}`,
          `remove it with 'cpcred cache clear ${profile}' (cpcred writes entries 0600)`,
        ),
      }
    }
  }
  if (files.uid !== undefined && files.dirInfo.uid !== files.uid) {
    return {
      outcome: warn(
        `${dir} belongs to another user (uid ${files.dirInfo.uid}), so cpcred does not use the cache`,
        'remove the directory, or set XDG_CACHE_HOME to a directory of your own',
      ),
    }
  }
  if ((files.dirInfo.mode & 0o077) !== 0) {
    return {
      outcome: warn(
        `${dir} is mode ${octal(files.dirInfo.mode)}; cpcred narrows it to 0700 on its next write`,
        `chmod 700 ${dir}`,
      ),
    }
  }
  if (files.text === undefined) {
    return {outcome: ok(`no entry for ${profile}: the next credential comes from the plugin (${dir})`)}
  }
  const entry = parseEntry(files.text, key)
  if (!entry) {
    return {
      outcome: warn(
        `${file} is unreadable or from another cpcred version; it is ignored and replaced`,
        `remove it with 'cpcred cache clear ${profile}'`,
      ),
    }
  }
  if (!isUsable(entry, now)) {
    return {
      outcome: ok(
        `an expired entry (${describeCredential(entry.credential)}); the next credential comes from the plugin`,
      ),
    }
  }
  const servedUntil = new Date(entry.expiresAt.getTime() - DEFAULT_EXPIRY_MARGIN_SECONDS * 1000)
  return {
    outcome: ok(
      `${file} (${octal(files.fileInfo?.mode ?? 0o600)}): ${describeCredential(entry.credential)}, served until ${formatRfc3339(servedUntil)}`,
    ),
    usable: entry,
  }
}

/** A usable cache entry that the target refuses: cpcred would keep serving it until it expires. */
export function rejectedCacheEntry(entry: CacheEntry, profile: string): CheckOutcome {
  return fail(
    ExitCode.Denied,
    `the target rejects the cached credential (${describeCredential(entry.credential)}), which cpcred serves until shortly before it expires`,
    `remove it with 'cpcred cache clear ${profile}'`,
  )
}

// ---------------------------------------------------------------------------------------------

function untilText(timestamp: string, now: Date): string {
  return humanDuration(Date.parse(timestamp) - now.getTime())
}

function sinceText(timestamp: string, now: Date): string {
  return humanDuration(now.getTime() - Date.parse(timestamp))
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** What credential and exec do while the hub is down, for one profile or for all. */
export interface HubOutageFallback {
  maxStaleMs: number
  /** NAMESPACE/NAME, when one profile is checked. */
  profile?: string
  /** How old that profile's last copy is; undefined when none was kept. */
  ageMs?: number
}

/**
 * The hint for a hub that cannot be reached: how cpcred carries on meanwhile (the last copy of a
 * profile, within --profile-max-stale, with cached credentials only), or why it cannot.
 */
export function hubOutageHint(fallback: HubOutageFallback): string {
  const bound = `--profile-max-stale ${formatDuration(fallback.maxStaleMs)}`
  if (fallback.maxStaleMs <= 0) return `${bound}: cpcred credential and exec fail until the hub is back`
  if (fallback.profile === undefined) {
    return `meanwhile cpcred credential and exec use profiles read within ${bound}, with credentials already cached`
  }
  if (fallback.ageMs === undefined) {
    return `no copy of ${fallback.profile} was kept, so cpcred credential and exec fail for it until the hub is back`
  }
  const age = humanDuration(fallback.ageMs)
  if (fallback.ageMs > fallback.maxStaleMs) {
    return `the last copy of ${fallback.profile} was read ${age} ago, older than ${bound} allows: cpcred credential and exec fail for it until the hub is back`
  }
  const left = humanDuration(fallback.maxStaleMs - fallback.ageMs)
  return `meanwhile cpcred credential and exec use ${fallback.profile} as read ${age} ago (${bound}: ${left} more), with credentials already cached`
}
