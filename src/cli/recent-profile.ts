// A profile for the commands that run all the time (credential, exec): read again from the hub
// unless it was read moments ago (--profile-max-age), since a TLS round trip to the hub would
// dominate a warm run.
import path from 'node:path'
import {Hub, type HubConfig} from '../adapters/hub.js'
import {defaultCredentialCacheDir} from '../adapters/credential-store.js'
import {ProfileSnapshots} from '../adapters/profile-snapshots.js'
import type {ClusterProfile} from '../core/cluster-profile.js'
import {findProfile} from '../usecases/find-profiles.js'
import type {ProfileRef} from '../usecases/profile-ref.js'

export async function readRecentProfile(
  config: HubConfig,
  identity: string,
  ref: ProfileRef,
  maxAgeMs: number,
  apiVersion?: string,
): Promise<ClusterProfile> {
  const snapshots = new ProfileSnapshots(path.join(path.dirname(defaultCredentialCacheDir()), 'profiles'))
  const recent = await snapshots.recent(identity, ref.namespace ?? config.namespace, ref.name, maxAgeMs)
  if (recent) return recent
  const hub = await Hub.fromConfig(config, {
    apiVersion,
    versionCache: maxAgeMs > 0 ? snapshots.servedVersion(identity) : undefined,
  })
  try {
    const profile = await findProfile(hub, ref, {namespace: config.namespace, allNamespaces: false})
    if (maxAgeMs > 0) await snapshots.remember(identity, profile)
    return profile
  } finally {
    await hub.client.close()
  }
}
