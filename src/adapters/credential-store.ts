// The credential cache on disk: one private file per key under ~/.cache/cpcred/credentials/, read without a
// lock on the hot path, filled in a transaction under a sibling lock file so that concurrent callers run the
// plugin once. Which entry may be served, and until when, is decided by core/exec-credential/cache.ts.
// A cache failure never fails a credential: it is reported through onProblem and the plugin runs directly.

import {createHash} from 'node:crypto'
import {readdir, rm, stat} from 'node:fs/promises'
import path from 'node:path'
import {
  createEntry,
  entryMargin,
  isUsable,
  type LifetimeRule,
  parseEntry,
  serializeEntry,
  servedUntil,
  type CacheEntry,
} from '../core/exec-credential/cache.js'
import {CpcredError} from '../core/errors.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import type {CredentialStore as CredentialStorePort} from '../usecases/ports.js'
import {answersDir} from './credential-answers.js'
import {ensurePrivateDir} from './directories.js'
import {errorCode, writeFileAtomic} from './files.js'
import {readPrivateFile} from './private-files.js'

/**
 * How long a caller waits for another process that holds the lock of the same key. That process is running
 * the plugin, which may take up to the plugin timeout (2 minutes by default) — longer when it waits for a
 * browser login — and a waiter that gives up runs the plugin a second time (a second login prompt), so the
 * default outlasts the default plugin timeout. Callers with a different plugin timeout should pass theirs
 * plus a margin. A lock whose holder died is recovered after staleLockMs, not after this.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 150_000

/**
 * After how long without a refresh a lock counts as abandoned. proper-lockfile refreshes the lock's mtime
 * every half of this while its holder is alive, so only a dead holder (or one whose event loop stalls for
 * this long) lets it go stale; 10s (proper-lockfile's default) keeps recovery after a crash short while
 * leaving a busy 2-core machine ample slack. proper-lockfile enforces a minimum of 2s.
 */
export const DEFAULT_STALE_LOCK_MS = 10_000

// Polling for a held lock starts fast (a quick plugin finishes in tens of milliseconds) and backs off to a
// cap that keeps 20 waiting processes from spinning; the jitter keeps them from polling in lockstep.
const FIRST_POLL_MS = 20
const MAX_POLL_MS = 250

export interface CredentialStoreOptions {
  /** Judges entry expiry. Lock staleness and timeouts use the real clock, as other processes do. */
  clock?: () => Date
  lockTimeoutMs?: number
  staleLockMs?: number
  /** Receives what went wrong with the cache (shown under --verbose). Messages never contain a secret. */
  onProblem?: (message: string) => void
}

export interface ObtainResult {
  credential: Credential
  fromCache: boolean
  /** Until when the cache serves it, when it is in the cache. */
  cachedUntil?: Date
  /** When the plugin returned it. */
  obtainedAt: Date
}

type LockOutcome = {release: () => Promise<void>} | {entry: CacheEntry}

export class CredentialStore implements CredentialStorePort {
  readonly dir: string
  private readonly clock: () => Date
  private readonly lockTimeoutMs: number
  private readonly staleLockMs: number
  private readonly onProblem: (message: string) => void

  constructor(dir: string, options: CredentialStoreOptions = {}) {
    this.dir = dir
    this.clock = options.clock ?? (() => new Date())
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS
    this.staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS
    this.onProblem = options.onProblem ?? (() => undefined)
  }

  /**
   * The entry for `key` if it may be served now. Lock-free and one read, because kubectl runs
   * `cpcred credential` before its requests: a writer replaces entries by rename, so a reader sees a whole
   * old or a whole new entry. Corrupt entries are reported and treated as missing; this never throws.
   */
  lookup(key: string, rule?: LifetimeRule): Promise<CacheEntry | undefined> {
    return this.read(key, false, rule)
  }

