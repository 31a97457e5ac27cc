// The hub API, through @kubernetes/client-node (imported lazily: commands that do not talk to the
// hub never load it). Hub selection follows kubectl: --kubeconfig, KUBECONFIG, --context, -n.
import type {CoreV1Api, CustomObjectsApi, KubeConfig} from '@kubernetes/client-node'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import {API_VERSION, GROUP, PLURAL, RESOURCE, VERSION, type ClusterProfile} from '../core/cluster-profile.js'
import {ContinueExpiredError, CpcredError, ExitCode, UsageError} from '../core/errors.js'
import {
  findNamed,
  kubeconfigPaths,
  mergeKubeconfigs,
  type ContextEntry,
  type KubeconfigFile,
} from '../core/kubeconfig-merge.js'

export interface HubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
}

export interface HubConfig {
  kubeConfig: KubeConfig
  /** Files read, in precedence order. */
  files: string[]
  context: string
  server: string
  user: string
  /** -n, else the context's namespace, else "default". */
  namespace: string
}

export async function loadHubConfig(selection: HubSelection, env = process.env): Promise<HubConfig> {
  const {paths, explicit} = kubeconfigPaths(selection.kubeconfig, env.KUBECONFIG, os.homedir())
  const files: KubeconfigFile[] = []
  const {parse} = await import('yaml')
  for (const file of paths) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      // kubectl ignores missing files in KUBECONFIG, but not a file named with --kubeconfig.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) continue
      throw new UsageError(`cannot read kubeconfig ${file}: ${(error as Error).message}`)
    }
    try {
      files.push({path: file, document: parse(text)})
    } catch (error) {
      throw new UsageError(`kubeconfig ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  if (files.length === 0) {
    throw new UsageError(
      `no kubeconfig found for the hub (looked at ${paths.join(', ')})`,
      'pass --kubeconfig FILE or set KUBECONFIG to the hub cluster kubeconfig',
    )
  }
  let merged
  try {
    merged = mergeKubeconfigs(files)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const contextName = selection.context ?? merged['current-context']
  if (!contextName) {
    throw new UsageError(
      `the hub kubeconfig (${files.map((f) => f.path).join(', ')}) has no current context`,
      'pass --context NAME, or set one with: kubectl config use-context NAME',
    )
  }
  const contextEntry = findNamed(merged.contexts, contextName)
  if (!contextEntry) {
    const known = merged.contexts.map((c) => c.name)
    throw new UsageError(
      `context "${contextName}" not found in ${files.map((f) => f.path).join(', ')}`,
      known.length ? `known contexts: ${known.join(', ')}` : 'the kubeconfig defines no contexts',
    )
  }
  const context = (contextEntry.context ?? {}) as ContextEntry
  const cluster = context.cluster ? findNamed(merged.clusters, context.cluster) : undefined
  if (!cluster) {
    throw new UsageError(
      `context "${contextName}" refers to cluster "${context.cluster ?? ''}", which the kubeconfig does not define`,
    )
  }
  const server = (cluster.cluster as {server?: string} | undefined)?.server
  if (!server) throw new UsageError(`cluster "${cluster.name}" in the hub kubeconfig has no server`)

  const {KubeConfig} = await import('@kubernetes/client-node')
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: merged.clusters,
      users: merged.users,
      contexts: merged.contexts,
      'current-context': contextName,
    }),
  )
  return {
    kubeConfig,
    files: files.map((f) => f.path),
    context: contextName,
    server,
    user: context.user ?? '',
    namespace: selection.namespace || context.namespace || 'default',
  }
}

export interface ProfilePage {
  items: ClusterProfile[]
  /** The continue token of the next page, or undefined at the end. */
  next?: string
}

export interface ListOptions {
  /** undefined: all namespaces. */
  namespace?: string
  labelSelector?: string
  limit: number
}

export class Hub {
  private constructor(
    readonly config: HubConfig,
    private readonly objects: CustomObjectsApi,
    private readonly core: CoreV1Api,
  ) {}

  static async connect(selection: HubSelection): Promise<Hub> {
    const config = await loadHubConfig(selection)
    const {CustomObjectsApi, CoreV1Api} = await import('@kubernetes/client-node')
    return new Hub(
      config,
      config.kubeConfig.makeApiClient(CustomObjectsApi),
      config.kubeConfig.makeApiClient(CoreV1Api),
    )
  }

  /** One page of profiles. The caller follows `next` (limit/continue pagination). */
  async listProfilePage(options: ListOptions, continueToken?: string): Promise<ProfilePage> {
    const scope = options.namespace ? `in namespace "${options.namespace}"` : 'in all namespaces'
    const common = {
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      labelSelector: options.labelSelector,
      limit: options.limit,
      _continue: continueToken,
    }
    try {
      const list = (
        options.namespace
          ? await this.objects.listNamespacedCustomObject({...common, namespace: options.namespace})
          : await this.objects.listClusterCustomObject(common)
      ) as {items?: ClusterProfile[]; metadata?: {continue?: string}}
      return {items: list.items ?? [], next: list.metadata?.continue || undefined}
    } catch (error) {
      if (continueToken && (error as {code?: unknown}).code === 410) throw new ContinueExpiredError()
      throw this.translate(error, `list ${RESOURCE} ${scope}`)
    }
  }

  async getProfile(namespace: string, name: string): Promise<ClusterProfile | undefined> {
    try {
      return (await this.objects.getNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        plural: PLURAL,
        namespace,
        name,
      })) as ClusterProfile
    } catch (error) {
      if (statusOf(error)?.reason === 'NotFound' && statusOf(error)?.details?.name === name) return undefined
      throw this.translate(error, `get ${RESOURCE} ${namespace}/${name}`)
    }
  }

  /** Namespace names carrying a label selector (used for clusterset filtering). */
  async listNamespaceLabels(): Promise<Map<string, Record<string, string>>> {
    try {
      const list = await this.core.listNamespace()
      return new Map(list.items.map((ns) => [ns.metadata?.name ?? '', ns.metadata?.labels ?? {}]))
    } catch (error) {
      throw this.translate(error, 'list namespaces')
    }
  }

  /** Turns a client-node failure into a one-line error with the exit code of its kind. */
  translate(error: unknown, action: string): CpcredError {
    const where = `the hub (context "${this.config.context}", ${this.config.server})`
    const status = statusOf(error)
    const code = (error as {code?: unknown}).code
    if (typeof code === 'number') {
      const message = status?.message ? `: ${status.message}` : ''
      if (code === 401) {
        return new CpcredError(
          `${where} rejected the credentials of user "${this.config.user}" (401 Unauthorized)`,
          {
            exitCode: ExitCode.Denied,
            hint: 'log in again or fix the user of this context in the hub kubeconfig',
          },
        )
      }
      if (code === 403) {
        // The server says "<resource> is forbidden: User "x" cannot list resource ..."; keep the reason.
        const reason = status?.message?.replace(/^.*? is forbidden: /, '') ?? 'forbidden'
        return new CpcredError(`cannot ${action} on ${where}: ${reason}`, {
          exitCode: ExitCode.Denied,
          hint: `ask the hub administrator for RBAC access to ${RESOURCE} (get, list), or use another --context`,
        })
      }
      if (code === 404) {
        return new CpcredError(`${where} does not serve ${API_VERSION} ${PLURAL}`, {
          exitCode: ExitCode.Unreachable,
          hint: 'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or point --context at the hub cluster',
        })
      }
      return new CpcredError(`cannot ${action} on ${where}: HTTP ${code}${message}`, {
        exitCode: ExitCode.Failure,
      })
    }
    const reason = connectionFailure(error)
    if (reason) {
      return new CpcredError(`cannot reach ${where}: ${reason}`, {
        exitCode: ExitCode.Unreachable,
        hint: 'check that the hub is running and that --kubeconfig/--context select it',
      })
    }
    return new CpcredError(`cannot ${action} on ${where}: ${(error as Error).message ?? error}`)
  }
}

interface Status {
  kind?: string
  message?: string
  reason?: string
  details?: {name?: string; kind?: string}
}

/** The Kubernetes Status in an ApiException body, if there is one. */
export function statusOf(error: unknown): Status | undefined {
  const body = (error as {body?: unknown}).body
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as Status
      return parsed.kind === 'Status' ? parsed : undefined
    } catch {
      return undefined
    }
  }
  if (body && typeof body === 'object' && (body as Status).kind === 'Status') return body as Status
  return undefined
}

const tlsCodes: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed and not trusted by the kubeconfig',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain is not trusted by the kubeconfig CA',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not signed by the kubeconfig CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate is not signed by the kubeconfig CA',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is not valid for that host name',
}

function connectionFailure(error: unknown): string | undefined {
  const code = (error as {code?: string}).code ?? (error as {cause?: {code?: string}}).cause?.code
  if (!code) return (error as {type?: string}).type === 'system' ? (error as Error).message : undefined
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found'
  if (code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'EHOSTUNREACH')
    return `network error (${code})`
  if (tlsCodes[code]) return `TLS verification failed: ${tlsCodes[code]}`
  return `${code}`
}
