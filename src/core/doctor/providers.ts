// Doctor's provider-file links: the file itself, which providers the profiles in scope offer, the
// profile checked and the provider chosen for it.
import {
  CONTROL_PLANE_HEALTHY,
  findCondition,
  offeredProviders,
  profileKey,
  type ClusterProfile,
} from '../profiles/cluster-profile.js'
import {ExitCode} from '../errors.js'
import type {Provider} from '../access/provider-file.js'
import {chooseProvider, type Resolution} from '../access/resolve-access.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'
import {count} from './words.js'

// The provider file and the profiles

export function judgeProviderFile(source: string, providers: Provider[], warnings: string[]): CheckOutcome {
  if (providers.length === 0) {
    return fail(
      ExitCode.Failure,
      `no providers, so no cluster can be reached: ${source}`,
      'write a provider file (docs/providers.md), or pass --provider-file or --access-provider',
    )
  }
  const detail = `${source}: ${count(providers.length, 'provider')} (${providers.map((provider) => provider.name).join(', ')})`
  return warnings.length === 0
    ? ok(detail)
    : warn(`${detail}; ${warnings.join('; ')}`, 'fix or remove what the warning names')
}

/** Which providers no profile in scope offers, and how many profiles can be reached at all. */
export function judgeProviderUsage(
  providers: Provider[],
  profiles: ClusterProfile[],
  where: string,
): CheckOutcome {
  if (profiles.length === 0) {
    return warn(`no ClusterProfiles ${where}`, 'look elsewhere with -n NAMESPACE or -A')
  }
  const reachable = profiles.filter((profile) => chooseProvider(profile, providers) !== undefined).length
  const reach = `${reachable} of ${count(profiles.length, 'profile')} ${where} can be reached with your providers`
  // The provider file serves every namespace: a provider no profile here offers is not a problem here.
  if (reachable > 0) return ok(reach)
  const offered = new Set(profiles.flatMap((profile) => offeredProviders(profile).map((entry) => entry.name)))
  return warn(
    `${reach}: they offer ${[...offered].map((name) => `"${name}"`).join(', ') || 'no provider'}, your provider file has ${providers.map((provider) => `"${provider.name}"`).join(', ') || 'none'}`,
    "add a provider the profiles offer to your provider file, or check the names ('cpcred list -o wide')",
  )
}

export function judgeProfile(profile: ClusterProfile): CheckOutcome {
  const manager = profile.spec?.clusterManager?.name
  const base = `${profileKey(profile)}, managed by "${manager ?? '<none>'}"`
  const health = findCondition(profile, CONTROL_PLANE_HEALTHY)
  if (!health) return ok(`${base}; no ${CONTROL_PLANE_HEALTHY} condition reported`)
  const said = `${CONTROL_PLANE_HEALTHY} ${health.status}${health.reason ? ` (${health.reason})` : ''}`
  if (health.status === 'True') return ok(`${base}; ${said}`)
  // False is a report of trouble; Unknown (or empty) only says the manager cannot tell.
  const means =
    health.status === 'False'
      ? 'its cluster manager reports the control plane as not healthy: the target may not answer'
      : 'its cluster manager cannot tell whether the control plane is healthy (it may have lost touch with it): the target may not answer'
  return warn(`${base}; ${said}${health.message ? `: ${health.message}` : ''}`, means)
}

/** The provider that was chosen and why: the same decisions `cpcred describe` shows. */
export function judgeResolution(resolution: Resolution, profile: ClusterProfile): CheckOutcome {
  // resolveAccess says first which provider it chose and why, then which status list the cluster
  // comes from; the rest (arguments, environment) is describe's to show.
  const [chosen, source] = resolution.decisions
  const hidesDeprecated =
    resolution.offered.source === 'accessProviders' &&
    (profile.status?.credentialProviders ?? []).some((entry) => entry.name === resolution.provider.name)
  const detail = [
    chosen,
    source,
    hidesDeprecated ? 'It overrides the deprecated credentialProviders entry of the same name.' : undefined,
  ]
    .filter(Boolean)
    .join(' ')
  if (resolution.warnings.length === 0) return ok(detail)
  return warn(
    `${detail} ${resolution.warnings.join(' ')}`,
    resolution.offered.source === 'credentialProviders'
      ? 'ask the cluster manager to publish status.accessProviders'
      : "ask the profile's cluster manager to fix what the warning names",
  )
}
