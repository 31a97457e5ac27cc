// The credential cache policy: which credential may be served for which request (the key), how an entry is
// written and read back, and when it is too close to expiry to hand out. The file store is an adapter;
// this module only computes (docs/design.md §5: a credential obtained for one identity is never served for another).

import {createHash} from 'node:crypto'
import type {ProfileCluster} from '../profiles/cluster-profile.js'
import type {ExecApiVersion, ExecConfig, ExecEnvVar} from '../access/exec-config.js'
import {parseRfc3339, type Credential} from './protocol.js'
import {isRecord} from '../json.js'

/**
 * Everything that decides whose credential a plugin returns and for which target. Left out on purpose:
 * interactiveMode and the interactive flag (how the plugin talks to the user, not who it logs in),
 * installHint, and disable-compression (a transport option).
 */
export interface CacheKeyInput {
  /** The hub the profile was read from: its server, user and context, computed by the caller. */
  hub: string
  provider: string
  /** The plugin is told this version and may answer differently for it. */
  apiVersion: ExecApiVersion
  command: string
  args: string[]
  /** In order: for a repeated name the last value wins in the child's environment. */
  env: ExecEnvVar[]
  /** Whether the plugin sees the cluster at all; it may pick a different identity when it does not. */
  provideClusterInfo: boolean
  server: string
  certificateAuthorityData?: string
  tlsServerName?: string
  proxyUrl?: string
  insecureSkipTlsVerify?: boolean
  /** The client.authentication.k8s.io/exec extension value (spec.cluster.config). */
  execConfig?: unknown
  /**
   * The hub ServiceAccount whose token the plugin exchanged (a provider's serviceAccountToken block):
   * who it is (its UID, so a ServiceAccount deleted and made again is another identity) and what the
   * token was for. Absent for other providers, whose keys stay as they were.
   */
  serviceAccount?: FederatedIdentity
}

export interface FederatedIdentity {
  namespace: string
  name: string
  /** From the minted token's claims; the subject when the token carries no UID. */
  uid: string
  audience: string
  fileEnv: string
}

/** Builds the key input from what the plugin will actually be run with, so no field is forgotten. */
export function cacheKeyInput(
  hub: string,
  provider: string,
  exec: ExecConfig,
  cluster: ProfileCluster | undefined,
  execConfig: unknown,
): CacheKeyInput {
  return {
    hub,
    provider,
    apiVersion: exec.apiVersion,
    command: exec.command,
    args: exec.args ?? [],
    env: exec.env ?? [],
    provideClusterInfo: exec.provideClusterInfo === true,
    server: cluster?.server ?? '',
    certificateAuthorityData: cluster?.['certificate-authority-data'],
    tlsServerName: cluster?.['tls-server-name'],
    proxyUrl: cluster?.['proxy-url'],
    insecureSkipTlsVerify: cluster?.['insecure-skip-tls-verify'],
    execConfig,
  }
}

// Bump when the meaning of a key changes, so old entries simply stop matching.
const KEY_SCHEMA = 1

/**
 * Hex sha256 of a canonical JSON of the input. Values that mean the same to client-go hash the same: an
 * empty string and an absent one, false and an absent flag, a null and an absent exec config.
 */
export function cacheKey(input: CacheKeyInput): string {
  const identity = {
    schema: KEY_SCHEMA,
    hub: input.hub,
    provider: input.provider,
    apiVersion: input.apiVersion,
    command: input.command,
    args: [...input.args],
    env: input.env.map(({name, value}) => ({name, value})),
    provideClusterInfo: input.provideClusterInfo,
    cluster: {
      server: input.server,
      certificateAuthorityData: input.certificateAuthorityData || undefined,
      tlsServerName: input.tlsServerName || undefined,
      proxyUrl: input.proxyUrl || undefined,
      insecureSkipTlsVerify: input.insecureSkipTlsVerify === true || undefined,
    },
    execConfig: input.execConfig ?? null,
    serviceAccount: input.serviceAccount && {
      namespace: input.serviceAccount.namespace,
      name: input.serviceAccount.name,
      uid: input.serviceAccount.uid,
      audience: input.serviceAccount.audience,
      fileEnv: input.serviceAccount.fileEnv,
    },
  }
  return createHash('sha256').update(canonicalJson(identity)).digest('hex')
}

