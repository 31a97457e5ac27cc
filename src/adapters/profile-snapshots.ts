// Recently read profiles, so that `cpcred credential` (run by kubectl on every command) does not
// open a TLS connection to the hub each time: a profile read less than --profile-max-age ago is
// used again (src/usecases/recent-profile.ts), and while the hub is down one up to --profile-max-stale.
// Profiles hold no secrets; the files are private all the same.
import {createHash} from 'node:crypto'
import {PROFILE_VERSIONS, type ClusterProfile, type ProfileVersion} from '../core/profiles/cluster-profile.js'
import type {ServedVersionCache} from './hub.js'
import {CacheStore} from './cache-store.js'
import {isRecord} from '../core/json.js'

// 2: kept by the cache store, as {version, value}.
const VERSION = 2
const SERVED_VERSION_VERSION = 1
/** Hubs change the versions they serve rarely, and a wrong guess only costs a discovery. */
const SERVED_VERSION_MAX_AGE_MS = 10 * 60 * 1000

function isProfileVersion(version: unknown): version is ProfileVersion {
  return (PROFILE_VERSIONS as readonly unknown[]).includes(version)
}

/** A profile as read from the hub, and where and when that was. */
export interface Snapshot {
  profile: ClusterProfile
  file: string
  fetchedAt: number
  /** The identity of the hub it was read from (hub-summary.ts). */
  hub: string
}

interface StoredSnapshot {
  fetchedAt: number
  hub: string
  profile: ClusterProfile
}

function isStoredSnapshot(value: unknown): value is StoredSnapshot {
  return (
    isRecord(value) &&
    typeof value.fetchedAt === 'number' &&
    typeof value.hub === 'string' &&
    isRecord(value.profile) &&
    isRecord(value.profile.metadata)
  )
}

interface StoredVersion {
  fetchedAt: number
  version: ProfileVersion
}

function isStoredVersion(value: unknown): value is StoredVersion {
  return isRecord(value) && typeof value.fetchedAt === 'number' && isProfileVersion(value.version)
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export class ProfileSnapshots {
  private readonly snapshots: CacheStore<StoredSnapshot>
  private readonly versions: CacheStore<StoredVersion>

  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.snapshots = new CacheStore(dir, {version: VERSION, isValue: isStoredSnapshot})
    this.versions = new CacheStore(dir, {version: SERVED_VERSION_VERSION, isValue: isStoredVersion})
  }

  private name(hubIdentity: string, namespace: string, name: string): string {
    return sha256(`${hubIdentity}\n${namespace}/${name}`)
  }

  /**
   * The profile as last read from this hub, as this user, however long ago (for a hub outage,
   * --profile-max-stale). The file is named by the hub identity, and the identity is also stored in
   * it and compared: a snapshot never stands in for another hub's profile.
   */
  async last(hubIdentity: string, namespace: string, name: string): Promise<Snapshot | undefined> {
    const entryName = this.name(hubIdentity, namespace, name)
    const entry = await this.snapshots.read(entryName)
    if (!entry || entry.hub !== hubIdentity || this.now() - entry.fetchedAt < 0) return undefined
    return {
      profile: entry.profile,
      file: this.snapshots.file(entryName),
      fetchedAt: entry.fetchedAt,
      hub: hubIdentity,
    }
  }

  /**
   * Which ClusterProfile version the hub serves, as API discovery last said: kept for
   * SERVED_VERSION_MAX_AGE_MS, so a warm `cpcred credential` that must read a profile again asks
   * the hub for it alone.
   */
  servedVersion(hubIdentity: string): ServedVersionCache {
    const name = `${sha256(hubIdentity)}.version`
    return {
      read: async () => {
        const entry = await this.versions.read(name)
        const age = entry ? this.now() - entry.fetchedAt : Infinity
        return age >= 0 && age <= SERVED_VERSION_MAX_AGE_MS ? entry!.version : undefined
      },
      write: async (version) => {
        // Only an optimisation: the next miss asks discovery again.
        await this.versions.write(name, {fetchedAt: this.now(), version})
      },
    }
  }

  /** Remembers a profile just read; a failure only means the next call reads the hub again. */
  async remember(hubIdentity: string, profile: ClusterProfile): Promise<Snapshot | undefined> {
    const name = this.name(hubIdentity, profile.metadata.namespace ?? '', profile.metadata.name)
    const fetchedAt = this.now()
    if (!(await this.snapshots.write(name, {fetchedAt, hub: hubIdentity, profile}))) return undefined
    return {profile, file: this.snapshots.file(name), fetchedAt, hub: hubIdentity}
  }
}
