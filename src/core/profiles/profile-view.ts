// How profiles are printed: kubectl-style table, wide, json, yaml and name output.
import {exportJson} from '../text/export.js'
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

export type ProfileOutput = 'text' | 'wide' | 'json' | 'yaml' | 'name'

export interface ProfileViewOptions {
  output: ProfileOutput
  /** Adds the NAMESPACE column, as kubectl does with -A. */
  allNamespaces: boolean
  now: Date
  /** Name of the provider the local provider file would use for a profile, if any. */
  chosenProvider?: (profile: ClusterProfile) => string | undefined
  /** Server of the chosen provider, for -o wide. */
  chosenServer?: (profile: ClusterProfile) => string | undefined
  /** Clusterset of a namespace (from its label, as older hubs record it), for -o wide. */
  clustersetOf?: (namespace: string) => string | undefined
  /**
   * The YAML exporter (core/text/export-yaml.ts), for -o yaml: the caller loads it only then, so a
   * table never pays for loading the YAML library (about 35 ms).
   */
  yaml?: (value: unknown) => string
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

/** Exact text for -o json|yaml|name; cells (made printable by the printer) for the tables. */
export function renderProfiles(profiles: ClusterProfile[], options: ProfileViewOptions): string | Cells {
  switch (options.output) {
    case 'json':
      return exportJson(asList(profiles))
    case 'yaml':
      if (!options.yaml) throw new Error('-o yaml without the YAML exporter')
      return options.yaml(asList(profiles))
    case 'name':
      return profiles.map((profile) => `clusterprofile.${GROUP}/${profile.metadata.name}\n`).join('')
    case 'text':
    case 'wide':
      return renderProfileTable(profiles, options)
  }
}

/** The shape kubectl prints for several objects. */
function asList(profiles: ClusterProfile[]) {
  return {apiVersion: 'v1', items: profiles, kind: 'List', metadata: {resourceVersion: ''}}
}

function renderProfileTable(profiles: ClusterProfile[], options: ProfileViewOptions): Cells {
  const wide = options.output === 'wide'
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
