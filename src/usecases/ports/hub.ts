// The ports of the hub: its configuration, the connection, the ClusterProfile repository and the
// typed calls (doctor, the built-in plugins), the target servers, and the exec plugins that
// authenticate to the hub; and narrower views of it for use cases that need only part.
import type {ExecConfig} from '../../core/access/exec-config.js'
import type {Provider} from '../../core/access/provider-file.js'
import type {ClusterConnection} from '../../core/access/connection.js'
import type {Resolution} from '../../core/access/resolve-access.js'
import type {AccessAnswer, UserInfo} from '../../core/doctor/hub.js'
import type {ApiGroupDocument, ApiResourcesDocument} from '../../core/doctor/api.js'
import type {CacheFiles} from '../../core/doctor/cache.js'
import type {ExecutableLookup} from '../../core/doctor/plugin.js'
import type {ServerProbe} from '../../core/doctor/server-tls.js'
import type {Credential} from '../../core/exec-credential/protocol.js'
import type {PlacementDecision} from '../../core/fleet/placement.js'
import type {PodServiceAccount} from '../../core/kubeconfig/in-cluster.js'
import type {MergedKubeconfig} from '../../core/kubeconfig/merge.js'
import type {ClusterProfile, ProfileCluster, ProfileVersion} from '../../core/profiles/cluster-profile.js'
import type {HubPin} from '../../core/profiles/hub-pin.js'
import type {HubSource, SavedHub} from '../../core/kubeconfig/hub-choice.js'
import type {SelfSubjectReview, TempKubeconfigs} from './credentials.js'
import type {AccessQuestion, AccessStatus, RulesStatus} from '../../core/doctor/target-access.js'

/** How the hub is chosen, as kubectl chooses a cluster (--kubeconfig, KUBECONFIG, --context, -n). */
export interface HubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** Read ClusterProfiles in this version (--api-version), not the preferred one the hub serves. */
  apiVersion?: string
  /** The in-cluster config and nothing else (a plugin whose hub was pinned "in-cluster"). */
  inCluster?: boolean
  /** A KUBECONFIG-style list read instead of KUBECONFIG (CPCRED_HUB_KUBECONFIG). */
  kubeconfigList?: string
  /** Set once the layers have chosen (core/kubeconfig/hub-choice.ts): the selection is then taken as it is. */
  source?: HubSource
}

/** The hub's kubeconfig as loaded: the merged files and the context in use. */
export interface HubConfig {
  merged: MergedKubeconfig
  /** Files read, in precedence order. */
  files: string[]
  context: string
  server: string
  user: string
  /** -n, else the context's namespace, else "default" (in a pod: POD_NAMESPACE, the namespace file). */
  namespace: string
  /** Set when the hub is the pod's in-cluster config rather than a kubeconfig. */
  inCluster?: InClusterSource
  /** What chose the context, in a message's words ("cpcred hub use", "--context", …). */
  chosenBy?: string
}

/** The pod's service account directory and who its token says the pod is. */
export interface InClusterSource {
  dir: string
  serviceAccount?: PodServiceAccount
  /** The CA file, when it holds a certificate (else the system roots are used, as in client-go). */
  caFile?: string
  /** When the token read at load time expires (ms since the epoch), if it says. */
  tokenExpiresAt?: number
}

/** How a server is reached (a kubeconfig cluster entry or a profile's, decoded). */
export interface Endpoint {
  server: string
  /** PEM of the CA bundle that signs the server certificate; the system roots when absent. */
  caPem?: string
  insecureSkipTLSVerify?: boolean
  tlsServerName?: string
  proxyUrl?: string
  disableCompression?: boolean
}

