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
import {isRecord} from '../core/json.js'

/** What a cache keeps: the format version of its entries and the shape of its values. */
export interface CacheKind<T> {
  /** The entries' format version: an entry of any other version is absent. */
  version: number
  /** Whether a value read back has the shape the cache writes; anything else is absent. */
  isValue: (value: unknown) => value is T
}

/** The file of entry `name` (a plain file name without extension, chosen by the cache) in `dir`. */
export function cacheEntryFile(dir: string, name: string): string {
  return path.join(dir, `${name}.json`)
}

/** Entry `name` of `dir`, or undefined when there is none that may be used; never throws. */
export async function readCacheEntry<T>(
  dir: string,
  name: string,
  kind: CacheKind<T>,
): Promise<T | undefined> {
  try {
    return valueOf(await readPrivateFile(cacheEntryFile(dir, name)), kind)
  } catch {
    return undefined
  }
}

/**
 * readCacheEntry, synchronously: for the answer fast path, where a promise costs more than the read.
 * A function of its own, so that the fast path's bundle leaves out the writing half.
 */
export function readCacheEntrySync<T>(dir: string, name: string, kind: CacheKind<T>): T | undefined {
  try {
    return valueOf(readPrivateFileSync(cacheEntryFile(dir, name)), kind)
  } catch {
    return undefined
  }
}

/** Keeps `value` as entry `name` of `dir`; whether that worked. Never throws: the next run only works more. */
export async function writeCacheEntry<T>(
  dir: string,
  name: string,
  kind: CacheKind<T>,
  value: T,
): Promise<boolean> {
  try {
    const [{ensurePrivateDir}, {writeFileAtomic}] = await Promise.all([
      import('./directories.js'),
      import('./files.js'),
    ])
    ensurePrivateDir(dir)
    await writeFileAtomic(cacheEntryFile(dir, name), JSON.stringify({version: kind.version, value}), {
      mode: 'private',
    })
    return true
  } catch {
    return false
  }
}

function valueOf<T>(text: string | undefined, kind: CacheKind<T>): T | undefined {
  if (text === undefined) return undefined
  let entry: unknown
  try {
    entry = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isRecord(entry)) return undefined
  return entry.version === kind.version && kind.isValue(entry.value) ? entry.value : undefined
}

/** One cache's directory of entries: the functions above, bound to it. */
export class CacheStore<T> {
  constructor(
    readonly dir: string,
    private readonly kind: CacheKind<T>,
  ) {}

  file(name: string): string {
    return cacheEntryFile(this.dir, name)
  }

  read(name: string): Promise<T | undefined> {
    return readCacheEntry(this.dir, name, this.kind)
  }

  readSync(name: string): T | undefined {
    return readCacheEntrySync(this.dir, name, this.kind)
  }

  write(name: string, value: T): Promise<boolean> {
    return writeCacheEntry(this.dir, name, this.kind, value)
  }
}
