// What use cases need from outside the process, declared once. Adapters implement these types;
// src/cli/wiring.ts builds the implementations and hands them to the use cases; unit tests hand them
// fakes (test/unit/usecase-*.test.ts). A use case imports nothing from src/adapters.

// ---------------------------------------------------------------------------------------------
// The hub, the target servers, doctor's probes and the exec plugins that authenticate to the hub

import type {ExecConfig} from '../core/access/exec-config.js'
import type {Provider} from '../core/access/provider-file.js'
import type {ClusterConnection} from '../core/access/connection.js'
import type {Resolution} from '../core/access/resolve-access.js'
import type {AccessAnswer, UserInfo} from '../core/doctor/hub.js'
import type {ApiGroupDocument, ApiResourcesDocument} from '../core/doctor/api.js'
import type {CacheFiles} from '../core/doctor/cache.js'
import type {ExecutableLookup} from '../core/doctor/plugin.js'
import type {ServerProbe} from '../core/doctor/server-tls.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import type {MergedKubeconfig} from '../core/kubeconfig/merge.js'
import type {ClusterProfile, ProfileCluster, ProfileVersion} from '../core/profiles/cluster-profile.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import type {LifetimeRule} from '../core/exec-credential/cache.js'
import type {Writable} from 'node:stream'
import type {ProfileRef} from './profile-ref.js'

/** How the hub is chosen, as kubectl chooses a cluster (--kubeconfig, KUBECONFIG, --context, -n). */
export interface HubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** Read ClusterProfiles in this version (--api-version), not the preferred one the hub serves. */
  apiVersion?: string
}

/** The hub's kubeconfig as loaded: the merged files and the context in use. */
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

/** A watch from a resourceVersion, besides pages: list -w, sync --watch. */
export type ProfileWatchSource = ProfilePageSource & Pick<ProfileRepository, 'watchProfiles'>

/** What describe shows besides the profile: its namespace's clusterset, and the hub it came from. */
export type ProfileDescriber = ProfileFinder & Pick<HubPort, 'clustersetOf' | 'pin'>

/** A person at a terminal who can choose one profile of a list. */
export interface Chooser {
  /** A person can be asked (Printer.interactive: stdin and the controlling terminal are terminals). */
  interactive: boolean
  pickOne(profiles: ClusterProfile[]): Promise<ClusterProfile>
}

// ---------------------------------------------------------------------------------------------
// Kubeconfig files (kubeconfig, sync)

/** The user's kubeconfig files, as cpcred writes them (src/adapters/kubeconfig-files.ts). */
export interface KubeconfigFiles {
  read(file: string): Promise<string | undefined>
  /** Atomically, through symlinks, keeping an existing file's mode and owner (new files 0600). */
  write(file: string, content: string): Promise<void>
  withLock<T>(file: string, action: () => Promise<T>): Promise<T>
}

// ---------------------------------------------------------------------------------------------
// Shell completion (__complete)

/** The profile names offered at TAB for one hub, as last fetched. */
export interface CompletionList {
  fetchedAt: number
  /** NAMESPACE/NAME of each profile. */
  profiles: string[]
}

/** Short-lived lists of profile names per hub identity, renewed by one refresh at a time. */
export interface CompletionLists {
  read(hubIdentity: string): Promise<CompletionList | undefined>
  /** Waits up to `ms` for a list to appear (the first TAB for a hub). */
  waitFor(hubIdentity: string, ms: number): Promise<CompletionList | undefined>
  /** Young enough to be offered without a refresh. */
  isFresh(list: CompletionList | undefined): boolean
  write(hubIdentity: string, profiles: string[]): Promise<void>
  /** true for the one caller that may refresh now. */
  claimRefresh(hubIdentity: string): Promise<boolean>
  releaseRefresh(hubIdentity: string): Promise<void>
}

/** The hub a completion is for, known from the kubeconfig alone (no request). */
export interface CompletionHub {
  identity: string
  /** The context's namespace (or -n): names in it are offered without the namespace. */
  namespace: string
}

// ---------------------------------------------------------------------------------------------
// The credential pipeline and exec
// What `credential`, `exec`, `whoami` and `cache clear` need: the hub as far as credentials care
// (who reads it, how plugins find it, one profile), the provider file, plugins, the credential cache,
// the answers kept for the next identical question, the user's command, its temporary kubeconfig,
// and the signals sent to cpcred.
/** Who reads the hub (every cache key carries it), how plugins find it, and its namespace. */
export interface HubIdentity {
  identity: string
  pin: HubPin
  /** -n, else the context's namespace, else "default". */
  namespace: string
}