/** JSON with object keys sorted at every depth and arrays kept in order; undefined members are dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null'
  if (typeof value === 'bigint') throw new TypeError('canonicalJson: a bigint has no JSON form')
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isDropped(item) ? 'null' : canonicalJson(item))).join(',')}]`
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>
    const members = Object.keys(record)
      .filter((key) => !isDropped(record[key]))
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    return `{${members.join(',')}}`
  }
  return 'null'
}

function isDropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

export const CACHE_ENTRY_VERSION = 1

export interface CacheEntry {
  version: typeof CACHE_ENTRY_VERSION
  key: string
  credential: Credential
  obtainedAt: Date
  /** When the entry stops being served: the credential's expiry, capped by a TTL (see expiryFor). */
  expiresAt: Date
}

/**
 * How long a cache entry lives: the credential's own expirationTimestamp, capped by ttlSeconds when given.
 * A credential without expiry is cached only for a TTL (client-go would keep it for its whole process, but
 * cpcred's cache outlives processes, and a revoked token must stop being served some time). A TTL of 0
 * turns caching off.
 */
export function expiryFor(credential: Credential, obtainedAt: Date, ttlSeconds?: number): Date | undefined {
  if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds >= 0)) {
    throw new RangeError(`cache TTL must be a non-negative number of seconds, got ${ttlSeconds}`)
  }
  if (ttlSeconds === 0) return undefined
  const own = credentialExpiry(credential)
  const capped = ttlSeconds === undefined ? undefined : new Date(obtainedAt.getTime() + ttlSeconds * 1000)
  if (own === undefined) return capped
  if (capped === undefined) return own
  return own.getTime() <= capped.getTime() ? own : capped
}

/** The entry to store, or undefined when the credential must not be cached. */
export function createEntry(
  key: string,
  credential: Credential,
  obtainedAt: Date,
  ttlSeconds?: number,
): CacheEntry | undefined {
  const expiresAt = expiryFor(credential, obtainedAt, ttlSeconds)
  if (expiresAt === undefined) return undefined
  return {version: CACHE_ENTRY_VERSION, key, credential, obtainedAt, expiresAt}
}

/**
 * Margin before expiry within which a cached credential is no longer handed out. client-go and kubelogin
 * treat a credential as good until the exact expiry instant, but they use it in-process; cpcred hands it to
 * kubectl, which then sends requests with it and, on a 401, asks cpcred again — so serving it up to the last
 * second would hand back the same rejected token. Sixty seconds covers ordinary clock skew between this
 * machine and the API server plus the length of a typical command, and is 10% of the shortest lifetime
 * TokenRequest allows (600s), so short-lived service-account tokens still come from the cache most of the time.
 * (Pinniped uses 10 minutes for OIDC ID tokens, too long for 10-minute tokens.)
 */
export const DEFAULT_EXPIRY_MARGIN_SECONDS = 60

/**
 * Whether an entry may be served at `now`. It must remain valid for more than the margin; and an entry that
 * claims to be from the future (the clock went back) is not trusted, since its expiry can no longer be judged.
 */
export function isUsable(
  entry: CacheEntry,
  now: Date,
  marginSeconds = DEFAULT_EXPIRY_MARGIN_SECONDS,
): boolean {
  if (entry.obtainedAt.getTime() > now.getTime() + marginSeconds * 1000) return false
  return now.getTime() < servedUntil(entry, marginSeconds).getTime()
}

/** The instant from which isUsable no longer serves the entry: its expiry less the margin. */
export function servedUntil(entry: CacheEntry, marginSeconds = DEFAULT_EXPIRY_MARGIN_SECONDS): Date {
  const own = credentialExpiry(entry.credential)
  const expiresAt =
    own === undefined ? entry.expiresAt.getTime() : Math.min(own.getTime(), entry.expiresAt.getTime())
  return new Date(expiresAt - marginSeconds * 1000)
}

/** exec's default floor on a credential's remaining lifetime, unless half its lifetime is less. */
export const EXEC_MIN_LIFETIME_CAP_SECONDS = 300

