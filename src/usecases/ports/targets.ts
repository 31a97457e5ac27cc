// The ports of a target cluster, reached with a credential: who it says you are (whoami) and what
// you may do there (doctor --can).
import type {ClusterConnection} from '../../core/access/connection.js'
import type {Resolution} from '../../core/access/resolve-access.js'
import type {Credential} from '../../core/exec-credential/protocol.js'
import type {AccessQuestion, AccessStatus, RulesStatus} from '../../core/doctor/target-access.js'
import type {ApiResource} from '../../core/get/discovery.js'
import type {Endpoint} from './hub.js'

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

/** Talks to a profile's cluster with a credential (whoami). */
export interface SelfSubjectReview {
  apiVersion: string
  kind: string
  status: {userInfo: {username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]>}}
}

/** One GET to a target (`cpcred get`): the path and query (core/get/request.ts) and what to accept. */
export interface TargetGet {
  path: string
  query?: Record<string, string>
  accept: string
}

/** One event of a target's watch: its object as asked (a Table of one row, or the object). */
export interface TargetEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
  object: unknown
}

/** A target cluster reached with a credential, for reading (`cpcred get`); close() lets its connections go. */
export interface TargetApi {
  /**
   * The answer, parsed as JSON. A failure is a CpcredError that says it was `action` (e.g. "list
   * pods") on "the target", with the exit code of its class (3 unreachable or not served, 4 denied).
   */
  get(request: TargetGet, action: string): Promise<unknown>
  /**
   * `request` watched from `resourceVersion` (get --watch): each event (ADDED, MODIFIED, DELETED) to
   * `onEvent` until the server ends the watch (resolves) or `signal` aborts it; an expired
   * resourceVersion is a WatchExpiredError, any other failure a CpcredError as get's.
   */
  watch(
    request: TargetGet & {resourceVersion: string},
    action: string,
    onEvent: (event: TargetEvent) => void,
    signal: AbortSignal,
  ): Promise<void>
  close(): Promise<void>
}

/** Opens a TargetApi to a profile's cluster with its credential (src/adapters/target-api.ts). */
export interface TargetApis {
  open(target: {
    cluster: ClusterConnection
    credential: Credential
    /**
     * A credential again after the target answered 401 (the one in use expired, e.g. during a
     * long watch): the request is retried once with it, as client-go re-runs an exec plugin.
     */
    renew?: () => Promise<Credential>
    as?: string
    asGroups?: string[]
  }): TargetApi
}

/** What discovery found on a server, when (milliseconds since the epoch). */
export interface CachedDiscovery {
  fetchedAt: number
  resources: ApiResource[]
}

/** Discovery kept per server URL, as kubectl keeps it (src/adapters/discovery-cache.ts). */
export interface DiscoveryCache {
  read(server: string): Promise<CachedDiscovery | undefined>
  /** Never fails: a cache only saves work. */
  write(server: string, value: CachedDiscovery): Promise<void>
}