/** The hub as the hot paths know it: its identity from a summary, one profile read on demand. */
export interface ProfileHub extends HubIdentity {
  /**
   * Reads one profile from the hub. `remember`: the served version may be kept (not with
   * --no-cache); `idleTimeoutMs`: a silent hub is given up on after this long.
   */
  readProfile(ref: ProfileRef, options: {remember: boolean; idleTimeoutMs?: number}): Promise<ClusterProfile>
  /** The failure says the hub is down (refused, timed out, 5xx), never a 401, 403 or TLS failure. */
  isOutage(error: unknown): boolean
}

/** The hub as commands that may pick a profile know it (whoami, cache clear). */
export interface SessionHub extends HubIdentity {
  /** The profile named (NAME or NAMESPACE/NAME) or, on a terminal without one, picked from a list. */
  chooseProfile(text: string | undefined, allNamespaces: boolean): Promise<ClusterProfile>
  close(): Promise<void>
}

/** A profile as read from the hub, and where and when that was. */
export interface ProfileSnapshot {
  profile: ClusterProfile
  file: string
  fetchedAt: number
  /** The identity of the hub it was read from. */
  hub: string
}

/** Recently read profiles, per hub identity. */
export interface ProfileSnapshotStore {
  last(hubIdentity: string, namespace: string, name: string): Promise<ProfileSnapshot | undefined>
  remember(hubIdentity: string, profile: ClusterProfile): Promise<ProfileSnapshot | undefined>
}

export interface ProviderSelection {
  providerFile?: string
  accessProviders?: string[]
}

/** The consumer's providers as read, with what is wrong in them said as warnings. */
export interface ProvidersRead {
  warnings: string[]
  /** The providers read, none when there is no provider file (selecting targets needs no more). */
  providers: Provider[]
  /** The providers; throws the usage error that says where to declare one when there is none. */
  required(): Provider[]
}

export interface ProviderSource {
  load(selection: ProviderSelection): Promise<ProvidersRead>
}

export interface PluginRunRequest {
  command: string
  args: string[]
  /** Added to (and overriding) cpcred's own environment, as client-go does. */
  env: Record<string, string>
  /** Interactive plugins get the terminal: stdin and stderr pass through live. */
  interactive: boolean
  timeoutMs: number
  /** A plugin that prints more than this is broken; stop it rather than fill memory. */
  maxStdoutBytes: number
}

export interface PluginRunResult {
  /** undefined when the process did not exit normally (not found, timed out, killed). */
  exitCode?: number
  stdout: string
  /** The end of what it wrote on stderr (empty for interactive runs, whose stderr is the terminal's). */
  stderr: string
  notFound: boolean
  /** The plugin could not be started for another reason (e.g. EACCES: not executable). */
  startError?: string
  timedOut: boolean
  outputTooLarge: boolean
  /** cpcred was asked to stop (this signal) while the plugin ran, and stopped it. */
  interrupted?: NodeJS.Signals
  signal?: string
}

/** Runs credential plugins, each in a process group of its own. */
export interface PluginProcessRunner {
  run(request: PluginRunRequest): Promise<PluginRunResult>
}

export interface CachedCredential {
  credential: Credential
  fromCache: boolean
  /** Until when the cache serves it (by the rule asked for), when it is in the cache. */
  cachedUntil?: Date
  /** When the plugin returned it. */
  obtainedAt?: Date
}

/** A credential by cache key: served when usable, else fetched (once, even with many callers). */
export interface CredentialCache {
  obtain(
    key: string,
    fetch: () => Promise<Credential>,
    ttlSeconds?: number,
    rule?: LifetimeRule,
  ): Promise<CachedCredential>
}

/** The credential cache on disk. */
export interface CredentialStore extends CredentialCache {
  readonly dir: string
  /** The file of a key's entry (an answer depends on it). */
  entryPath(key: string): string
  /** Removes the entries of these keys, or all; returns how many went. */
  clear(keys?: string[]): Promise<number>
}

