// Turns a kubeconfig context into a KubeClient, the way client-go's clientcmd does: cluster TLS
// settings, the user's certificate, token, basic auth or exec plugin, and impersonation.
import {readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import {EXEC_EXTENSION, type ProfileCluster} from '../core/profiles/cluster-profile.js'
import {
  holdsPemCertificate,
  proxyUrlProblem,
  serverUrlProblem,
  toClientEndpoint,
} from '../core/access/connection.js'
import {CpcredError, UsageError} from '../core/errors.js'
import type {ExecConfig} from '../core/access/exec-config.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {findNamed, type MergedKubeconfig, type NamedEntry} from '../core/kubeconfig/merge.js'
import {
  KubeClient,
  staticAuth,
  type AuthSource,
  type ClientTimeouts,
  type Credentials,
  type Endpoint,
  type Impersonation,
} from './kube-client.js'
import type {ExecPluginRunner} from '../usecases/ports.js'

interface KubeconfigCluster extends ProfileCluster {
  'certificate-authority'?: string
}

interface KubeconfigUser {
  'client-certificate'?: string
  'client-certificate-data'?: string
  'client-key'?: string
  'client-key-data'?: string
  token?: string
  tokenFile?: string
  username?: string
  password?: string
  as?: string
  'as-uid'?: string
  'as-groups'?: string[]
  'as-user-extra'?: Record<string, string[]>
  exec?: ExecConfig
  'auth-provider'?: {name: string}
}

export interface ContextClientOptions {
  /** Runs the user's exec plugin (the wiring passes the plugin runner use case). */
  runExecPlugin: ExecPluginRunner
  stdinIsTTY: boolean
  /** Where an exec plugin's stderr goes on success. */
  onPluginStderr?: (text: string) => void
  /** How long a request may take, and who hears that one is slow (default: a minute without a byte). */
  timeouts?: ClientTimeouts
}

export async function clientForContext(
  merged: MergedKubeconfig,
  contextName: string,
  options: ContextClientOptions,
): Promise<KubeClient> {
  const context = (findNamed(merged.contexts, contextName)?.context ?? {}) as {
    cluster?: string
    user?: string
  }
  const clusterEntry = context.cluster ? findNamed(merged.clusters, context.cluster) : undefined
  const cluster = (clusterEntry?.cluster ?? {}) as KubeconfigCluster
  if (!cluster.server) throw new UsageError(`context "${contextName}" has no cluster with a server`)
  // The same judgement as for a profile's entry: a URL TLS cannot use is named here, not met later
  // as "Invalid URL" on the first request (and never echoed: it could hold a password).
  const urlProblem =
    (typeof cluster.server === 'string' ? serverUrlProblem(cluster.server) : 'the server is not a string') ??
    (cluster['proxy-url'] ? proxyUrlProblem(cluster['proxy-url']) : undefined)
  if (urlProblem) {
    throw new UsageError(
      `cluster "${context.cluster ?? ''}" of context "${contextName}" cannot be used: ${urlProblem}`,
      'fix the cluster entry in the kubeconfig (kubectl config view shows it)',
    )
  }
  const userEntry: NamedEntry | undefined = context.user ? findNamed(merged.users, context.user) : undefined
  if (context.user && !userEntry) {
    throw new UsageError(
      `context "${contextName}" refers to user "${context.user}", which the kubeconfig does not define`,
    )
  }
  const user = (userEntry?.user ?? {}) as KubeconfigUser

  const endpoint: Endpoint = toClientEndpoint(
    cluster,
    await certificateAuthority(cluster, context.cluster ?? '', contextName),
  )
  const impersonation: Impersonation = {
    user: user.as,
    uid: user['as-uid'],
    groups: user['as-groups'],
    extra: user['as-user-extra'],
  }
  return new KubeClient(
    endpoint,
    await authFor(user, cluster, context.user ?? '', merged, contextName, options),
    impersonation,
    options.timeouts,
  )
}

/**
 * The CA bundle a cluster entry names. Data that holds no PEM certificate is said to be that: TLS
 * would only report the server as "not signed by a trusted CA", pointing away from the kubeconfig.
 */
async function certificateAuthority(
  cluster: KubeconfigCluster,
  clusterName: string,
  contextName: string,
): Promise<string | undefined> {
  const notPem = (what: string) =>
    new UsageError(
      `the ${what} of cluster "${clusterName}" (context "${contextName}") is not a PEM certificate`,
      'fix the kubeconfig: kubectl fails the same way ("unable to load root certificates")',
    )
  const data = cluster['certificate-authority-data']
  if (data) {
    if (!holdsPemCertificate(data)) throw notPem('certificate-authority-data (base64 of PEM)')
    return Buffer.from(data, 'base64').toString('utf8')
  }
  if (cluster['certificate-authority']) {
    const pem = await readReferencedFile(cluster['certificate-authority'], 'certificate-authority')
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw notPem(`certificate-authority file ${cluster['certificate-authority']}`)
    }
    return pem
  }
  return undefined
}

