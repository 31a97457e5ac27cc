// What use cases need from outside the process, declared once. Adapters implement these types;
// src/cli/wiring.ts builds the implementations and hands them to the use cases; unit tests hand them
// fakes (test/unit/usecase-*.test.ts). A use case imports nothing from src/adapters.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {HubPin} from '../core/profiles/hub-pin.js'

// --- Kubeconfig files (kubeconfig, sync) ---

/** The user's kubeconfig files, as cpcred writes them (src/adapters/kubeconfig-files.ts). */
export interface KubeconfigFiles {
  read(file: string): Promise<string | undefined>
  /** Atomically, through symlinks, keeping an existing file's mode and owner (new files 0600). */
  write(file: string, content: string): Promise<void>
  withLock<T>(file: string, action: () => Promise<T>): Promise<T>
}

// --- The hub: its ClusterProfiles (list, find, follow, kubeconfig, sync, describe) ---

/** A page of ClusterProfiles, and the namespaces' labels (clustersets). */
export interface ProfilePageSource {
  listProfilePage(
    options: {namespace?: string; labelSelector?: string; limit: number},
    continueToken?: string,
  ): Promise<{items: ClusterProfile[] | Promise<ClusterProfile[]>; next?: string; resourceVersion?: string}>
  listNamespaceLabels(): Promise<Map<string, Record<string, string>>>
}

/** One profile by name, besides pages. */
export interface ProfileFinder extends ProfilePageSource {
  getProfile(namespace: string, name: string): Promise<ClusterProfile | undefined>
}

export interface ProfileWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
  /** The profile (for a BOOKMARK, only its metadata.resourceVersion is meaningful). */
  profile: ClusterProfile
}

/** A watch from a resourceVersion, besides pages. */
export interface ProfileWatchSource extends ProfilePageSource {
  /** What a listing would show of profiles a watch reported (the hub's v1alpha1 fallback). */
  watchProfiles(
    options: {namespace?: string; labelSelector?: string},
    resourceVersion: string,
    onEvent: (event: ProfileWatchEvent) => void,
    signal?: AbortSignal,
  ): Promise<void>
}

/** What describe shows besides the profile: its namespace's clusterset, and the hub it came from. */
export interface ProfileDescriber extends ProfileFinder {
  clustersetOf(namespace: string): Promise<{clusterset: string; label: string} | undefined>
  /** The hub as kubeconfigs cpcred writes pin it (server, context, namespace). */
  pin(): HubPin
}

/** A person at a terminal who can choose one profile of a list. */
export interface Chooser {
  /** A person can be asked (Printer.interactive: stdin and the controlling terminal are terminals). */
  interactive: boolean
  pickOne(profiles: ClusterProfile[]): Promise<ClusterProfile>
}

// --- Shell completion (__complete) ---

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
