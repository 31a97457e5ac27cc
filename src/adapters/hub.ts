// The hub: selected like kubectl (--kubeconfig, KUBECONFIG, --context, -n) and spoken to through
// the lean KubeClient. It implements HubPort: the profile repository, the ClusterProfile API version
// (discovered once), and the typed calls doctor and the built-in plugins make. Every failure leaves
// here as an ApiFailure (src/core/failures.ts), its HTTP status or connection code kept.
import {
  clustersetOf,
  PROFILE_VERSIONS,
  GROUP,
  PLURAL,
  RESOURCE,
  type ProfileVersion,
  type ClusterProfile,
  withoutManagedFields,
} from '../core/profiles/cluster-profile.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {DEFAULT_REQUEST_TIMEOUT_MS} from '../core/duration.js'
import {ContinueExpiredError, CpcredError, ExitCode} from '../core/errors.js'
import {INSTALL_CRD_HINT, POD_TOKEN_REJECTED_HINT, PROFILE_API_NOT_SERVED} from '../core/failures.js'
import {namespacedPath, namespaceObjectPath} from '../core/profiles/names.js'
import type {AccessAnswer, UserInfo} from '../core/doctor/hub.js'
import type {ApiGroupDocument, ApiResourcesDocument} from '../core/doctor/api.js'
import type {
  Endpoint,
  HubCallHints,
  HubConfig,
  HubConnectOptions,
  HubPort,
  HubSelection,
  ListOptions,
  ProfileApiDiscovery,
  ProfilePage,
  PlacementDecisionList,
  PlacementWatchEvent,
  ProfileWatchEvent,
  SecretObject,
  TokenRequestAnswer,
  TokenRequestSpec,
} from '../usecases/ports.js'
import {KubeApiError, parseJsonBody, type KubeClient} from './kube-client.js'
import {translateKubeError, type TranslateOptions} from './kube-errors.js'
import {isTerminal, processPrinter} from './printer.js'
import {hubIdentity, hubPin, loadHubConfig} from './hub-config.js'
import {getPlacementDecision, listPlacementDecisions, watchPlacementDecisions} from './hub-placements.js'
import {watchObjects} from './hub-watch.js'
import {trailingListMetadata, type ListMetadata} from '../core/list-metadata.js'
import type {PlacementDecision} from '../core/fleet/placement.js'

export {hubIdentity, hubPin, loadHubConfig} from './hub-config.js'
export type {
  HubConfig,
  HubConnectOptions,
  HubSelection,
  ListOptions,
  ProfilePage,
  ProfileWatchEvent,
  ServedVersionCache,
} from '../usecases/ports.js'

/** How long a hub request goes unanswered before a terminal is told what cpcred is waiting for. */
const WAITING_NOTICE_MS = 3000

export class Hub implements HubPort {
  private discovery?: Promise<ProfileApiDiscovery>
  private served?: Promise<ProfileVersion>

  private constructor(
    readonly config: HubConfig,
    readonly client: KubeClient,
    private readonly options: Pick<HubConnectOptions, 'apiVersion' | 'versionCache'>,
  ) {}

