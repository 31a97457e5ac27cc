// The hub: selected like kubectl (--kubeconfig, KUBECONFIG, --context, -n) and spoken to through
// the lean KubeClient.
import {namesInBrief} from '../core/text/format.js'
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import {
  clustersetOf,
  PROFILE_VERSIONS,
  GROUP,
  PLURAL,
  RESOURCE,
  type ProfileVersion,
  type ClusterProfile,
} from '../core/profiles/cluster-profile.js'
import {canonicalJson} from '../core/exec-credential/cache.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {ContinueExpiredError, CpcredError, ExitCode, UsageError, WatchExpiredError} from '../core/errors.js'
import {
  findNamed,
  kubeconfigPaths,
  mergeKubeconfigs,
  type ContextEntry,
  type KubeconfigFile,
  type MergedKubeconfig,
} from '../core/kubeconfig/merge.js'
import {KubeApiError, parseJsonBody, type KubeClient} from './kube-client.js'
import {translateKubeError} from './kube-errors.js'
import {isTerminal, processPrinter} from './printer.js'
import type {ContextClientOptions} from './kubeconfig-client.js'

export interface HubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** Read ClusterProfiles in this version (--api-version), not the preferred one the hub serves. */
  apiVersion?: string
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
      known.length ? `known contexts: ${namesInBrief(known)}` : 'the kubeconfig defines no contexts',
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
  /** Parsed when first read: a lister asks for the next page before it reads this one's items. */
  items: ClusterProfile[] | Promise<ClusterProfile[]>
  /** The continue token of the next page, or undefined at the end. */
  next?: string
  /** The list's resourceVersion: where a watch of it starts. */
  resourceVersion?: string
}

import type {ProfileWatchEvent} from '../usecases/ports.js'

export type {ProfileWatchEvent}

/** How long the server keeps one watch open before ending it, as client-go's reflector asks (5-10 min). */
const WATCH_SECONDS = 300

export interface ListOptions {
  /** undefined: all namespaces. */
  namespace?: string
  labelSelector?: string
  limit: number
}

/** Remembers which ClusterProfile version a hub serves, so a hot path does not ask each time. */
export interface ServedVersionCache {
  read(): Promise<ProfileVersion | undefined>
  write(version: ProfileVersion): Promise<void>
}

export interface HubOptions extends ContextClientOptions {
  /** Read ClusterProfiles in this version (--api-version) instead of the preferred one served. */
  apiVersion?: string
  versionCache?: ServedVersionCache
}

export class Hub {
  private served?: Promise<ProfileVersion>

  private constructor(
    readonly config: HubConfig,
    readonly client: KubeClient,
    private readonly options: Pick<HubOptions, 'apiVersion' | 'versionCache'>,
  ) {}

  static async connect(selection: HubSelection, options: Partial<HubOptions> = {}): Promise<Hub> {
    return Hub.fromConfig(await loadHubConfig(selection), {apiVersion: selection.apiVersion, ...options})
  }

  /** A client for an already loaded hub configuration (the credential fast path loads it first). */
  static async fromConfig(config: HubConfig, options: Partial<HubOptions> = {}): Promise<Hub> {
    const [{clientForContext}, {pluginRunner}] = await Promise.all([
      import('./kubeconfig-client.js'),
      import('./process.js'),
    ])
    const client = await clientForContext(config.merged, config.context, {
      runner: options.runner ?? pluginRunner,
      stdinIsTTY: options.stdinIsTTY ?? isTerminal(0),
      onPluginStderr: options.onPluginStderr ?? ((text) => processPrinter().text(text, 'stderr')),
      idleTimeoutMs: options.idleTimeoutMs,
    })
    return new Hub(config, client, {apiVersion: options.apiVersion, versionCache: options.versionCache})
  }

  /**
   * The ClusterProfile version this hub is read in: --api-version when given (and served), else
   * v1alpha2 when the hub serves it, else v1alpha1; asked of API discovery once per Hub, or read
   * from the cache the hot paths keep.
   */
  apiVersion(): Promise<ProfileVersion> {
    this.served ??= (async () => {
      const cached =
        this.options.apiVersion === undefined ? await this.options.versionCache?.read() : undefined
      if (cached) return cached
      let group: {versions?: {version: string}[]} | undefined
      try {
        group = await this.client.request('GET', `/apis/${GROUP}`)
      } catch (error) {
        if (!(error instanceof KubeApiError && error.status === 404))
          throw this.translate(error, `discover ${GROUP}`)
      }
      const served = (group?.versions ?? []).map((entry) => entry.version)
      // Other APIs share the group (PlacementDecision, the Multi-Cluster Services API): a version
      // the group serves is ClusterProfile's only if its resource list names clusterprofiles.
      const servesProfiles = async (version: string) =>
        served.includes(version) && (await this.resourceServed(version))
      const forced = this.options.apiVersion
      let version: ProfileVersion | undefined
      for (const candidate of forced === undefined ? PROFILE_VERSIONS : [forced]) {
        if (await servesProfiles(candidate)) {
          version = candidate as ProfileVersion
          break
        }
      }
      if (!version) {
        const wanted = forced ?? PROFILE_VERSIONS.join(' or ')
        // Unforced, every version was asked already and none serves them.
        const others: string[] = []
        if (forced !== undefined)
          for (const other of PROFILE_VERSIONS)
            if (other !== forced && (await servesProfiles(other))) others.push(other)
        throw new CpcredError(
          `${this.where()} does not serve ${GROUP} ${wanted} ${PLURAL}${others.length ? ` (it serves ${PLURAL} in ${others.join(', ')})` : ''}`,
          {
            exitCode: ExitCode.Unreachable,
            hint: this.options.apiVersion
              ? `leave out --api-version, or use one the hub serves`
              : 'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or point --context at the hub cluster',
          },
        )
      }
      if (this.options.apiVersion === undefined) await this.options.versionCache?.write(version)
      return version
    })()
    return this.served
  }

