// How profiles are shown: the kubectl-style table (and -o wide's), and -o name's lines; -o json|yaml
// are the objects themselves (core/text/export.ts).
import {
  CONTROL_PLANE_HEALTHY,
  GROUP,
  clustersetPropertyOf,
  findCondition,
  memberIdOf,
  offeredProviderNames,
  type ClusterProfile,
} from './cluster-profile.js'
import {age, kubectlTable, type Cells} from '../text/format.js'

export interface ProfileTableOptions {
  /** -o wide: the columns a script or a closer look wants too. */
  wide: boolean
  /** Adds the NAMESPACE column, as kubectl does with -A. */
  allNamespaces: boolean
  now: Date
  /** Name of the provider the local provider file would use for a profile, if any. */
  chosenProvider?: (profile: ClusterProfile) => string | undefined
  /** Server of the chosen provider, for -o wide. */
  chosenServer?: (profile: ClusterProfile) => string | undefined
  /** Clusterset of a namespace (from its label, as older hubs record it), for -o wide. */
  clustersetOf?: (namespace: string) => string | undefined
}

/** `True`, `False`, `Unknown` from the ControlPlaneHealthy condition, `<none>` (as every empty cell) when there is none. */
export function healthOf(profile: ClusterProfile): string {
  return findCondition(profile, CONTROL_PLANE_HEALTHY)?.status ?? '<none>'
}

/** Provider names in offer order; the one the provider file would use is marked with `*`. */
export function providersCell(profile: ClusterProfile, chosen: string | undefined): string {
  // Names only: an entry is judged (its server URL parsed) when a provider is chosen, not to be listed.
  const names = offeredProviderNames(profile).map((name) => (name === chosen ? `${name}*` : name))
  return names.length ? names.join(',') : '<none>'
}

/** The profile's clusterset.k8s.io property and its namespace's label, each clusterset once. */
function clustersetCell(profile: ClusterProfile, namespaceSet: string | undefined): string {
  const sets = new Set([clustersetPropertyOf(profile), namespaceSet].filter((set) => set))
  return sets.size ? [...sets].join(',') : '<none>'
}

/** `-o name`'s line for a profile: kubectl's resource/name. */
export function profileName(profile: ClusterProfile): string {
  return `clusterprofile.${GROUP}/${profile.metadata.name}\n`
}

/** The table of the profiles (cells, made printable by the printer): kubectl's columns, or -o wide's. */
export function profileTable(profiles: ClusterProfile[], options: ProfileTableOptions): Cells {
  const {wide} = options
  const columns = [
    ...(options.allNamespaces ? ['NAMESPACE'] : []),
    'NAME',
    'MANAGER',
    'HEALTHY',
    'VERSION',
    'PROVIDERS',
    'AGE',
    ...(wide ? ['DISPLAY NAME', 'CLUSTERSET', 'MEMBER', 'SERVER', 'API'] : []),
  ]
  const rows = profiles.map((profile) => {
    const namespace = profile.metadata.namespace ?? ''
    const cells: Record<string, string> = {
      NAMESPACE: namespace,
      NAME: profile.metadata.name,
      MANAGER: profile.spec?.clusterManager?.name || '<none>',
      HEALTHY: healthOf(profile),
      VERSION: profile.status?.version?.kubernetes || '<none>',
      PROVIDERS: providersCell(profile, options.chosenProvider?.(profile)),
      AGE: age(profile.metadata.creationTimestamp, options.now),
      'DISPLAY NAME': profile.spec?.displayName || '<none>',
      CLUSTERSET: clustersetCell(profile, options.clustersetOf?.(namespace)),
      MEMBER: memberIdOf(profile) ?? '<none>',
      SERVER: options.chosenServer?.(profile) || '<none>',
      // Which version was read: v1alpha2 has no credentialProviders (see PROFILE_VERSIONS).
      API: profile.apiVersion?.split('/')[1] || '<unknown>',
    }
    return columns.map((column) => cells[column]!)
  })
  return kubectlTable(columns, rows)
}
