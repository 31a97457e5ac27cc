// The ports of the ClusterProfile API on the hub: pages, watches, one profile by name, PlacementDecisions
// and what discovery found; narrower views for the use cases that need only part (and their fakes);
// and the person at a terminal who chooses one profile.
import type {ApiGroupDocument, ApiResourcesDocument} from '../../core/doctor/api.js'
import type {PlacementDecision} from '../../core/fleet/placement.js'
import type {ClusterProfile} from '../../core/profiles/cluster-profile.js'

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

/** A person at a terminal who can choose one profile of a list. */
export interface Chooser {
  /** A person can be asked (Printer.interactive: stdin and the controlling terminal are terminals). */
  interactive: boolean
  pickOne(profiles: ClusterProfile[]): Promise<ClusterProfile>
}

/** The hub, connected, for selecting exec's targets. */
export type TargetHub = SelectionSource & {
  /** -n, else the context's namespace. */
  namespace: string
  close(): Promise<void>
}