/** What an answer kept for the next identical question depends on besides its signed inputs. */
export interface AnswerSource {
  cacheKey: string
  cachedUntil: Date
  snapshot: ProfileSnapshot
  profileMaxAgeMs: number
}

/**
 * The answer to this exact question (`credential` or `exec` with these words), kept for the next
 * one. Its input files are signed when it is begun, before they are read.
 */
export interface AnswerDraft {
  keep(payload: string, from: AnswerSource): Promise<void>
}

export interface AnswerBook {
  begin(
    command: 'credential' | 'exec',
    args: string[],
    inputs: {kubeconfig?: string; providers: ProviderSelection},
  ): AnswerDraft
}

/** Talks to a profile's cluster with a credential (whoami). */
export interface SelfSubjectReview {
  apiVersion: string
  kind: string
  status: {userInfo: {username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]>}}
}

export interface ChildRequest {
  command: string
  args: string[]
  /** Added to cpcred's own environment. */
  env: Record<string, string>
}

export interface ChildResult {
  /**
   * The exit code, or 128+n when the command died of signal n, or as a shell reports a command it
   * cannot start: 127 when there is no such command, 126 when it cannot be run (not executable).
   */
  exitCode: number
  signal?: string
  notFound: boolean
  /** Why the command could not start, in the shell's words ("command not found", "Permission denied"). */
  startError?: string
}

export interface RunningChild {
  result: Promise<ChildResult>
  /** Passes a signal on (to the command's whole process group when it has one). */
  kill(signal: NodeJS.Signals): void
  /** Ends it: SIGTERM, then SIGKILL after a grace (--fail-fast). */
  stop(): void
}

export type OnLine = (stream: 'stdout' | 'stderr', line: string) => void

/** A fan-out target's stdin: a descriptor to hand over, or a pipe that is fed once the child runs. */
export interface ChildStdin {
  stdio: number | 'pipe'
  /** The child has been started; `stdin` is its pipe (null when it was given a descriptor). */
  started(stdin: Writable | null): void
}

/** The user's command, as `cpcred exec` runs it. */
export interface ChildRunner {
  /**
   * stdio inherited: the command owns the terminal and stays in its foreground process group,
   * unless `ownGroup` (--timeout), so that stopping it stops what it started too, as timeout(1) does.
   */
  inherited(request: ChildRequest, options?: {ownGroup?: boolean}): RunningChild
  /**
   * stdin from `stdin` or else /dev/null; each line of stdout and stderr handed to `onLine`, or both
   * sent to /dev/null without one (nobody reads them). The command gets a process group of its own,
   * so stopping it stops what it started too.
   */
  prefixed(request: ChildRequest, onLine?: OnLine, stdin?: ChildStdin): RunningChild
}

export interface TempKubeconfigs {
  /** Writes the content to a new private file (0600 in a 0700 directory); returns its path. */
  create(content: string, kind?: 'kubeconfig' | 'credential'): Promise<string>
  /** Replaces a file create made with new content, atomically (a reader sees the old or the new). */
  replace(file: string, content: string): Promise<void>
  /** Removes the file. */
  remove(file: string): Promise<void>
  /** A path in the run's private directory for a file the caller creates; it goes with the directory. */
  pathFor(name: string): Promise<string>
  /** Removes the run's private directory (and anything left in it); called once, at the end. */
  dispose(): Promise<void>
  /** Removes what runs killed before they could clean up left behind (housekeeping, never fails). */
  sweepStale(): Promise<unknown>
  /** The absolute path of the program that prints the credential file for kubectl (cat). */
  readonly credentialReader: string
}

/**
 * Runs a renewal command and hands back its stdout; stdin is closed, stderr is the user's unless
 * `quiet` (a retry after a failure that was already reported).
 */
export type RenewCredential = (
  command: string[],
  options?: {quiet?: boolean; signal?: AbortSignal},
) => Promise<string>

/** While `action` runs, signals sent to cpcred go to `forward` instead of ending it. */
export type ForwardingSignals = <T>(
  forward: (signal: NodeJS.Signals) => void,
  action: () => Promise<T>,
) => Promise<T>

/** What a command says on stderr while it works (the printer, for people). */
export interface Notices {
  warn(message: string): void
  /** A note (--verbose, cache problems). */
  note(message: string): void
  /** A plugin's own stderr, passed on as it is (made printable). */
  pluginStderr(text: string): void
}
