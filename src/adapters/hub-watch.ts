// One watch of a kind of object on the hub (or on a target, for get --watch), as client-go's
// reflector asks for it: from a list's resourceVersion, with bookmarks (unless asked without),
// ended by the server after a randomised 5-10 minutes. An expired resourceVersion (410 Gone, as a
// status or as an ERROR event) is a WatchExpiredError; every other failure leaves as the caller's
// translation says (the hub's ApiFailure, the target's).
import {WatchExpiredError, type CpcredError} from '../core/errors.js'
import type {TranslateOptions} from './kube-errors.js'
import {KubeApiError, type KubeClient} from './kube-client.js'

/** How long the server keeps one watch open before ending it, as client-go's reflector asks (5-10 min). */
const WATCH_SECONDS = 300

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'

/** The parts of the hub a call needs: its client, and how its failures are explained. */
export interface HubCalls {
  client: KubeClient
  translate(error: unknown, action: string, options?: TranslateOptions): CpcredError
}

export interface WatchRequest {
  path: string
  resourceVersion: string
  labelSelector?: string
  /** More of the query (fieldSelector, includeObject), as the list before it was asked. */
  query?: Record<string, string>
  /** Each event's object in another shape: a server-side Table (get --watch). */
  accept?: string
  /** false: no BOOKMARK events (a Table watch, as kubectl get -w asks). */
  bookmarks?: boolean
  /** What is watched, for errors: "watch ClusterProfiles in namespace "x"". */
  action: string
  hints?: TranslateOptions
}

/** Until the server ends the watch (resolves) or `signal` aborts it. */
export async function watchObjects<T>(
  hub: HubCalls,
  request: WatchRequest,
  onEvent: (type: WatchEventType, object: T) => void,
  signal?: AbortSignal,
): Promise<void> {
  const {path, action, hints} = request
  const query = {
    ...request.query,
    watch: 'true',
    allowWatchBookmarks: request.bookmarks === false ? undefined : 'true',
    resourceVersion: request.resourceVersion,
    labelSelector: request.labelSelector,
    timeoutSeconds: Math.round(WATCH_SECONDS * (1 + Math.random())),
  }
  try {
    await hub.client.watch(
      path,
      query,
      (event) => {
        if (event.type === 'ERROR') {
          const status = event.object as {code?: number}
          if (status.code === 410) throw new WatchExpiredError()
          throw hub.translate(new KubeApiError(status.code ?? 500, event.object, 'GET', path), action, hints)
        }
        onEvent(event.type as WatchEventType, event.object as T)
      },
      signal,
      request.accept,
    )
  } catch (error) {
    if (error instanceof WatchExpiredError) throw error
    if (error instanceof KubeApiError && error.status === 410) throw new WatchExpiredError()
    throw hub.translate(error, action, hints)
  }
}
