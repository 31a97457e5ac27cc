// Recently read profiles, so that `cpcred credential` (run by kubectl on every command) does not
// open a TLS connection to the hub each time: a profile read less than --profile-max-age ago is
// used again (src/cli/recent-profile.ts), and while the hub is down one up to --profile-max-stale.
// Profiles hold no secrets; the files are private all the same.
import {createHash} from 'node:crypto'
import path from 'node:path'
import {PROFILE_VERSIONS, type ClusterProfile, type ProfileVersion} from '../core/profiles/cluster-profile.js'
import type {ServedVersionCache} from './hub.js'
import {ensurePrivateDir, writeFileAtomic} from './files.js'
import {readPrivateFile} from './private-files.js'

const VERSION = 1
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

export class ProfileSnapshots {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(hubIdentity: string, namespace: string, name: string): string {
    const key = createHash('sha256').update(`${hubIdentity}\n${namespace}/${name}`).digest('hex')
    return path.join(this.dir, `${key}.json`)
  }

  /**
   * The profile as last read from this hub, as this user, however long ago (for a hub outage,
   * --profile-max-stale). The file is named by the hub identity, and the identity is also stored in
   * it and compared: a snapshot never stands in for another hub's profile.
   */
  async last(hubIdentity: string, namespace: string, name: string): Promise<Snapshot | undefined> {
    const file = this.file(hubIdentity, namespace, name)
    try {
      const text = await readPrivateFile(file)
      if (!text) return undefined
      const entry = JSON.parse(text) as {
        version: number
        fetchedAt: number
        hub?: string
        profile: ClusterProfile
      }
      const age = this.now() - entry.fetchedAt
      const sameHub = entry.hub === undefined || entry.hub === hubIdentity
      return entry.version === VERSION && age >= 0 && sameHub
        ? {profile: entry.profile, file, fetchedAt: entry.fetchedAt, hub: hubIdentity}
        : undefined
    } catch {
      return undefined
    }
  }

  /**
   * Which ClusterProfile version the hub serves, as API discovery last said: kept for
   * SERVED_VERSION_MAX_AGE_MS, so a warm `cpcred credential` that must read a profile again asks
   * the hub for it alone.
   */
  servedVersion(hubIdentity: string): ServedVersionCache {
    const file = path.join(this.dir, `${createHash('sha256').update(hubIdentity).digest('hex')}.version.json`)
    return {
      read: async () => {
        try {
          const entry = JSON.parse((await readPrivateFile(file)) ?? 'null') as {
            fetchedAt: number
            version: string
          } | null
          const age = entry ? this.now() - entry.fetchedAt : Infinity
          return age >= 0 && age <= SERVED_VERSION_MAX_AGE_MS && isProfileVersion(entry?.version)
            ? entry!.version
            : undefined
        } catch {
          return undefined
        }
      },
      write: async (version) => {
        try {
          await ensurePrivateDir(this.dir)
          await writeFileAtomic(file, JSON.stringify({fetchedAt: this.now(), version}), {mode: 'private'})
        } catch {
          // Only an optimisation: the next miss asks discovery again.
        }
      },
    }
  }

  /** Remembers a profile just read; a failure only means the next call reads the hub again. */
  async remember(hubIdentity: string, profile: ClusterProfile): Promise<Snapshot | undefined> {
    try {
      await ensurePrivateDir(this.dir)
      const file = this.file(hubIdentity, profile.metadata.namespace ?? '', profile.metadata.name)
      const fetchedAt = this.now()
      await writeFileAtomic(file, JSON.stringify({version: VERSION, fetchedAt, hub: hubIdentity, profile}), {
        mode: 'private',
      })
      return {profile, file, fetchedAt, hub: hubIdentity}
    } catch {
      // The snapshot is an optimisation; reading the hub next time is always correct.
      return undefined
    }
  }
}
