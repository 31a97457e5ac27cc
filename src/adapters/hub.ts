// The hub: selected like kubectl (--kubeconfig, KUBECONFIG, --context, -n) and spoken to through
// the lean KubeClient.
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import {
  API_VERSION,
  CLUSTERSET_LABEL,
  GROUP,
  PLURAL,
  RESOURCE,
  VERSION,
  type ClusterProfile,
} from '../core/cluster-profile.js'
import {canonicalJson} from '../core/credential-cache.js'
import type {HubPin} from '../core/hub-pin.js'
import {ContinueExpiredError, UsageError, WatchExpiredError, type CpcredError} from '../core/errors.js'
import {
  findNamed,
  kubeconfigPaths,
  mergeKubeconfigs,
  type ContextEntry,
  type KubeconfigFile,
  type MergedKubeconfig,
} from '../core/kubeconfig-merge.js'
import {KubeApiError, type KubeClient} from './kube-client.js'
import {translateKubeError} from './kube-errors.js'
import {processPrinter} from './printer.js'
import type {ContextClientOptions} from './kubeconfig-client.js'

export interface HubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
}

export interface HubConfig {
  merged: MergedKubeconfig
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
  // js-yaml loads in about 5 ms where yaml takes 45: this runs on every kubectl call through a
  // `--mode cpcred` kubeconfig. (Output YAML is still written with the yaml package.)
  const {load: parse} = await import('js-yaml')
  for (const file of paths) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      // kubectl ignores missing files in KUBECONFIG, but not a file named with --kubeconfig.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) continue
      const code = (error as NodeJS.ErrnoException).code
      throw new UsageError(
        `cannot read kubeconfig ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}`,
      )
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

  return {
    merged,
    files: files.map((f) => f.path),
    context: contextName,
    server,
    user: context.user ?? '',
    namespace: selection.namespace || context.namespace || 'default',
  }
}

/**
 * Who reads the hub, as a digest of the context and its cluster and user entries. Plugins that read
 * the hub (secretreader, token-request) answer differently for another hub, user or namespace, so
 * this is part of every credential cache key.
 */
export function hubIdentity(config: HubConfig): string {
  const {merged, context, server} = config
  const entry = findNamed(merged.contexts, context)?.context as ContextEntry | undefined
  const parts = {
    server,
    context,
    // The context's namespace decides answers too (secretreader reads Secrets in it).
    contextEntry: entry,
    cluster: entry?.cluster ? findNamed(merged.clusters, entry.cluster) : undefined,
    user: entry?.user ? findNamed(merged.users, entry.user) : undefined,
  }
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}

/** The hub as plugins that read it must find it (absolute files, the context in use). */
export function hubPin(config: HubConfig): HubPin {
  return {
    kubeconfigPaths: config.files,
    context: config.context,
    currentContext: config.merged['current-context'],
  }
}

export interface ProfilePage {
  items: ClusterProfile[]
  /** The continue token of the next page, or undefined at the end. */
  next?: string
  /** The list's resourceVersion: where a watch of it starts. */
  resourceVersion?: string
}

export interface ProfileWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
  /** The profile (for a BOOKMARK, only its metadata.resourceVersion is meaningful). */
  profile: ClusterProfile
}

/** How long the server keeps one watch open before ending it, as client-go's reflector asks (5-10 min). */
const WATCH_SECONDS = 300

export interface ListOptions {
  /** undefined: all namespaces. */
  namespace?: string
  labelSelector?: string
  limit: number
}

export class Hub {
  private constructor(
    readonly config: HubConfig,
    readonly client: KubeClient,
  ) {}

  static async connect(selection: HubSelection, options: Partial<ContextClientOptions> = {}): Promise<Hub> {
    return Hub.fromConfig(await loadHubConfig(selection), options)
  }

  /** A client for an already loaded hub configuration (the credential fast path loads it first). */
  static async fromConfig(config: HubConfig, options: Partial<ContextClientOptions> = {}): Promise<Hub> {
    const [{clientForContext}, {pluginRunner}] = await Promise.all([
      import('./kubeconfig-client.js'),
      import('./process.js'),
    ])
    const client = await clientForContext(config.merged, config.context, {
      runner: options.runner ?? pluginRunner,
      stdinIsTTY: options.stdinIsTTY ?? Boolean(process.stdin.isTTY),
      onPluginStderr: options.onPluginStderr ?? ((text) => processPrinter().text(text, 'stderr')),
    })
    return new Hub(config, client)
  }

  /** See hubIdentity. */
  identity(): string {
    return hubIdentity(this.config)
  }

  /** See hubPin. */
  pin(): HubPin {
    return hubPin(this.config)
  }

