// A profile for the commands that run all the time (credential, exec): read again from the hub
// unless it was read moments ago (--profile-max-age), since a TLS round trip to the hub would
// dominate a warm run.
import path from 'node:path'
import {Hub, type HubSelection} from '../adapters/hub.js'
import {summarizeHub, type SummarizedHub} from '../adapters/hub-summary.js'
import {defaultCredentialCacheDir} from '../adapters/credential-store.js'
import {ProfileSnapshots, type Snapshot} from '../adapters/profile-snapshots.js'
import type {ClusterProfile} from '../core/cluster-profile.js'
import {findProfile} from '../usecases/find-profiles.js'
import type {ProfileRef} from '../usecases/profile-ref.js'

/** The hub as the hot paths know it: from the summary kept per kubeconfig content (hub-summary.ts). */
export function summarizedHub(selection: HubSelection): Promise<SummarizedHub> {
  return summarizeHub(selection, path.join(cacheRoot(), 'hubs'))
}

/** The profile, and its snapshot when it was (or now is) kept for --profile-max-age. */
export async function readRecentProfile(
  hub: SummarizedHub,
  ref: ProfileRef,
  maxAgeMs: number,
  apiVersion?: string,
): Promise<{profile: ClusterProfile; snapshot?: Snapshot}> {
  const {identity, namespace} = hub.summary
  const snapshots = new ProfileSnapshots(path.join(cacheRoot(), 'profiles'))
  const recent = await snapshots.recent(identity, ref.namespace ?? namespace, ref.name, maxAgeMs)
  if (recent) return {profile: recent.profile, snapshot: recent}
  const client = await Hub.fromConfig(await hub.config(), {
    apiVersion,
    versionCache: maxAgeMs > 0 ? snapshots.servedVersion(identity) : undefined,
  })
  try {
    const profile = await findProfile(client, ref, {namespace, allNamespaces: false})
    return {profile, snapshot: maxAgeMs > 0 ? await snapshots.remember(identity, profile) : undefined}
  } finally {
    await client.client.close()
  }
}

/** ~/.cache/cpcred (XDG_CACHE_HOME/cpcred). */
function cacheRoot(): string {
  return path.dirname(defaultCredentialCacheDir())
}
