// Doctor's links to a server (the hub's or a target's): the TCP connection, the TLS handshake and
// the certificate presented, each failure with the remedy for that side. The kinds of TLS failure are
// src/core/failures.ts's, shared with the ordinary error path.
import {X509Certificate} from 'node:crypto'
import {ExitCode} from '../errors.js'
import {CHECK_CLOCK, tlsFailureKind} from '../failures.js'
import {humanDuration} from '../text/format.js'
import {
  decodeCertificateAuthorityData,
  summarizeCertificate,
  type CertificateSummary,
} from '../describe/describe.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'

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
  switch (tlsFailureKind(failure.code)) {
    case 'host-name': {
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
    case 'expired':
      return fail(
        ExitCode.Unreachable,
        `${of}${certificate ? ` (${certificate.subject})` : ''} expired${certificate ? ` ${certificate.notAfter} (${sinceText(certificate.notAfter, now)} ago)` : ''}`,
        `${certificateOwner(side)} must renew it; if the date looks wrong, ${CHECK_CLOCK}`,
      )
    case 'not-yet-valid':
      return fail(
        ExitCode.Unreachable,
        `${of} is not valid yet${certificate ? ` (not before ${certificate.notBefore})` : ''}`,
        `${CHECK_CLOCK}; it may be behind`,
      )
    case 'untrusted': {
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

function untilText(timestamp: string, now: Date): string {
  return humanDuration(Date.parse(timestamp) - now.getTime())
}

function sinceText(timestamp: string, now: Date): string {
  return humanDuration(now.getTime() - Date.parse(timestamp))
}