  /** One page of profiles. The caller follows `next` (limit/continue pagination). */
  async listProfilePage(options: ListOptions, continueToken?: string): Promise<ProfilePage> {
    const scope = options.namespace ? `in namespace "${options.namespace}"` : 'in all namespaces'
    const path = options.namespace
      ? `/apis/${GROUP}/${VERSION}/namespaces/${encodeURIComponent(options.namespace)}/${PLURAL}`
      : `/apis/${GROUP}/${VERSION}/${PLURAL}`
    try {
      const list = await this.client.request<{
        items?: ClusterProfile[]
        metadata?: {continue?: string; resourceVersion?: string}
      }>('GET', path, {
        query: {limit: options.limit, continue: continueToken, labelSelector: options.labelSelector},
      })
      return {
        items: list.items ?? [],
        next: list.metadata?.continue || undefined,
        resourceVersion: list.metadata?.resourceVersion,
      }
    } catch (error) {
      if (continueToken && error instanceof KubeApiError && error.status === 410)
        throw new ContinueExpiredError()
      throw this.translate(error, `list ${RESOURCE} ${scope}`)
    }
  }

  /**
   * Watches profiles from `resourceVersion` (a list's), with bookmarks, until the server ends the
   * watch (resolves) or `signal` aborts it. An expired resourceVersion is a WatchExpiredError.
   */
  async watchProfiles(
    options: Omit<ListOptions, 'limit'>,
    resourceVersion: string,
    onEvent: (event: ProfileWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const scope = options.namespace ? `in namespace "${options.namespace}"` : 'in all namespaces'
    const path = options.namespace
      ? `/apis/${GROUP}/${VERSION}/namespaces/${encodeURIComponent(options.namespace)}/${PLURAL}`
      : `/apis/${GROUP}/${VERSION}/${PLURAL}`
    const query = {
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion,
      labelSelector: options.labelSelector,
      timeoutSeconds: Math.round(WATCH_SECONDS * (1 + Math.random())),
    }
    try {
      await this.client.watch(
        path,
        query,
        (event) => {
          if (event.type === 'ERROR') {
            const status = event.object as {code?: number; message?: string}
            if (status.code === 410) throw new WatchExpiredError()
            throw this.translate(
              new KubeApiError(status.code ?? 500, event.object, 'GET', path),
              `watch ${RESOURCE} ${scope}`,
            )
          }
          onEvent({type: event.type, profile: event.object as unknown as ClusterProfile})
        },
        signal,
      )
    } catch (error) {
      if (error instanceof WatchExpiredError) throw error
      if (error instanceof KubeApiError && error.status === 410) throw new WatchExpiredError()
      throw this.translate(error, `watch ${RESOURCE} ${scope}`)
    }
  }

  async getProfile(namespace: string, name: string): Promise<ClusterProfile | undefined> {
    const path = `/apis/${GROUP}/${VERSION}/namespaces/${encodeURIComponent(namespace)}/${PLURAL}/${encodeURIComponent(name)}`
    try {
      return await this.client.request<ClusterProfile>('GET', path)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404 && error.statusObject?.details?.name === name)
        return undefined
      throw this.translate(error, `get ${RESOURCE} ${namespace}/${name}`)
    }
  }

  /** The clusterset of one namespace (its label), or undefined when unlabelled or not readable. */
  async clustersetOf(namespace: string): Promise<string | undefined> {
    try {
      const ns = await this.client.request<{metadata: {labels?: Record<string, string>}}>(
        'GET',
        `/api/v1/namespaces/${encodeURIComponent(namespace)}`,
      )
      return ns.metadata.labels?.[CLUSTERSET_LABEL]
    } catch {
      // Reading namespaces is a courtesy for display; a consumer may only be allowed profiles.
      return undefined
    }
  }

  private where(): string {
    return `the hub (context "${this.config.context}", ${this.config.server})`
  }

  /** Labels of every namespace (for clusterset filtering). */
  async listNamespaceLabels(): Promise<Map<string, Record<string, string>>> {
    try {
      const list = await this.client.request<{
        items: {metadata: {name: string; labels?: Record<string, string>}}[]
      }>('GET', '/api/v1/namespaces')
      return new Map(list.items.map((ns) => [ns.metadata.name, ns.metadata.labels ?? {}]))
    } catch (error) {
      throw translateKubeError(error, 'list namespaces', this.where(), {
        user: this.config.user,
        forbiddenHint:
          'clustersets are namespace labels; ask the hub administrator for list on namespaces, or drop --clusterset',
      })
    }
  }

  /** Turns a failed request into a one-line error with the exit code of its kind. */
  translate(error: unknown, action: string): CpcredError {
    return translateKubeError(error, action, this.where(), {
      user: this.config.user,
      notServed: {
        what: `${API_VERSION} ${PLURAL}`,
        hint: 'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or point --context at the hub cluster',
      },
      forbiddenHint: `ask the hub administrator for RBAC access to ${RESOURCE} (get, list), or use another --context`,
      unreachableHint: 'check that the hub is running and that --kubeconfig/--context select it',
    })
  }
}
