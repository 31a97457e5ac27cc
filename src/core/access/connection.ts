// The one cluster-connection model (client-go's rest.Config, for cpcred): how a target cluster is
// reached. A profile's cluster entry is judged here once, where it enters cpcred, and every path that
// reaches a cluster derives what it needs from the model by the functions below: a kubeconfig cluster
// entry, an ExecCredential's spec.cluster, a REST client's endpoint, and the warnings people must hear.
// A new connection field is added here and every path has it.
import {CpcredError} from '../errors.js'

/** How to reach the cluster, from the profile's provider entry. Never a command. */
export interface ClusterConnection {
  server: string
  'certificate-authority-data'?: string
  'tls-server-name'?: string
  'proxy-url'?: string
  'insecure-skip-tls-verify'?: boolean
  'disable-compression'?: boolean
}

/** A cluster entry as a profile or a kubeconfig gives it: the connection, maybe with a file path. */
export interface ClusterEntryFields extends ClusterConnection {
  'certificate-authority'?: string
}

const STRING_FIELDS = ['certificate-authority-data', 'tls-server-name', 'proxy-url'] as const
const BOOLEAN_FIELDS = ['insecure-skip-tls-verify', 'disable-compression'] as const
/** Every field of the model. */
export const CONNECTION_FIELDS = ['server', ...STRING_FIELDS, ...BOOLEAN_FIELDS] as const

/** Cluster fields that name files: they mean nothing on the consumer's machine (docs/design.md §5). */
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
  for (const field of [...STRING_FIELDS, ...LOCAL_FILE_FIELDS]) {
    if (fields[field] !== undefined && fields[field] !== null && typeof fields[field] !== 'string') {
      return `its cluster.${field} is not a string`
    }
  }
  for (const field of BOOLEAN_FIELDS) {
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

export function isHttps(server: string): boolean {
  return /^https:\/\//i.test(server)
}

/** The base64 text without the whitespace and line breaks a YAML profile may carry, if it is base64. */
export function compactBase64(data: string): string | undefined {
  const compact = data.replace(/\s+/g, '')
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact) ? compact : undefined
}

/** Base64 of a PEM bundle with a certificate in it (a cheap check: this runs on every credential). */
export function holdsPemCertificate(data: string): boolean {
  const compact = compactBase64(data)
  if (compact === undefined) return false
  return Buffer.from(compact, 'base64').toString('latin1').includes('-----BEGIN CERTIFICATE-----')
}

/**
 * The model from an entry already judged by checkProfileCluster: empty values left out, and no
 * certificate-authority file (a profile cannot name one).
 */
export function clusterConnection(cluster: ClusterEntryFields): ClusterConnection {
  const connection: ClusterConnection = {server: cluster.server}
  if (cluster['certificate-authority-data']) {
    connection['certificate-authority-data'] = cluster['certificate-authority-data']
  }
  if (cluster['tls-server-name']) connection['tls-server-name'] = cluster['tls-server-name']
  if (cluster['proxy-url']) connection['proxy-url'] = cluster['proxy-url']
  // client-go refuses CA data together with insecure-skip-tls-verify, which would make every
  // kubeconfig written for this profile unusable; verifying with the CA is the safe half to keep.
  if (cluster['insecure-skip-tls-verify'] === true && !connection['certificate-authority-data']) {
    connection['insecure-skip-tls-verify'] = true
  }
  if (cluster['disable-compression'] === true) connection['disable-compression'] = true
  return connection
}

/** What is risky or ignored about an entry's connection, as the warnings below word it. */
export interface ConnectionRisks {
  /** insecure-skip-tls-verify, alone (true) or together with CA data (kubectl refuses that). */
  insecure: false | 'alone' | 'with-ca'
  /** A certificate-authority file path: ignored. */
  localFile: boolean
}

export function connectionRisks(cluster: ClusterEntryFields): ConnectionRisks {
  const insecure = cluster['insecure-skip-tls-verify'] === true
  // Read loosely: describe shows entries that failed checkProfileCluster too.
  const caData = cluster['certificate-authority-data']
  return {
    insecure: !insecure ? false : typeof caData === 'string' && caData !== '' ? 'with-ca' : 'alone',
    localFile: Boolean(cluster['certificate-authority']),
  }
}

/** The warnings a resolution carries for its entry: `subject` names the profile and provider. */
export function connectionWarnings(subject: string, cluster: ClusterEntryFields): string[] {
  const risks = connectionRisks(cluster)
  const warnings: string[] = []
  if (risks.insecure === 'with-ca') {
    warnings.push(
      `${subject} sets both certificate-authority-data and insecure-skip-tls-verify, which kubectl refuses; ` +
        'cpcred verifies the server with the CA and ignores insecure-skip-tls-verify.',
    )
  } else if (risks.insecure === 'alone') {
    warnings.push(
      `${subject} sets insecure-skip-tls-verify: the server's certificate is not checked, so anyone on the path can ` +
        'impersonate the cluster and receive your credentials.',
    )
  }
  if (!isHttps(cluster.server)) {
    warnings.push(
      `${subject} has server ${cluster.server}, which is not https: credentials would travel without TLS protection.`,
    )
  }
  if (risks.localFile) {
    warnings.push(
      `${subject} names a certificate-authority file; a profile cannot point at files on this machine, so it is ignored.`,
    )
  }
  return warnings
}

