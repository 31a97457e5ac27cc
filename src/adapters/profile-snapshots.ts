// Recently read profiles, so that `cpcred credential` (run by kubectl on every command) does not
// open a TLS connection to the hub each time: a profile read less than --profile-max-age ago is
// used again. Profiles hold no secrets; the files are private all the same.
import {createHash} from 'node:crypto'
import path from 'node:path'
import type {ClusterProfile} from '../core/cluster-profile.js'
import {ensurePrivateDir, readIfExists, writeFileAtomic} from './files.js'

const VERSION = 1

export class ProfileSnapshots {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(hubIdentity: string, namespace: string, name: string): string {
    const key = createHash('sha256').update(`${hubIdentity}\n${namespace}/${name}`).digest('hex')
    return path.join(this.dir, `${key}.json`)
  }

  /** The profile if it was read from this hub, as this user, at most `maxAgeMs` ago. */
  async recent(
    hubIdentity: string,
    namespace: string,
    name: string,
    maxAgeMs: number,
  ): Promise<ClusterProfile | undefined> {
    if (maxAgeMs <= 0) return undefined
    try {
      const text = await readIfExists(this.file(hubIdentity, namespace, name))
      if (!text) return undefined
      const entry = JSON.parse(text) as {version: number; fetchedAt: number; profile: ClusterProfile}
      const age = this.now() - entry.fetchedAt
      return entry.version === VERSION && age >= 0 && age <= maxAgeMs ? entry.profile : undefined
    } catch {
      return undefined
    }
  }

  /** Remembers a profile just read; a failure only means the next call reads the hub again. */
  async remember(hubIdentity: string, profile: ClusterProfile): Promise<void> {
    try {
      await ensurePrivateDir(this.dir)
      const file = this.file(hubIdentity, profile.metadata.namespace ?? '', profile.metadata.name)
      await writeFileAtomic(file, JSON.stringify({version: VERSION, fetchedAt: this.now(), profile}), {
        mode: 'private',
      })
    } catch {
      // The snapshot is an optimisation; reading the hub next time is always correct.
    }
  }
}