export interface ProfilePage {
  /** Parsed when first read: a lister asks for the next page before it reads this one's items. */
  items: ClusterProfile[] | Promise<ClusterProfile[]>
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

export interface ListOptions {
  /** undefined: all namespaces. */
  namespace?: string
  labelSelector?: string
  limit: number
}

/** The ClusterProfiles on the hub, read in the version discovery chose. */
export interface ProfileRepository {
  /** One page of profiles. The caller follows `next` (limit/continue pagination). */
  listProfilePage(options: ListOptions, continueToken?: string): Promise<ProfilePage>
  /** Until the server ends the watch or `signal` aborts it; an expired resourceVersion is a WatchExpiredError. */
  watchProfiles(
    options: Omit<ListOptions, 'limit'>,
    resourceVersion: string,
    onEvent: (event: ProfileWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>
  /** undefined when there is no such profile. */
  getProfile(namespace: string, name: string): Promise<ClusterProfile | undefined>
  /** Labels of every namespace (for clusterset filtering). */
  listNamespaceLabels(): Promise<Map<string, Record<string, string>>>
  /** The clusterset of one namespace and the label that names it; undefined when unlabelled or not readable. */
  clustersetOf(namespace: string): Promise<{clusterset: string; label: string} | undefined>
  /** One PlacementDecision (v1alpha1); undefined when there is no such decision. */
  getPlacementDecision(namespace: string, name: string): Promise<PlacementDecision | undefined>
  /** The PlacementDecisions of a namespace that a label selector picks (all without one). */
  listPlacementDecisions(namespace: string, labelSelector?: string): Promise<PlacementDecisionList>
  /** As watchProfiles, for the PlacementDecisions of a namespace that a label selector picks. */
  watchPlacementDecisions(
    namespace: string,
    labelSelector: string | undefined,
    resourceVersion: string,
    onEvent: (event: PlacementWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>
}

export interface PlacementDecisionList {
  items: PlacementDecision[]
  /** Where a watch of the same decisions starts. */
  resourceVersion?: string
}

export interface PlacementWatchEvent {
  type: ProfileWatchEvent['type']
  /** For a BOOKMARK, only its metadata.resourceVersion is meaningful. */
  decision: PlacementDecision
}

/** What API discovery found of the ClusterProfile API: asked once per hub, read by every caller. */
export interface ProfileApiDiscovery {
  /** GET /apis/GROUP; undefined when the hub does not serve the group at all. */
  group?: ApiGroupDocument
  /**
   * The version read: --api-version when served, else the first of PROFILE_VERSIONS whose resources
   * name clusterprofiles, else the first of them served (to say what is missing there); undefined
   * when none is served.
   */
  version?: string
  /** The resource list of that version. */
  resources?: ApiResourcesDocument
}

/** What to say when a typed call is refused or the hub cannot be reached. */
export interface HubCallHints {
  forbiddenHint?: string
  unreachableHint?: string
}

export interface SecretObject {
  data?: Record<string, string> | null
}

export interface TokenRequestSpec {
  audiences: string[]
  expirationSeconds: number
}

export interface TokenRequestAnswer {
  status?: {token?: unknown; expirationTimestamp?: unknown}
}

/**
 * The hub, connected. Every failure is an ApiFailure (src/core/failures.ts) that keeps its HTTP
 * status or connection code, explained as the ordinary error path explains it.
 */
export interface HubPort extends ProfileRepository {
  readonly config: HubConfig
  /** How the hub is reached (its cluster entry, decoded). */
  readonly endpoint: Endpoint
  /** A digest of who reads the hub: part of every credential cache key. */
  identity(): string
  /** The hub as plugins that read it must find it. */
  pin(): HubPin
  /** `the hub (context "x", https://…)`, for messages. */
  describe(): string
  /** The ClusterProfile version read (fails when none is served). */
  apiVersion(): Promise<ProfileVersion>
  /** What discovery found, whether or not a version is served. */
  profileApi(): Promise<ProfileApiDiscovery>
  /** A SelfSubjectAccessReview of one verb on clusterprofiles. */
  reviewProfileAccess(verb: string, namespace: string | undefined): Promise<AccessAnswer>
  /** A SelfSubjectAccessReview of "create serviceaccounts/token" for one ServiceAccount. */
  reviewTokenAccess(namespace: string, serviceAccount: string): Promise<AccessAnswer>
  /** Who the hub says the user is (SelfSubjectReview; a 404 where it is not served). */
  reviewSelf(): Promise<UserInfo>
  /** undefined when there is no such Secret. */
  getSecret(namespace: string, name: string, hints: HubCallHints): Promise<SecretObject | undefined>
  /** A token of a ServiceAccount; undefined when there is no such ServiceAccount. */
  requestToken(
    namespace: string,
    serviceAccount: string,
    spec: TokenRequestSpec,
    hints: HubCallHints,
  ): Promise<TokenRequestAnswer | undefined>
  /** Closes kept-alive connections so the process can exit on its own. */
  close(): Promise<void>
}

/**
 * One run of the exec credential plugin of a kubeconfig user (client-go's protocol); the runner names
 * it in messages after its command.
 */
export interface ExecPluginRequest {
  exec: ExecConfig
  /** The cluster passed to the plugin when provideClusterInfo is true. */
  cluster?: ProfileCluster
  /** The client.authentication.k8s.io/exec extension value (spec.cluster.config). */
  clusterConfig?: unknown
  stdinIsTTY: boolean
  /** Receives what a successful plugin wrote on stderr. */
  onStderr?: (text: string) => void
}

export type ExecPluginRunner = (request: ExecPluginRequest) => Promise<Credential>

/** Remembers which ClusterProfile version a hub serves, so a hot path does not ask each time. */
export interface ServedVersionCache {
  read(): Promise<ProfileVersion | undefined>
  write(version: ProfileVersion): Promise<void>
}

export interface HubConnectOptions {
  /** Runs the exec plugin of a hub kubeconfig user. */
  runExecPlugin: ExecPluginRunner
  stdinIsTTY?: boolean
  /** Where an exec plugin's stderr goes on success. */
  onPluginStderr?: (text: string) => void
  /** A request that goes this long without a byte fails (default: a minute). */
  idleTimeoutMs?: number
  /** Read ClusterProfiles in this version (--api-version) instead of the preferred one served. */
  apiVersion?: string
  versionCache?: ServedVersionCache
}

/** Opens the hub: its kubeconfig, then a connection to it. */
export interface HubConnector {
  loadConfig(selection: HubSelection): Promise<HubConfig>
  connect(config: HubConfig, options: Omit<HubConnectOptions, 'runExecPlugin'>): Promise<HubPort>
}

/** A target cluster, reached with a credential (whoami's SelfSubjectReview). */
export interface TargetPort {
  endpoint(cluster: ClusterConnection): Promise<Endpoint>
  /** Who the target says the credential makes you; a 401 or 404 is an ApiFailure with that status. */
  reviewSelf(resolution: Resolution, credential: Credential): Promise<SelfSubjectReview>
  /** What the credential may do in a namespace of the target (SelfSubjectRulesReview). */
  reviewRules(resolution: Resolution, credential: Credential, namespace: string): Promise<RulesStatus>
  /** Whether the credential may do one action on the target (SelfSubjectAccessReview). */
  reviewAccess(
    resolution: Resolution,
    credential: Credential,
    question: AccessQuestion,
  ): Promise<AccessStatus>
}

export interface ProviderFileSelection {
  providerFile?: string
  accessProviders?: string[]
}

/** The consumer's provider file, as doctor reads it. */
export interface LoadedProviderFile {
  source: string
  providers: Provider[]
  warnings: string[]
}

/** Where doctor looks, without changing anything. */
export interface DoctorProbes {
  /** TCP, TLS and an anonymous GET /version (no credential is sent). */
  probe(endpoint: Endpoint): Promise<ServerProbe>
  findExecutable(command: string, pathVariable: string | undefined): Promise<ExecutableLookup>
  /** What is on disk for one credential cache key (only read), or why it cannot be read (an errno code). */
  cacheFiles(key: string): Promise<CacheFiles | {unreadable: string}>
  /** Where cached credentials live. */
  readonly cacheDir: string
  /** When the last copy of a profile was read, for the hub outage hint; undefined when none is kept. */
  lastSnapshot(hubIdentity: string, namespace: string, name: string): Promise<number | undefined>
}

/** Loads the hub's kubeconfig as `selection` says and connects to it. */
export type HubOpener = (selection: HubSelection) => Promise<HubPort>

// ---------------------------------------------------------------------------------------------
// Narrower views of the hub for the use cases that need only part of it (and for their fakes)

/** Pages of ClusterProfiles, and the namespaces' labels (clustersets): list. */
export type ProfilePageSource = Pick<ProfileRepository, 'listProfilePage' | 'listNamespaceLabels'>

/** One profile by name, besides pages: find, kubeconfig, describe. */
export type ProfileFinder = ProfilePageSource & Pick<ProfileRepository, 'getProfile'>

/** PlacementDecisions, one by name or by label: --placement, --placement-key. */
export type PlacementSource = Pick<ProfileRepository, 'getPlacementDecision' | 'listPlacementDecisions'>

/** What a fan-out selection reads: profiles by name and by page, and PlacementDecisions. */
export type SelectionSource = ProfileFinder & PlacementSource

/** A watch from a resourceVersion, besides pages: list -w, sync --watch. */
export type ProfileWatchSource = ProfilePageSource & Pick<ProfileRepository, 'watchProfiles'>

/** sync --watch of a selection: profiles and PlacementDecisions, each listed and watched. */
export type FleetWatchSource = ProfileWatchSource &
  SelectionSource &
  Pick<ProfileRepository, 'watchPlacementDecisions'>

/** What describe shows besides the profile: its namespace's clusterset, and the hub it came from. */
export type ProfileDescriber = ProfileFinder &
  Pick<HubPort, 'clustersetOf' | 'pin' | 'listPlacementDecisions'> &
  Partial<Pick<HubPort, 'reviewTokenAccess' | 'config'>>

/** A person at a terminal who can choose one profile of a list. */
export interface Chooser {
  /** A person can be asked (Printer.interactive: stdin and the controlling terminal are terminals). */
  interactive: boolean
  pickOne(profiles: ClusterProfile[]): Promise<ClusterProfile>
}

/** The hub as a provider's serviceAccountToken block needs it: TokenRequest, and the pod it may run in. */
export type FederationHub = Pick<HubPort, 'requestToken' | 'describe' | 'close' | 'config'>

/** What federating a plugin takes: the hub, opened on first use, and private token files. */
export interface FederationPorts {
  openHub(): Promise<FederationHub>
  files: Pick<TempKubeconfigs, 'create' | 'remove' | 'sweepStale' | 'dispose'>
}

/** The hub `cpcred hub use` keeps, in cpcred's config directory (adapters/hub-choice.ts). */
export interface SavedHubStore {
  readonly file: string
  read(): Promise<SavedHub | undefined>
  /** undefined forgets it. */
  write(saved: SavedHub | undefined): Promise<void>
}
