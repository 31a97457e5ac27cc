// The ports of the hub: its configuration, the connection and the typed calls (doctor, the built-in
// plugins), the exec plugins that authenticate to the hub, the hub `cpcred hub use` keeps, and the
// narrower views of the hub that describe and federation need.
import type {ExecConfig} from '../../core/access/exec-config.js'
import type {AccessAnswer, UserInfo} from '../../core/doctor/hub.js'
import type {Credential} from '../../core/exec-credential/protocol.js'
import type {PodServiceAccount} from '../../core/kubeconfig/in-cluster.js'
import type {MergedKubeconfig} from '../../core/kubeconfig/merge.js'
import type {ProfileCluster, ProfileVersion} from '../../core/profiles/cluster-profile.js'
import type {HubPin} from '../../core/profiles/hub-pin.js'
import type {HubSource, SavedHub} from '../../core/kubeconfig/hub-choice.js'
import type {ClientEndpoint as Endpoint} from '../../core/access/connection.js'
import type {ProfileApiDiscovery, ProfileFinder, ProfileRepository} from './profiles.js'
import type {TempKubeconfigs} from './processes.js'

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
  /** --request-timeout: how long one hub request may take (0: no limit; default DEFAULT_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number
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
  /** The selection's --request-timeout, which every client of this hub applies. */
  requestTimeoutMs?: number
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

/** How a server is reached (a kubeconfig cluster entry or a profile's, decoded): core's one definition. */
export type {Endpoint}

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
  /** A request that goes this long without a byte fails (default: never; the request timeout bounds it). */
  idleTimeoutMs?: number
  /**
   * Told what is being waited for (the hub, described) when a request has gone a few seconds
   * without an answer, and undefined once none is waited for: the terminal's status line.
   */
  onWaiting?: (what: string | undefined) => void
  /** Read ClusterProfiles in this version (--api-version) instead of the preferred one served. */
  apiVersion?: string
  versionCache?: ServedVersionCache
}

/** Opens the hub: its kubeconfig, then a connection to it. */
export interface HubConnector {
  loadConfig(selection: HubSelection): Promise<HubConfig>
  connect(config: HubConfig, options: Omit<HubConnectOptions, 'runExecPlugin'>): Promise<HubPort>
}

/** Loads the hub's kubeconfig as `selection` says and connects to it. */
export type HubOpener = (selection: HubSelection) => Promise<HubPort>

/** What describe shows besides the profile: its namespace's clusterset, and the hub it came from. */
export type ProfileDescriber = ProfileFinder &
  Pick<HubPort, 'clustersetOf' | 'pin' | 'listPlacementDecisions'> &
  Partial<Pick<HubPort, 'reviewTokenAccess' | 'config'>>

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