async function readReferencedFile(file: string, field: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read ${field} file ${file} named in the kubeconfig: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    )
  }
}

async function authFor(
  user: KubeconfigUser,
  cluster: KubeconfigCluster,
  userName: string,
  merged: MergedKubeconfig,
  contextName: string,
  options: ContextClientOptions,
): Promise<AuthSource> {
  const certificate: Credentials = {}
  if (user['client-certificate-data'] || user['client-certificate']) {
    certificate.clientCertPem = user['client-certificate-data']
      ? Buffer.from(user['client-certificate-data'], 'base64').toString('utf8')
      : await readReferencedFile(user['client-certificate']!, 'client-certificate')
    certificate.clientKeyPem = user['client-key-data']
      ? Buffer.from(user['client-key-data'], 'base64').toString('utf8')
      : user['client-key']
        ? await readReferencedFile(user['client-key'], 'client-key')
        : undefined
    if (!certificate.clientKeyPem)
      throw new UsageError(`user "${userName}" has a client certificate but no client key`)
  }
  if (user.exec) return execAuth(user.exec, cluster, certificate, options)
  if (user['auth-provider']) return authProviderAuth(merged, contextName, user['auth-provider'].name)
  if (user.token) return staticAuth({...certificate, token: user.token.trim()})
  if (user.tokenFile) return tokenFileAuth(user.tokenFile, certificate)
  if (user.username !== undefined || user.password !== undefined) {
    return staticAuth({...certificate, basic: {username: user.username ?? '', password: user.password ?? ''}})
  }
  return staticAuth(certificate)
}

/**
 * A token file, read when the client is made (a missing file fails then, as in client-go) and again
 * for every request: projected service-account tokens are rotated by the kubelet, and client-go's
 * cached file token source picks the new one up. A 401 retries once with what the file holds then.
 */
async function tokenFileAuth(file: string, base: Credentials): Promise<AuthSource> {
  let token = (await readReferencedFile(file, 'tokenFile')).trim()
  return {
    refreshable: true,
    async credentials() {
      try {
        token = (await readFile(file, 'utf8')).trim()
      } catch {
        // Mid-rotation the file may be briefly absent: the last token read is still the best guess.
      }
      return {...base, token}
    },
  }
}

/** An exec plugin user, run with client-go's protocol; a 401 runs it again once, as client-go does. */
function execAuth(
  exec: ExecConfig,
  cluster: KubeconfigCluster,
  base: Credentials,
  options: ContextClientOptions,
): AuthSource {
  let current: Promise<Credential> | undefined
  const clusterConfig = cluster.extensions?.find((extension) => extension.name === EXEC_EXTENSION)?.extension
  const obtain = () =>
    options.runExecPlugin({
      exec,
      cluster,
      clusterConfig,
      stdinIsTTY: options.stdinIsTTY,
      onStderr: options.onPluginStderr,
    })
  return {
    refreshable: true,
    async credentials(refresh) {
      if (!current || refresh) current = obtain()
      const credential = await current
      return credential.clientCertificateData
        ? {...base, clientCertPem: credential.clientCertificateData, clientKeyPem: credential.clientKeyData}
        : {...base, token: credential.token}
    },
  }
}

/** What authProviderAuth uses of client-node's KubeConfig. */
interface VendoredKubeConfig {
  loadFromString(text: string): void
  applyToHTTPSOptions(options: {headers?: Record<string, string>}): Promise<void>
}

/**
 * client-node's KubeConfig, from the bundle the build makes of it (scripts/build-fast.ts): the
 * package itself is not installed. dist/vendor is beside dist/adapters and dist/fast, whichever of
 * them this code runs from.
 */
function vendoredKubeConfig(): new () => VendoredKubeConfig {
  const vendored = createRequire(import.meta.url)('../vendor/auth-provider.cjs') as {
    KubeConfig: new () => VendoredKubeConfig
  }
  return vendored.KubeConfig
}

/**
 * Legacy auth-provider users (oidc and the like): client-node still implements them, so it computes
 * the Authorization header. Loaded only here, for the few kubeconfigs that need it.
 */
function authProviderAuth(merged: MergedKubeconfig, contextName: string, provider: string): AuthSource {
  return {
    refreshable: false,
    async credentials() {
      const KubeConfig = vendoredKubeConfig()
      const kubeConfig = new KubeConfig()
      kubeConfig.loadFromString(
        JSON.stringify({
          clusters: merged.clusters,
          users: merged.users,
          contexts: merged.contexts,
          'current-context': contextName,
        }),
      )
      const request: {headers?: Record<string, string>} = {}
      try {
        await kubeConfig.applyToHTTPSOptions(request)
      } catch (error) {
        throw new CpcredError(
          `auth-provider "${provider}" of context "${contextName}" failed: ${(error as Error).message}`,
          {
            hint: 'auth-provider is deprecated in kubectl; switch the user to an exec plugin (e.g. kubelogin)',
          },
        )
      }
      return {headers: request.headers ?? {}}
    },
  }
}
