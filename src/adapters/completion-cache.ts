// The profile names the shell offers at TAB: a short-lived list per hub identity, read on every
// keypress and refreshed from the hub in the background, so completing never waits for the hub.
import {createHash} from 'node:crypto'
import {open, rm, stat} from 'node:fs/promises'
import path from 'node:path'
import {CacheStore} from './cache-store.js'
import {isRecord} from '../core/json.js'
import {ensurePrivateDir} from './directories.js'
import {errorCode} from './files.js'
import type {CompletionList, CompletionLists} from '../usecases/ports.js'

// 2: kept by the cache store, as {version, value}.
const VERSION = 2
/** Older than this, the list is still offered but refreshed. */
export const COMPLETION_FRESH_MS = 60_000
/** A refresh that has not finished after this long is assumed dead. */
const REFRESH_STALE_MS = 30_000

export type {CompletionList}

function isCompletionList(value: unknown): value is CompletionList {
  return (
    isRecord(value) &&
    typeof value.fetchedAt === 'number' &&
    Array.isArray(value.profiles) &&
    value.profiles.every((profile) => typeof profile === 'string')
  )
}

const nameOf = (hubIdentity: string) => createHash('sha256').update(hubIdentity).digest('hex')

export class CompletionCache implements CompletionLists {
  private readonly lists: CacheStore<CompletionList>

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.lists = new CacheStore(dir, {version: VERSION, isValue: isCompletionList})
  }

  /** The marker of a refresh under way (not a cache entry: only its existence and age count). */
  private marker(hubIdentity: string): string {
    return path.join(this.dir, `${nameOf(hubIdentity)}.refreshing`)
  }

  async read(hubIdentity: string): Promise<CompletionList | undefined> {
    return this.lists.read(nameOf(hubIdentity))
  }

  /**
   * The list, once a refresh running elsewhere has written it; undefined if none has after `ms`.
   * Polled: a TAB is rare enough, and a watch would need a directory that may not exist yet.
   */
  async waitFor(hubIdentity: string, ms: number, pollMs = 50): Promise<CompletionList | undefined> {
    const deadline = this.now() + ms
    for (;;) {
      const list = await this.read(hubIdentity)
      if (list || this.now() >= deadline) return list
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(pollMs, Math.max(deadline - this.now(), 0))),
      )
    }
  }

  isFresh(list: CompletionList | undefined): boolean {
    return list !== undefined && this.now() - list.fetchedAt < COMPLETION_FRESH_MS
  }

  /** Keeps the list; a failure only means the next TAB refreshes again. */
  async write(hubIdentity: string, profiles: string[]): Promise<void> {
    await this.lists.write(nameOf(hubIdentity), {fetchedAt: this.now(), profiles})
  }

  /**
   * Claims the refresh for this hub identity: true for the one caller that should start it, false
   * while another refresh runs (a burst of TABs starts one refresh, not one each).
   */
  async claimRefresh(hubIdentity: string): Promise<boolean> {
    const marker = this.marker(hubIdentity)
    try {
      ensurePrivateDir(this.dir)
      await (await open(marker, 'wx', 0o600)).close()
      return true
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') return false
      const age = this.now() - (await stat(marker).catch(() => ({mtimeMs: 0}))).mtimeMs
      if (age < REFRESH_STALE_MS) return false
      await rm(marker, {force: true})
      return this.claimRefresh(hubIdentity)
    }
  }

  async releaseRefresh(hubIdentity: string): Promise<void> {
    await rm(this.marker(hubIdentity), {force: true})
  }
}