  /** Whether API discovery lists clusterprofiles in this version of the group. */
  private async resourceServed(version: string): Promise<boolean> {
    try {
      const list = await this.client.request<{resources?: {name?: string}[]}>(
        'GET',
        `/apis/${GROUP}/${version}`,
      )
      return (list.resources ?? []).some((resource) => resource.name === PLURAL)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return false
      throw this.translate(error, `discover ${GROUP}/${version}`)
    }
  }

  /** The path of the profiles in a namespace (all namespaces when undefined), in the version read. */
  private async profilesPath(namespace?: string): Promise<string> {
    const version = await this.apiVersion()
    return namespace
      ? `/apis/${GROUP}/${version}/namespaces/${encodeURIComponent(namespace)}/${PLURAL}`
      : `/apis/${GROUP}/${version}/${PLURAL}`
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
    const path = await this.profilesPath(options.namespace)
    try {
      const text = await this.client.requestText('GET', path, {
        query: {limit: options.limit, continue: continueToken, labelSelector: options.labelSelector},
      })
      const readItems = async (list: {items?: ClusterProfile[]}) => list.items ?? []
      const metadata = trailingListMetadata(text)
      if (!metadata) {
        const list = parseJsonBody(text) as {items?: ClusterProfile[]; metadata?: ListMetadata}
        return {
          items: await readItems(list),
          next: list.metadata?.continue || undefined,
          resourceVersion: list.metadata?.resourceVersion,
        }
      }
      let items: Promise<ClusterProfile[]> | undefined
      return {
        get items() {
          return (items ??= readItems(parseJsonBody(text) as {items?: ClusterProfile[]}))
        },
        next: metadata.continue || undefined,
        resourceVersion: metadata.resourceVersion,
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
    const path = await this.profilesPath(options.namespace)
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
    const path = `${await this.profilesPath(namespace)}/${encodeURIComponent(name)}`
    try {
      return await this.client.request<ClusterProfile>('GET', path)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404 && error.statusObject?.details?.name === name)
        return undefined
      throw this.translate(error, `get ${RESOURCE} ${namespace}/${name}`)
    }
  }

  /** The clusterset of one namespace and the label that names it, or undefined when unlabelled or not readable. */
  async clustersetOf(namespace: string): Promise<{clusterset: string; label: string} | undefined> {
    try {
      const ns = await this.client.request<{metadata: {labels?: Record<string, string>}}>(
        'GET',
        `/api/v1/namespaces/${encodeURIComponent(namespace)}`,
      )
      return clustersetOf(ns.metadata.labels)
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
        what: `${GROUP} ${PLURAL}`,
        hint: 'install the ClusterProfile CRD (Cluster Inventory API) on the hub, or point --context at the hub cluster',
      },
      forbiddenHint: `ask the hub administrator for RBAC access to ${RESOURCE} (get, list), or use another --context`,
      unreachableHint: 'check that the hub is running and that --kubeconfig/--context select it',
    })
  }
}

interface ListMetadata {
  continue?: string
  resourceVersion?: string
}

/**
 * A list's own metadata, read from the end of its JSON without parsing the items: the API server
 * writes a custom resource list with its keys in order, so `metadata` comes last. Parsing a page of
 * 500 profiles takes tens of milliseconds, and knowing the continue token first lets the next page
 * be asked for while this one is parsed. undefined when the text is not laid out so (then the whole
 * list is parsed first).
 */
export function trailingListMetadata(text: string): ListMetadata | undefined {
  const at = text.lastIndexOf('"metadata":')
  if (at === -1) return undefined
  const rest = text.slice(at + '"metadata":'.length).trimEnd()
  if (!rest.endsWith('}')) return undefined
  try {
    // Only the list's own metadata is followed by nothing but the list's closing brace.
    const metadata: unknown = JSON.parse(rest.slice(0, -1))
    return metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)
      ? (metadata as ListMetadata)
      : undefined
  } catch {
    return undefined
  }
}
