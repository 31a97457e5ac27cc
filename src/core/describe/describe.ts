// `cpcred describe <profile>` as kubectl-describe text, laid out from describeProfileData.
//
// Everything a profile says is data, never a command: the text comes out as cells, which the printer
// makes printable (a condition message cannot start a fake "Command:" line or send terminal
// escapes), and the only command shown is the one resolveAccess builds from the provider file.
import {federationFields} from './federation.js'
import {quote} from 'shell-quote'
import {isHttps} from '../access/connection.js'
import {age, humanDuration, type Cells} from '../text/format.js'
import type {CertificateAuthorityDescription} from './certificates.js'
import {
  describeProfileData,
  type DescribeInput,
  type OfferedProviderDescription,
  type ProfileDescription,
} from './data.js'
import {REDACTED} from './redact.js'
import {arrayOf, compactJson, optionalText, text} from './values.js'
import {DescribeWriter} from './writer.js'

export * from './data.js'
export {
  decodeCertificateAuthorityData,
  summarizeCertificate,
  type CertificateAuthorityDescription,
  type CertificateSummary,
} from './certificates.js'

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
    data.clustersets.map((membership) => `${membership.clusterset} (${membership.from})`).join(', ') ||
      undefined,
  )
  if (input.placedBy?.length) out.list(0, 'Placed By', input.placedBy)
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
  if (resolution.serviceAccountToken) {
    for (const [label, value] of federationFields(resolution.serviceAccountToken)) out.field(1, label, value)
  }
  out.heading(1, 'Decisions')
  for (const decision of resolution.decisions) out.line(2, `- ${decision}`)
}