  /**
   * The cached credential for `key`, or a fresh one from `fetch`, cached when createEntry allows it
   * (ttlSeconds caps the entry's life; 0 turns caching off). Concurrent callers for one key, in this process
   * or others, run `fetch` once: the others wait for the lock and then find the entry. A fetch failure
   * propagates unchanged; a cache failure is reported and bypassed. `rule` says how much of its life a
   * cached credential must have left (core/exec-credential/cache.ts; the cache's margin when absent).
   */
  async obtain(
    key: string,
    fetch: () => Promise<Credential>,
    ttlSeconds?: number,
    rule?: LifetimeRule,
  ): Promise<ObtainResult> {
    if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds >= 0)) {
      // A caller's bug (flags are validated before this), not a cache failure: fail before running a plugin.
      throw new RangeError(`cache TTL must be a non-negative number of seconds, got ${ttlSeconds}`)
    }
    const served = (entry: CacheEntry): ObtainResult => ({
      credential: entry.credential,
      fromCache: true,
      cachedUntil: servedUntil(entry, entryMargin(entry, rule)),
      obtainedAt: entry.obtainedAt,
    })
    const fresh = async (): Promise<ObtainResult> => ({
      credential: await fetch(),
      fromCache: false,
      obtainedAt: this.clock(),
    })
    const cached = await this.lookup(key, rule)
    if (cached) return served(cached)
    // Nothing will be written, so there is nothing for concurrent callers to wait for.
    if (ttlSeconds === 0) return fresh()

    let outcome: LockOutcome
    try {
      ensurePrivateDir(this.dir)
      outcome = await this.lockOrWait(key, rule)
    } catch (error) {
      this.report(`credential cache not used (${describe(error)}); running the plugin without it`)
      return fresh()
    }
    if ('entry' in outcome) return served(outcome.entry)

    try {
      // Another caller may have filled the entry between our lookup and our taking the lock.
      const filled = await this.read(key, true, rule)
      if (filled) return served(filled)
      const credential = await fetch()
      const saved = await this.save(key, credential, ttlSeconds)
      return {
        credential,
        fromCache: false,
        cachedUntil: saved && servedUntil(saved, entryMargin(saved, rule)),
        obtainedAt: saved?.obtainedAt ?? this.clock(),
      }
    } finally {
      await outcome.release().catch((error: unknown) => {
        this.report(`could not release the credential cache lock ${this.lockPath(key)} (${describe(error)})`)
      })
    }
  }

  /**
   * Removes the entries for `keys` (every entry when omitted), their leftover temp files and their
   * abandoned lock files; returns how many entries were removed. A lock that is still being refreshed is
   * left alone: its holder is running the plugin right now, and removing the lock would let another caller
   * run the plugin beside it. What that holder writes afterwards is a credential obtained after the clear.
   */
  async clear(keys?: string[]): Promise<number> {
    // The answers of `cpcred credential` hold credentials too; they are only memos, so all go.
    await rm(answersDir(this.dir), {recursive: true, force: true})
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return 0
      throw error
    }
    const stems = keys === undefined ? undefined : new Set(keys.map(fileStem))
    let removed = 0
    for (const name of names) {
      const match = /^(?:([0-9a-f]{64})\.(json|lock)|\.([0-9a-f]{64})\.json\.[0-9a-f]+\.tmp)$/.exec(name)
      if (!match) continue
      const stem = match[1] ?? match[3]
      if (stems !== undefined && (stem === undefined || !stems.has(stem))) continue
      const file = path.join(this.dir, name)
      if (match[2] === 'json') {
        if (await removeIfPresent(file)) removed++
      } else if (match[2] === 'lock') {
        if (await this.isAbandonedLock(file)) await removeIfPresent(file)
      } else {
        await removeIfPresent(file)
      }
    }
    return removed
  }

  /** The entry file for a key. Keys are sha256 hex already; anything else is hashed so it cannot name a path. */
  entryPath(key: string): string {
    return path.join(this.dir, `${fileStem(key)}.json`)
  }

  lockPath(key: string): string {
    return path.join(this.dir, `${fileStem(key)}.lock`)
  }

  private async read(key: string, quiet: boolean, rule?: LifetimeRule): Promise<CacheEntry | undefined> {
    const file = this.entryPath(key)
    let text: string | undefined
    try {
      text = await readPrivateFile(file, (reason) => {
        if (!quiet) this.report(`ignoring credential cache entry ${file}: ${reason}; it will be replaced`)
      })
    } catch (error) {
      if (!quiet) this.report(`cannot read credential cache entry ${file} (${describe(error)}); ignoring it`)
      return undefined
    }
    if (text === undefined) return undefined
    const entry = parseEntry(text, key)
    if (entry === undefined) {
      if (!quiet) {
        this.report(
          `ignoring credential cache entry ${file}: corrupt, written by another cpcred version, or for another key`,
        )
      }
      return undefined
    }
    return isUsable(entry, this.clock(), entryMargin(entry, rule)) ? entry : undefined
  }

  /**
   * Takes the key's lock, or returns the entry once another holder has written it. Polls instead of using
   * proper-lockfile's retries, so that the wait is bounded by time (not by a count) and so that waiters pick
   * up the entry without each taking the lock in turn.
   */
  private async lockOrWait(key: string, rule?: LifetimeRule): Promise<LockOutcome> {
    // Loaded here, not at the top: the warm lookup path must not pay for it (or for its exit hooks).
    const {lock} = await import('proper-lockfile')
    const lockfilePath = this.lockPath(key)
    const deadline = Date.now() + this.lockTimeoutMs
    for (let attempt = 0; ; attempt++) {
      try {
        const release = await lock(this.entryPath(key), {
          lockfilePath,
          // The entry file usually does not exist yet; the lock is a sibling, so no path resolution is needed.
          realpath: false,
          stale: this.staleLockMs,
          retries: 0,
          // proper-lockfile's default throws from a timer, which would crash the process. Losing the lock
          // only means another caller may run the plugin as well.
          onCompromised: (error) => {
            this.report(`lost the credential cache lock ${lockfilePath} (${describe(error)})`)
          },
        })
        return {release}
      } catch (error) {
        if (errorCode(error) !== 'ELOCKED') throw error
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0) {
        throw new CpcredError(
          `gave up after ${this.lockTimeoutMs} ms waiting for the lock ${lockfilePath}, held by another cpcred`,
          {hint: `if no other cpcred is running, remove ${lockfilePath}`},
        )
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollDelay(attempt), remaining)))
      const entry = await this.read(key, true, rule)
      if (entry) return {entry}
    }
  }

  private async save(
    key: string,
    credential: Credential,
    ttlSeconds: number | undefined,
  ): Promise<CacheEntry | undefined> {
    const file = this.entryPath(key)
    try {
      const entry = createEntry(key, credential, this.clock(), ttlSeconds)
      if (entry === undefined) return undefined
      await writeFileAtomic(file, serializeEntry(entry), {mode: 'private'})
      return entry
    } catch (error) {
      this.report(`could not write credential cache entry ${file} (${describe(error)}); not cached`)
      return undefined
    }
  }

  private async isAbandonedLock(file: string): Promise<boolean> {
    try {
      return (await stat(file)).mtime.getTime() < Date.now() - this.staleLockMs
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false
      throw error
    }
  }

  private report(message: string): void {
    try {
      this.onProblem(message)
    } catch {
      // A broken reporter must not turn a cache problem into a credential failure.
    }
  }
}

export {defaultCredentialCacheDir} from './cache-dir.js'

function fileStem(key: string): string {
  return /^[0-9a-f]{64}$/.test(key) ? key : createHash('sha256').update(key).digest('hex')
}

function pollDelay(attempt: number): number {
  const base = Math.min(FIRST_POLL_MS * 1.5 ** attempt, MAX_POLL_MS)
  return Math.round(base * (0.75 + Math.random() * 0.5))
}

async function removeIfPresent(file: string): Promise<boolean> {
  try {
    // recursive: a lock is a directory (proper-lockfile creates it with mkdir, which is atomic).
    await rm(file, {recursive: true})
    return true
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false
    throw error
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
