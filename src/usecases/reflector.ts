// Following a kind of object on the hub as client-go's reflector does: list, then watch from the
// list's resourceVersion with bookmarks; a watch the server ends is resumed where it stopped, an
// expired one (410 Gone) is replaced by a fresh list, and a dropped connection or a restarting hub is
// retried with capped exponential backoff. Changes found by a relist are reported as the events they
// stand for, so a consumer sees one stream of changes whatever happened on the way.
import {WatchExpiredError} from '../core/errors.js'

export interface WatchedObject {
  metadata: {resourceVersion?: string}
}

export interface ObjectEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
  /** For a BOOKMARK, only its metadata.resourceVersion is meaningful. */
  object: T
}

export type ObjectChange<T> = {type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T}

/** What is followed: a listing, a watch from its resourceVersion, and how objects are told apart. */
export interface Reflected<T extends WatchedObject, L extends Listing<T> = Listing<T>> {
  list(): Promise<L>
  watch(resourceVersion: string, onEvent: (event: ObjectEvent<T>) => void, signal: AbortSignal): Promise<void>
  key(object: T): string
  /**
   * A listing already made and shown (get --watch's first table): followed from its
   * resourceVersion, without listing again or telling onList.
   */
  initial?: L
}

export interface Listing<T> {
  items: T[]
  resourceVersion?: string
  /** A client-side filter the watch's events pass too (the server's selector cannot say it). */
  matches?: (object: T) => boolean
}

export interface ReflectHandlers<T, L> {
  /** The first listing. */
  onList(listing: L): void
  /** Each change after it; `objects` is everything followed as it now stands. */
  onChange(change: ObjectChange<T>, objects: T[]): void
  /** A failure that will be retried (after `retryInMs`). */
  onProblem(message: string, retryInMs: number): void
}

export interface ReflectOptions {
  signal: AbortSignal
  /** Waits before a retry; resolves early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export const BACKOFF_INITIAL_MS = 250
export const BACKOFF_MAX_MS = 8000
/** A watch that ends sooner than this after it started counts as a failure, so it cannot spin. */
const SHORT_WATCH_MS = 1000

/** The delay before retry `attempt` (1, 2, …): doubling from BACKOFF_INITIAL_MS, capped, with jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** (attempt - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}

/**
 * Runs until the signal aborts; never ends on a hub failure after the first listing, only reports it
 * and retries. A failure of the first listing is thrown, as kubectl get -w does.
 */
export async function reflect<T extends WatchedObject, L extends Listing<T>>(
  source: Reflected<T, L>,
  options: ReflectOptions,
  handlers: ReflectHandlers<T, L>,
): Promise<void> {
  const {signal} = options
  const sleep = options.sleep ?? abortableSleep
  const current = new Map<string, T>()
  const snapshot = () => [...current.values()]
  let resourceVersion: string | undefined
  let matches: (object: T) => boolean = () => true
  let listed = false
  let failures = 0
  const initial = source.initial
  if (initial?.resourceVersion !== undefined) {
    for (const object of initial.items) current.set(source.key(object), object)
    matches = initial.matches ?? (() => true)
    resourceVersion = initial.resourceVersion
    listed = true
  }

  const relist = async () => {
    const result = await source.list()
    const first = !listed
    matches = result.matches ?? (() => true)
    const fresh = new Map(result.items.map((object) => [source.key(object), object]))
    if (!first) {
      // What the watch would have told, had it not expired or broken off.
      for (const [key, object] of current) {
        if (!fresh.has(key)) {
          current.delete(key)
          handlers.onChange({type: 'DELETED', object}, snapshot())
        }
      }
      for (const [key, object] of fresh) {
        const before = current.get(key)
        if (before?.metadata.resourceVersion === object.metadata.resourceVersion) continue
        current.set(key, object)
        handlers.onChange({type: before ? 'MODIFIED' : 'ADDED', object}, snapshot())
      }
    } else {
      for (const [key, object] of fresh) current.set(key, object)
    }
    resourceVersion = result.resourceVersion
    listed = true
    if (first) handlers.onList(result)
  }

  // Events are applied in order, each after the one before has been completed.
  let applying: Promise<void> = Promise.resolve()
  const enqueue = (event: ObjectEvent<T>) => {
    applying = applying.then(async () => {
      apply(event)
    })
  }
  const apply = (event: ObjectEvent<T>) => {
    resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion
    if (event.type === 'BOOKMARK') return
    const key = source.key(event.object)
    // An object that stops matching a client-side filter leaves what is followed.
    const gone = event.type === 'DELETED' || !matches(event.object)
    if (gone) {
      const before = current.get(key)
      if (!before) return
      current.delete(key)
      handlers.onChange({type: 'DELETED', object: event.object}, snapshot())
      return
    }
    const type = current.has(key) ? 'MODIFIED' : 'ADDED'
    current.set(key, event.object)
    handlers.onChange({type, object: event.object}, snapshot())
  }

  while (!signal.aborted) {
    const started = Date.now()
    try {
      if (resourceVersion === undefined) await relist()
      await source.watch(resourceVersion!, enqueue, signal).finally(() => applying)
      if (Date.now() - started >= SHORT_WATCH_MS) {
        failures = 0
        continue
      }
      // Ended as soon as it began: treat it like a failure so a broken server cannot make us spin.
      throw new Error('the hub ended the watch at once')
    } catch (error) {
      if (signal.aborted) return
      if (error instanceof WatchExpiredError) {
        resourceVersion = undefined
        continue
      }
      // Before the first listing nothing is being followed yet: fail at once.
      if (!listed) throw error
      const delay = backoffDelay(++failures)
      handlers.onProblem((error as Error).message, delay)
      await sleep(delay, signal)
    }
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}