/**
 * How long a credential must still be valid to be handed out, from how long it lives in all
 * (expiry less the time it was obtained). Given (--min-credential-lifetime), that many seconds;
 * otherwise, for a command that runs for a while (exec), the lesser of 5 minutes and half the
 * lifetime: a command started with it then has a working credential for a while, while a credential
 * that lives 10 minutes is still served from the cache for half of them. For kubectl, which asks
 * again on 401 and at expiry, the cache's margin is enough (`cpcred credential`).
 */
export type LifetimeRule = (lifetimeSeconds: number | undefined) => number

export function lifetimeRule(minLifetimeSeconds: number | undefined, forCommand: boolean): LifetimeRule {
  if (minLifetimeSeconds !== undefined) return () => minLifetimeSeconds
  if (!forCommand) return () => DEFAULT_EXPIRY_MARGIN_SECONDS
  return (lifetime) =>
    lifetime === undefined
      ? DEFAULT_EXPIRY_MARGIN_SECONDS
      : Math.min(EXEC_MIN_LIFETIME_CAP_SECONDS, lifetime / 2)
}

/** The margin the rule asks of an entry: its lifetime runs from obtainedAt to its expiry. */
export function entryMargin(entry: CacheEntry, rule: LifetimeRule | undefined): number {
  if (!rule) return DEFAULT_EXPIRY_MARGIN_SECONDS
  const own = credentialExpiry(entry.credential)
  const expiresAt =
    own === undefined ? entry.expiresAt.getTime() : Math.min(own.getTime(), entry.expiresAt.getTime())
  return rule(Math.max(0, (expiresAt - entry.obtainedAt.getTime()) / 1000))
}

/** Versioned JSON; the credential is stored as the plugin gave it (expirationTimestamp, not the parsed Date). */
export function serializeEntry(entry: CacheEntry): string {
  const {token, clientCertificateData, clientKeyData, expirationTimestamp} = entry.credential
  return `${JSON.stringify({
    version: entry.version,
    key: entry.key,
    obtainedAt: entry.obtainedAt.toISOString(),
    expiresAt: entry.expiresAt.toISOString(),
    credential: {token, clientCertificateData, clientKeyData, expirationTimestamp},
  })}\n`
}

/**
 * The entry in `text` if it is a well-formed entry of this version for `key`; anything else (unreadable, an
 * older or newer version, another key, a credential that breaks the protocol's rules) is undefined, so the
 * caller drops it and asks the plugin again. Never throws.
 */
export function parseEntry(text: string, key: string): CacheEntry | undefined {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isRecord(document)) return undefined
  if (document.version !== CACHE_ENTRY_VERSION || document.key !== key) return undefined
  const obtainedAt = typeof document.obtainedAt === 'string' ? parseRfc3339(document.obtainedAt) : undefined
  const expiresAt = typeof document.expiresAt === 'string' ? parseRfc3339(document.expiresAt) : undefined
  if (obtainedAt === undefined || expiresAt === undefined) return undefined
  const credential = readCredential(document.credential)
  if (credential === undefined) return undefined
  // An entry that outlives its own credential was not written by createEntry.
  if (credential.expiresAt !== undefined && expiresAt.getTime() > credential.expiresAt.getTime())
    return undefined
  return {version: CACHE_ENTRY_VERSION, key, credential, obtainedAt, expiresAt}
}

function readCredential(value: unknown): Credential | undefined {
  if (!isRecord(value)) return undefined
  const fields = ['token', 'clientCertificateData', 'clientKeyData', 'expirationTimestamp'] as const
  const credential: Credential = {}
  for (const field of fields) {
    const fieldValue = value[field]
    if (fieldValue === undefined) continue
    if (typeof fieldValue !== 'string' || fieldValue === '') return undefined
    credential[field] = fieldValue
  }
  const hasCertificate = credential.clientCertificateData !== undefined
  if (hasCertificate !== (credential.clientKeyData !== undefined)) return undefined
  if (credential.token === undefined && !hasCertificate) return undefined
  if (credential.expirationTimestamp !== undefined) {
    const expiresAt = parseRfc3339(credential.expirationTimestamp)
    if (expiresAt === undefined) return undefined
    credential.expiresAt = expiresAt
  }
  return credential
}

function credentialExpiry(credential: Credential): Date | undefined {
  if (credential.expiresAt !== undefined) return credential.expiresAt
  return credential.expirationTimestamp === undefined
    ? undefined
    : parseRfc3339(credential.expirationTimestamp)
}