/** The same risks, shorter, for a list under the entry they belong to (describe). */
export function entryConnectionWarnings(
  server: string | null,
  cluster: ClusterEntryFields | undefined,
): string[] {
  const warnings: string[] = []
  if (server !== null && !isHttps(server)) {
    warnings.push(`server ${server} is not https: credentials would travel without TLS protection`)
  }
  const insecure = cluster ? connectionRisks(cluster).insecure : false
  if (insecure === 'with-ca') {
    warnings.push(
      'insecure-skip-tls-verify is set together with certificate-authority-data, which kubectl refuses',
    )
  } else if (insecure === 'alone') {
    warnings.push("insecure-skip-tls-verify is set: the server's certificate is not checked")
  }
  return warnings
}

/** A kubeconfig v1 cluster entry, keys in kubectl's (alphabetical) order, empty fields omitted. */
export interface KubeconfigCluster {
  'certificate-authority-data'?: string
  'disable-compression'?: boolean
  extensions?: {name: string; extension: unknown}[]
  'insecure-skip-tls-verify'?: boolean
  'proxy-url'?: string
  server: string
  'tls-server-name'?: string
}

/** The connection as a kubeconfig cluster entry, with its extensions (sorted by name by the caller). */
export function toKubeconfigCluster(
  connection: ClusterConnection,
  extensions: KubeconfigCluster['extensions'] = [],
): KubeconfigCluster {
  const cluster: Partial<KubeconfigCluster> = {}
  if (connection['certificate-authority-data']) {
    cluster['certificate-authority-data'] = connection['certificate-authority-data']
  }
  if (connection['disable-compression']) cluster['disable-compression'] = true
  if (extensions.length > 0) cluster.extensions = extensions
  if (connection['insecure-skip-tls-verify']) cluster['insecure-skip-tls-verify'] = true
  if (connection['proxy-url']) cluster['proxy-url'] = connection['proxy-url']
  cluster.server = connection.server
  if (connection['tls-server-name']) cluster['tls-server-name'] = connection['tls-server-name']
  return cluster as KubeconfigCluster
}

/** spec.cluster of the exec info: the target, as client-go passes it when provideClusterInfo is true. */
export interface ExecInfoCluster extends ClusterConnection {
  /** The cluster's client.authentication.k8s.io/exec extension, verbatim (null when it has none). */
  config?: unknown
}

/**
 * ExecCredential.spec.cluster, as client-go builds it: CA data as canonical base64 (client-go holds
 * it as bytes and encodes them again, so the whitespace a YAML profile may carry does not reach the
 * plugin), and the exec extension as `config`, null when there is none.
 */
export function toExecInfoCluster(cluster: ClusterConnection, clusterConfig: unknown): ExecInfoCluster {
  const out: ExecInfoCluster = {server: cluster.server ?? ''}
  if (cluster['tls-server-name']) out['tls-server-name'] = cluster['tls-server-name']
  if (cluster['insecure-skip-tls-verify'] === true) out['insecure-skip-tls-verify'] = true
  const caData = cluster['certificate-authority-data']
  if (caData) {
    // Invalid base64 would have failed kubeconfig loading in client-go.
    const compact = compactBase64(caData)
    if (compact === undefined) {
      throw new CpcredError(
        `certificate-authority-data of the cluster ${cluster.server} is not valid base64`,
        {
          hint: 'The ClusterProfile must carry the base64 of the PEM CA bundle; ask the cluster manager to fix it.',
        },
      )
    }
    out['certificate-authority-data'] = Buffer.from(compact, 'base64').toString('base64')
  }
  if (cluster['proxy-url']) out['proxy-url'] = cluster['proxy-url']
  if (cluster['disable-compression'] === true) out['disable-compression'] = true
  out.config = clusterConfig === undefined ? null : clusterConfig
  return out
}

/** What a REST client needs to reach the cluster (the adapters' Endpoint has this shape). */
export interface ClientEndpoint {
  server: string
  /** PEM of the CA bundle that signs the server certificate; the system roots when absent. */
  caPem?: string
  insecureSkipTLSVerify?: boolean
  tlsServerName?: string
  proxyUrl?: string
  disableCompression?: boolean
}

/** The connection as a client endpoint; `caPem` when the CA came from elsewhere (a kubeconfig's file). */
export function toClientEndpoint(
  cluster: ClusterConnection,
  caPem: string | undefined = caPemOf(cluster),
): ClientEndpoint {
  return {
    server: cluster.server,
    caPem,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: cluster['tls-server-name'],
    proxyUrl: cluster['proxy-url'],
    disableCompression: cluster['disable-compression'] === true,
  }
}

function caPemOf(cluster: ClusterConnection): string | undefined {
  const data = cluster['certificate-authority-data']
  return data ? Buffer.from(data, 'base64').toString('utf8') : undefined
}
