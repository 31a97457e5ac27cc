// What each target server serves (`cpcred get`'s discovery), kept per server URL as kubectl keeps
// it in ~/.kube/cache/discovery: an entry of adapters/cache-store.ts in cache-dir.ts's `discovery`,
// named by a hash of the URL, so a second run against the same server asks for no discovery.
import {createHash} from 'node:crypto'
import {isApiResourceList} from '../core/get/discovery.js'
import {isRecord} from '../core/json.js'
import type {CachedDiscovery, DiscoveryCache} from '../usecases/ports.js'
import {CacheStore, type CacheKind} from './cache-store.js'

const DISCOVERY: CacheKind<CachedDiscovery & {server: string}> = {
  version: 1,
  isValue: (value): value is CachedDiscovery & {server: string} =>
    isRecord(value) &&
    typeof value.server === 'string' &&
    typeof value.fetchedAt === 'number' &&
    isApiResourceList(value.resources),
}

/** The discovery cache in `dir`. */
export function discoveryCache(dir: string): DiscoveryCache {
  const store = new CacheStore(dir, DISCOVERY)
  const entry = (server: string) => createHash('sha256').update(server).digest('hex').slice(0, 32)
  return {
    async read(server) {
      const kept = await store.read(entry(server))
      // The hash names the entry; the URL in it must be this one.
      return kept?.server === server ? {fetchedAt: kept.fetchedAt, resources: kept.resources} : undefined
    },
    async write(server, value) {
      await store.write(entry(server), {server, ...value})
    },
  }
}