  static async connect(
    selection: HubSelection,
    options: HubConnectOptions,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<Hub> {
    return Hub.fromConfig(await loadHubConfig(selection, env), {apiVersion: selection.apiVersion, ...options})
  }

  /**
   * A client for an already loaded hub configuration (the credential fast path loads it first).
   * Each request is bounded by the configuration's --request-timeout alone (no idle limit of its
   * own, so a longer --request-timeout, or 0, is what it says), unless the caller asks for one.
   */
  static async fromConfig(config: HubConfig, options: HubConnectOptions): Promise<Hub> {
    const {clientForContext} = await import('./kubeconfig-client.js')
    const {onWaiting} = options
    const client = await clientForContext(config.merged, config.context, {
      runExecPlugin: options.runExecPlugin,
      stdinIsTTY: options.stdinIsTTY ?? isTerminal(0),
      onPluginStderr: options.onPluginStderr ?? ((text) => processPrinter().text(text, 'stderr')),
      timeouts: {
        idleMs: options.idleTimeoutMs ?? 0,
        requestMs: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        waiting: onWaiting && {
          afterMs: WAITING_NOTICE_MS,
          // Told only after WAITING_NOTICE_MS, long after `hub` is made.
          notify: (waiting) => onWaiting(waiting ? hub.describe() : undefined),
        },
      },
    })
    const hub = new Hub(config, client, {apiVersion: options.apiVersion, versionCache: options.versionCache})
    return hub
  }

  get endpoint(): Endpoint {
    return this.client.endpoint
  }

  /**
   * The ClusterProfile version this hub is read in: --api-version when given (and served), else
   * the first of PROFILE_VERSIONS the hub serves them in; from discovery (once per Hub), or read
   * from the cache the hot paths keep.
   */
  apiVersion(): Promise<ProfileVersion> {
    this.served ??= (async () => {
      const cached =
        this.options.apiVersion === undefined ? await this.options.versionCache?.read() : undefined
      if (cached) return cached
      const found = await this.profileApi()
      const servesProfiles = found.resources?.resources?.some((resource) => resource.name === PLURAL)
      if (!found.version || !servesProfiles) {
        const forced = this.options.apiVersion
        const wanted = forced ?? PROFILE_VERSIONS.join(' or ')
        // Unforced, every version was asked already and none serves them.
        const others: string[] = []
        if (forced !== undefined)
          for (const other of PROFILE_VERSIONS)
            if (other !== forced && (await this.servesProfilesIn(found.group, other))) others.push(other)
        throw new CpcredError(
          `${this.describe()} does not serve ${GROUP} ${wanted} ${PLURAL}${others.length ? ` (it serves ${PLURAL} in ${others.join(', ')})` : ''}`,
          {
            exitCode: ExitCode.Unreachable,
            hint: forced ? `leave out --api-version, or use one the hub serves` : INSTALL_CRD_HINT,
          },
        )
      }
      const version = found.version as ProfileVersion
      if (this.options.apiVersion === undefined) await this.options.versionCache?.write(version)
      return version
    })()
    return this.served
  }

  /**
   * API discovery of the ClusterProfile API, asked once: the group, and the first candidate version
   * (--api-version, else PROFILE_VERSIONS in order) the group serves whose resource list names
   * clusterprofiles (other APIs share the group: PlacementDecision, the Multi-Cluster Services API),
   * else the first served candidate, so that doctor can say what is missing there.
   */
  profileApi(): Promise<ProfileApiDiscovery> {
    this.discovery ??= (async () => {
      const group = await this.discover<ApiGroupDocument>(`/apis/${GROUP}`, `discover ${GROUP}`)
      const forced = this.options.apiVersion
      let found: ProfileApiDiscovery = group ? {group} : {}
      for (const version of forced === undefined ? PROFILE_VERSIONS : [forced]) {
        if (!servedVersions(group).includes(version)) continue
        const resources = await this.resourcesOf(version)
        if (resources?.resources?.some((resource) => resource.name === PLURAL))
          return {group, version, resources}
        if (found.version === undefined) found = {group, version, resources}
      }
      return found
    })()
    return this.discovery
  }

  private async servesProfilesIn(group: ApiGroupDocument | undefined, version: string): Promise<boolean> {
    if (!servedVersions(group).includes(version)) return false
    return (await this.resourcesOf(version))?.resources?.some((resource) => resource.name === PLURAL) ?? false
  }

  private resourcesOf(version: string): Promise<ApiResourcesDocument | undefined> {
    return this.discover<ApiResourcesDocument>(`/apis/${GROUP}/${version}`, `discover ${GROUP}/${version}`)
  }

  /** A discovery document, or undefined when the hub does not serve that path. */
  private async discover<T>(path: string, action: string): Promise<T | undefined> {
    try {
      return await this.client.request<T>('GET', path)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return undefined
      throw this.translate(error, action)
    }
  }

  /**
   * The path of the profiles in a namespace (all namespaces when undefined), or of one profile, in
   * the version read; from checked names only.
   */
  private async profilesPath(namespace?: string, name?: string): Promise<string> {
    const base = `/apis/${GROUP}/${await this.apiVersion()}`
    return namespace ? namespacedPath(base, PLURAL, namespace, name) : `${base}/${PLURAL}`
  }

  /** See hubIdentity. */
  identity(): string {
    return hubIdentity(this.config)
  }

  /** See hubPin. */
  pin(): HubPin {
    return hubPin(this.config)
  }

  describe(): string {
    if (this.config.inCluster) return `the hub (in-cluster config, ${this.config.server})`
    const from = this.config.chosenBy ? ` from ${this.config.chosenBy}` : ''
    return `the hub (context "${this.config.context}"${from}, ${this.config.server})`
  }

  async close(): Promise<void> {
    await this.client.close()
  }

  /** One page of profiles. The caller follows `next` (limit/continue pagination). */
  async listProfilePage(options: ListOptions, continueToken?: string): Promise<ProfilePage> {
    const scope = options.namespace ? `in namespace "${options.namespace}"` : 'in all namespaces'
    const path = await this.profilesPath(options.namespace)
    try {
      const text = await this.client.requestText('GET', path, {
        query: {limit: options.limit, continue: continueToken, labelSelector: options.labelSelector},
      })
      const readItems = async (list: {items?: ClusterProfile[]}) =>
        (list.items ?? []).map(withoutManagedFields)
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
    await watchObjects<ClusterProfile>(
      this,
      {
        path: await this.profilesPath(options.namespace),
        resourceVersion,
        labelSelector: options.labelSelector,
        action: `watch ${RESOURCE} ${scope}`,
      },
      (type, profile) => onEvent({type, profile: withoutManagedFields(profile)}),
      signal,
    )
  }

  async getProfile(namespace: string, name: string): Promise<ClusterProfile | undefined> {
    const path = await this.profilesPath(namespace, name)
    try {
      return withoutManagedFields(await this.client.request<ClusterProfile>('GET', path))
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
        namespaceObjectPath(namespace),
      )
      return clustersetOf(ns.metadata.labels)
    } catch {
      // Reading namespaces is a courtesy for display; a consumer may only be allowed profiles.
      return undefined
    }
  }

  /** Labels of every namespace (for clusterset filtering). */
  async listNamespaceLabels(): Promise<Map<string, Record<string, string>>> {
    try {
      const list = await this.client.request<{
        items: {metadata: {name: string; labels?: Record<string, string>}}[]
      }>('GET', '/api/v1/namespaces')
      return new Map(list.items.map((ns) => [ns.metadata.name, ns.metadata.labels ?? {}]))
    } catch (error) {
      throw translateKubeError(error, 'list namespaces', this.describe(), {
        ...this.userOptions(),
        forbiddenHint:
          'older hubs record clustersets as namespace labels, which --clusterset reads beside the clusterset.k8s.io property; ask the hub administrator for list on namespaces, or drop --clusterset',
      })
    }
  }

  getPlacementDecision(namespace: string, name: string): Promise<PlacementDecision | undefined> {
    return getPlacementDecision(this, namespace, name)
  }

  listPlacementDecisions(namespace: string, labelSelector?: string): Promise<PlacementDecisionList> {
    return listPlacementDecisions(this, namespace, labelSelector)
  }

  watchPlacementDecisions(
    namespace: string,
    labelSelector: string | undefined,
    resourceVersion: string,
    onEvent: (event: PlacementWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    return watchPlacementDecisions(this, {namespace, labelSelector, resourceVersion}, onEvent, signal)
  }

  async reviewProfileAccess(verb: string, namespace: string | undefined): Promise<AccessAnswer> {
    return this.reviewAccess({group: GROUP, resource: PLURAL, verb, namespace})
  }

  async reviewTokenAccess(namespace: string, serviceAccount: string): Promise<AccessAnswer> {
    const token = {resource: 'serviceaccounts', subresource: 'token', name: serviceAccount}
    return this.reviewAccess({group: '', ...token, verb: 'create', namespace})
  }

  /** A SelfSubjectAccessReview of one verb on one resource. */
  private async reviewAccess(attributes: {verb: string; namespace?: string} & Record<string, unknown>) {
    try {
      const body = {kind: 'SelfSubjectAccessReview', spec: {resourceAttributes: attributes}}
      const review = await this.client.request<{status?: {allowed?: boolean; reason?: string}}>(
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {body: {apiVersion: 'authorization.k8s.io/v1', ...body}},
      )
      const {allowed, reason} = review.status ?? {}
      return {verb: attributes.verb, allowed: allowed === true, reason: reason || undefined}
    } catch (error) {
      throw this.translate(error, 'create a SelfSubjectAccessReview')
    }
  }

  async reviewSelf(): Promise<UserInfo> {
    try {
      const review = await this.client.request<{status?: {userInfo?: UserInfo}}>(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        {body: {apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview'}},
      )
      return review.status?.userInfo ?? {}
    } catch (error) {
      throw this.translate(error, 'create a SelfSubjectReview', {
        notServed: {
          what: 'authentication.k8s.io/v1 selfsubjectreviews',
          hint: 'the hub runs a Kubernetes older than 1.28',
        },
      })
    }
  }

  async getSecret(namespace: string, name: string, hints: HubCallHints): Promise<SecretObject | undefined> {
    const path = namespacedPath('/api/v1', 'secrets', namespace, name)
    try {
      return await this.client.request<SecretObject>('GET', path)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404 && error.statusObject?.details?.name === name)
        return undefined
      throw translateKubeError(error, `get Secret ${namespace}/${name}`, this.describe(), {
        ...this.userOptions(),
        ...hints,
      })
    }
  }

  async requestToken(
    namespace: string,
    serviceAccount: string,
    spec: TokenRequestSpec,
    hints: HubCallHints,
  ): Promise<TokenRequestAnswer | undefined> {
    const path = namespacedPath('/api/v1', 'serviceaccounts', namespace, serviceAccount, 'token')
    try {
      return await this.client.request<TokenRequestAnswer>('POST', path, {
        body: {apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec},
      })
    } catch (error) {
      if (
        error instanceof KubeApiError &&
        error.status === 404 &&
        error.statusObject?.details?.name === serviceAccount
      )
        return undefined
      throw translateKubeError(
        error,
        `create a token for ServiceAccount ${namespace}/${serviceAccount}`,
        this.describe(),
        {...this.userOptions(), ...hints},
      )
    }
  }

  /** Who failures name, and in a pod what a 401 means: the mounted ServiceAccount token, never a login. */
  private userOptions(): TranslateOptions {
    return {user: this.config.user, ...(this.config.inCluster ? {rejectedHint: POD_TOKEN_REJECTED_HINT} : {})}
  }

  /** Turns a failed request into a one-line error with the exit code of its kind. */
  translate(error: unknown, action: string, options: TranslateOptions = {}): CpcredError {
    return translateKubeError(error, action, this.describe(), {
      ...this.userOptions(),
      notServed: PROFILE_API_NOT_SERVED,
      forbiddenHint: `ask the hub administrator for RBAC access to ${RESOURCE} (get, list), or use another --context`,
      unreachableHint: 'check that the hub is running and that --kubeconfig/--context select it',
      ...options,
    })
  }
}

/** The versions a group document lists. */
function servedVersions(group: ApiGroupDocument | undefined): string[] {
  return (group?.versions ?? []).flatMap((entry) => (entry.version ? [entry.version] : []))
}
