// Doctor's API link: whether the hub serves the ClusterProfile API in a version cpcred reads, as
// discovery found it (src/adapters/hub.ts asks once; this judges what it found).
import {GROUP, PLURAL, PROFILE_VERSIONS} from '../profiles/cluster-profile.js'
import {ExitCode} from '../errors.js'
import {INSTALL_CRD_HINT} from '../failures.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'

/** The discovery documents of the ClusterProfile API group (GET /apis/GROUP and /apis/GROUP/<version>). */
export interface ApiGroupDocument {
  versions?: {version?: string}[]
  preferredVersion?: {version?: string}
}

export interface ApiResourcesDocument {
  resources?: {name?: string; namespaced?: boolean}[]
}

/**
 * `version` is the one cpcred reads (--api-version, else the first of PROFILE_VERSIONS whose
 * resources name clusterprofiles, else the first served), undefined when the hub serves neither;
 * `resources` is that version's document.
 */
export function judgeApi(
  group: ApiGroupDocument | undefined,
  resources: ApiResourcesDocument | undefined,
  version: string | undefined,
  forced?: string,
): CheckOutcome {
  if (!group) {
    return fail(
      ExitCode.Unreachable,
      `the hub does not serve the ${GROUP} API: the ClusterProfile CRD is not installed`,
      INSTALL_CRD_HINT,
    )
  }
  const versions = (group.versions ?? []).map((entry) => entry.version).filter((v): v is string => Boolean(v))
  const served = `versions ${versions.join(', ') || 'none'}, preferred ${group.preferredVersion?.version ?? 'none'}`
  if (version === undefined) {
    const wanted = forced ?? PROFILE_VERSIONS.join(' or ')
    return fail(
      ExitCode.Unreachable,
      `the hub serves ${GROUP} ${served}, but not ${wanted}, which cpcred reads`,
      forced
        ? 'leave out --api-version, or use a version the hub serves'
        : `serve ${PROFILE_VERSIONS.join(' or ')} from the ClusterProfile CRD on the hub (the upstream CRD does)`,
    )
  }
  const names = (resources?.resources ?? []).map((resource) => resource.name)
  const profiles = resources?.resources?.find((resource) => resource.name === PLURAL)
  if (!profiles) {
    return fail(
      ExitCode.Unreachable,
      `the hub serves ${GROUP}/${version} without ${PLURAL}`,
      INSTALL_CRD_HINT,
    )
  }
  if (profiles.namespaced !== true) {
    return fail(
      ExitCode.Unreachable,
      `the hub serves ${PLURAL} cluster-scoped; the Cluster Inventory API defines them namespaced`,
      'install the upstream ClusterProfile CRD on the hub',
    )
  }
  const detail = `${GROUP}/${version} ${PLURAL} served and read (${served})`
  return names.includes(`${PLURAL}/status`)
    ? ok(detail)
    : warn(
        `${detail}, without a status subresource`,
        'install the upstream ClusterProfile CRD, which has one',
      )
}
