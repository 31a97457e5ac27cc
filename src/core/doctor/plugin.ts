// Doctor's plugin links: where the plugin command is, and what a fresh run of it returned. No
// function returns any part of a secret: a token is described by its length, its type and, for a
// JWT, its aud/iss/sub/exp claims.
import {X509Certificate} from 'node:crypto'
import {DEFAULT_EXPIRY_MARGIN_SECONDS} from '../exec-credential/cache.js'
import {formatDuration} from '../duration.js'
import {ExitCode} from '../errors.js'
import {formatRfc3339, type Credential} from '../exec-credential/protocol.js'
import {humanDuration} from '../text/format.js'
import {jwtClaims, type JwtClaims} from '../exec-credential/jwt.js'
import {summarizeCertificate, type CertificateSummary} from '../describe/describe.js'
import {missingCommandHint} from '../access/plugin-commands.js'
import {MAX_CLOCK_SKEW_MS} from './clock.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'
import {octal} from './words.js'

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
        provider.installHint?.trim() || missingCommandHint(command, `install the plugin, or ${fix}`),
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

export function clientCertificate(pem: string, now: Date): CertificateSummary | undefined {
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
