// A target server's discovery for `cpcred get`: what kubectl keeps per server (6 hours), else asked
// for, aggregated (one request per group list) or, from a server without it, a resource list per
// group's preferred version.
import {
  AGGREGATED_DISCOVERY_ACCEPT,
  fromAggregatedDiscovery,
  fromResourceList,
  preferredGroupVersions,
  type ApiResource,
} from '../core/get/discovery.js'
import {inPool} from '../core/fleet/worker-pool.js'
import type {DiscoveryCache, TargetApi} from './ports.js'

/** How long a server's discovery is used again before it is asked again: kubectl's 6 hours. */
export const DISCOVERY_TTL_MS = 6 * 60 * 60 * 1000

/** The server's resources: kept from an earlier run (up to DISCOVERY_TTL_MS), else asked for and kept. */
export async function discover(
  ports: {discovery: DiscoveryCache; date(): Date},
  api: TargetApi,
  server: string,
  refresh: boolean,
): Promise<{resources: ApiResource[]; fromCache: boolean}> {
  const now = ports.date().getTime()
  if (!refresh) {
    const kept = await ports.discovery.read(server)
    if (kept && now - kept.fetchedAt >= 0 && now - kept.fetchedAt < DISCOVERY_TTL_MS)
      return {resources: kept.resources, fromCache: true}
  }
  const accept = AGGREGATED_DISCOVERY_ACCEPT
  const [core, groups] = await Promise.all([
    api.get({path: '/api', accept}, 'discover the API'),
    api.get({path: '/apis', accept}, 'discover the API'),
  ])
  const aggregatedCore = fromAggregatedDiscovery(core)
  const aggregatedGroups = fromAggregatedDiscovery(groups)
  let resources: ApiResource[]
  if (aggregatedCore && aggregatedGroups) resources = [...aggregatedCore, ...aggregatedGroups]
  else {
    // A server without aggregated discovery: the core group, then each group's preferred version.
    const versions = [{group: '', version: 'v1'}, ...preferredGroupVersions(groups)]
    const lists = await inPool(versions, 8, ({group, version}) =>
      api.get(
        {path: group ? `/apis/${group}/${version}` : `/api/${version}`, accept: 'application/json'},
        'discover the API',
      ),
    )
    resources = versions.flatMap(({group, version}, index) => fromResourceList(lists[index], group, version))
  }
  await ports.discovery.write(server, {fetchedAt: now, resources})
  return {resources, fromCache: false}
}
