// Doctor's cache link: what is on disk for the credential cache key of a profile, and whether cpcred
// would serve it.
import {
  DEFAULT_EXPIRY_MARGIN_SECONDS,
  isUsable,
  parseEntry,
  type CacheEntry,
} from '../exec-credential/cache.js'
import {ExitCode} from '../errors.js'
import {describeCredential, formatRfc3339} from '../exec-credential/protocol.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'
import {octal} from './words.js'

// The cache

/** What is on disk for one cache key. */
export interface CacheFiles {
  dir: string
  /** undefined: the directory does not exist. */
  dirInfo?: {mode: number; uid: number}
  file: string
  fileInfo?: {mode: number; uid: number}
  text?: string
  /** This process's uid, where there is one. */
  uid?: number
}

export interface CacheFinding {
  outcome: CheckOutcome
  /** The entry cpcred would serve now, if any. */
  usable?: CacheEntry
}

export function judgeCache(files: CacheFiles, key: string, profile: string, now: Date): CacheFinding {
  const {dir, file} = files
  if (!files.dirInfo) return {outcome: ok(`no cached credentials yet (${dir} does not exist)`)}
  if (files.fileInfo) {
    const foreign = files.uid !== undefined && files.fileInfo.uid !== files.uid
    if ((files.fileInfo.mode & 0o077) !== 0 || foreign) {
      return {
        outcome: fail(
          ExitCode.Failure,
          foreign
            ? `${file} belongs to another user (uid ${files.fileInfo.uid}), who can read or replace the cached credential of ${profile}`
            : `${file} is mode ${octal(files.fileInfo.mode)}: other users may read the cached credential of ${profile}`,
          `remove it with 'cpcred cache clear ${profile}' (cpcred writes entries 0600)`,
        ),
      }
    }
  }
  if (files.uid !== undefined && files.dirInfo.uid !== files.uid) {
    return {
      outcome: warn(
        `${dir} belongs to another user (uid ${files.dirInfo.uid}), so cpcred does not use the cache`,
        'remove the directory, or set XDG_CACHE_HOME to a directory of your own',
      ),
    }
  }
  if ((files.dirInfo.mode & 0o077) !== 0) {
    return {
      outcome: warn(
        `${dir} is mode ${octal(files.dirInfo.mode)}; cpcred narrows it to 0700 on its next write`,
        `chmod 700 ${dir}`,
      ),
    }
  }
  if (files.text === undefined) {
    return {outcome: ok(`no entry for ${profile}: the next credential comes from the plugin (${dir})`)}
  }
  const entry = parseEntry(files.text, key)
  if (!entry) {
    return {
      outcome: warn(
        `${file} is unreadable or from another cpcred version; it is ignored and replaced`,
        `remove it with 'cpcred cache clear ${profile}'`,
      ),
    }
  }
  if (!isUsable(entry, now)) {
    return {
      outcome: ok(
        `an expired entry (${describeCredential(entry.credential)}); the next credential comes from the plugin`,
      ),
    }
  }
  const servedUntil = new Date(entry.expiresAt.getTime() - DEFAULT_EXPIRY_MARGIN_SECONDS * 1000)
  return {
    outcome: ok(
      `${file} (${octal(files.fileInfo?.mode ?? 0o600)}): ${describeCredential(entry.credential)}, served until ${formatRfc3339(servedUntil)}`,
    ),
    usable: entry,
  }
}

/** A usable cache entry that the target refuses: cpcred would keep serving it until it expires. */
export function rejectedCacheEntry(entry: CacheEntry, profile: string): CheckOutcome {
  return fail(
    ExitCode.Denied,
    `the target rejects the cached credential (${describeCredential(entry.credential)}), which cpcred serves until shortly before it expires`,
    `remove it with 'cpcred cache clear ${profile}'`,
  )
}
