// The one store behind cpcred's private caches (credential answers, hub summaries, profile
// snapshots, served versions, completion lists): a directory of JSON entries, each written as
// {"version": N, "value": …}. Each cache names only its entries and the shape of its values; the
// rules are here, once:
// - read back only what private-files.ts allows (a regular file of this user, 0600, not a link);
// - an entry that is missing, not private, unreadable, corrupt, of another version or of another
//   shape is absent: the cache is asked again and the next write replaces it;
// - written private (0600 in a 0700 directory) and atomically, never through a link;
// - a failure to read or write never fails a command: a cache only saves work.
// Light on purpose (node:fs and node:path): the credential answer fast path reads through it; the
// writing half loads files.js only when it writes.
import path from 'node:path'
import {readPrivateFile, readPrivateFileSync} from './private-files.js'

export interface CacheStoreOptions<T> {
  /** The entries' format version: an entry of any other version is absent. */
  version: number
  /** Whether a value read back has the shape the cache writes; anything else is absent. */
  isValue: (value: unknown) => value is T
}

export class CacheStore<T> {
  private readonly version: number
  private readonly isValue: (value: unknown) => value is T

  constructor(
    readonly dir: string,
    options: CacheStoreOptions<T>,
  ) {
    this.version = options.version
    this.isValue = options.isValue
  }

  /** The file of entry `name` (a plain file name without extension, chosen by the cache). */
  file(name: string): string {
    return path.join(this.dir, `${name}.json`)
  }

  /** Entry `name`, or undefined when there is none that may be used; never throws. */
  async read(name: string): Promise<T | undefined> {
    try {
      return this.valueOf(await readPrivateFile(this.file(name)))
    } catch {
      return undefined
    }
  }

  /** read, synchronously: for the answer fast path, where a promise costs more than the read. */
  readSync(name: string): T | undefined {
    try {
      return this.valueOf(readPrivateFileSync(this.file(name)))
    } catch {
      return undefined
    }
  }

  /** Keeps `value` as entry `name`; whether that worked. Never throws: the next run only works more. */
  async write(name: string, value: T): Promise<boolean> {
    try {
      const {ensurePrivateDir, writeFileAtomic} = await import('./files.js')
      await ensurePrivateDir(this.dir)
      await writeFileAtomic(this.file(name), JSON.stringify({version: this.version, value}), {
        mode: 'private',
      })
      return true
    } catch {
      return false
    }
  }

  private valueOf(text: string | undefined): T | undefined {
    if (text === undefined) return undefined
    let entry: unknown
    try {
      entry = JSON.parse(text)
    } catch {
      return undefined
    }
    if (typeof entry !== 'object' || entry === null) return undefined
    const {version, value} = entry as {version?: unknown; value?: unknown}
    return version === this.version && this.isValue(value) ? value : undefined
  }
}

/** A plain object (not an array, not null): the start of most isValue checks. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
