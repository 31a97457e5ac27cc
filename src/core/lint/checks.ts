// How each rule of ./rules.ts is checked on one profile, and the finding it makes: a check per rule
// id, run in the table's order. Only what one profile shows (with its namespace's legacy clusterset
// label); what a whole inventory shows (duplicates by member id) is core/lint/lint.ts's.
import {
  CLUSTERSET_PROPERTY,
  CONTROL_PLANE_HEALTHY,
  MEMBER_ID_LABEL,
  type ClusterProfile,
} from '../profiles/cluster-profile.js'
import {isRecord} from '../json.js'
import {celUrl, isLabelValue, runeLength} from './cel-url.js'
import {JOINED, LINT_RULES, MANAGER_LABEL, RULES_BY_ID, type LintFinding, type RuleId} from './rules.js'

/** What a rule finds in a profile: none, or one finding (several entries are said in one). */
export interface RuleHit {
  field: string
  found: string
  fix: string
}

/** What the checks of one profile know beyond it: its namespace's legacy clusterset label. */
export interface ProfileContext {
  namespaceClusterset?: {clusterset: string; label: string}
}

type Check = (profile: ClusterProfile, context: ProfileContext) => RuleHit | undefined

const quoted = (value: unknown) => JSON.stringify(value)

function list(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) return []
  // The list itself when every entry is an object, as the CRD's schema has it: no copy per rule.
  return value.every(isRecord)
    ? (value as Array<Record<string, unknown>>)
    : value.map((entry) => (isRecord(entry) ? entry : {}))
}

function clusterOf(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  return isRecord(entry.cluster) ? entry.cluster : undefined
}

/** The first entry of accessProviders a check refuses, said with how many others it also refuses. */
function firstEntry(
  profile: ClusterProfile,
  fieldOf: (index: number) => string,
  problem: (entry: Record<string, unknown>) => string | undefined,
  fix: string,
): RuleHit | undefined {
  const hits: {index: number; problem: string; name: unknown}[] = []
  list(profile.status?.accessProviders).forEach((entry, index) => {
    const found = problem(entry)
    if (found !== undefined) hits.push({index, problem: found, name: entry.name})
  })
  if (hits.length === 0) return undefined
  const first = hits[0]!
  const more = hits.length > 1 ? ` (and ${hits.length - 1} more entr${hits.length === 2 ? 'y' : 'ies'})` : ''
  return {field: fieldOf(first.index), found: `provider ${quoted(first.name)}: ${first.problem}${more}`, fix}
}

export function serverProblem(server: unknown): string | undefined {
  if (server === undefined || server === null || server === '') return 'no server'
  if (typeof server !== 'string') return 'the server is not a string'
  if (runeLength(server) > 2048) return `a server URL of ${runeLength(server)} characters (at most 2048)`
  const url = celUrl(server)
  if (url === undefined) return `${quoted(server)} is not a URL`
  if (url.host === '') return `${quoted(server)} has no host`
  return undefined
}

export function proxyProblem(proxy: unknown): string | undefined {
  if (proxy === undefined || proxy === null || proxy === '') return undefined
  if (typeof proxy !== 'string') return 'the proxy URL is not a string'
  if (runeLength(proxy) > 2048) return `a proxy URL of ${runeLength(proxy)} characters (at most 2048)`
  const url = celUrl(proxy)
  if (url === undefined) return `${quoted(proxy)} is not a URL`
  if (!['http', 'https', 'socks5'].includes(url.scheme))
    return `${quoted(proxy)} has the scheme ${quoted(url.scheme)}, not http, https or socks5`
  if (url.host === '') return `${quoted(proxy)} has no host`
  return undefined
}

const conditionOf = (profile: ClusterProfile, type: string) =>
  list(profile.status?.conditions).find((condition) => condition.type === type)

const CHECKS: Record<RuleId, Check> = {
  'server-url': (profile) =>
    firstEntry(
      profile,
      (index) => `status.accessProviders[${index}].cluster.server`,
      (entry) => {
        const cluster = clusterOf(entry)
        return cluster === undefined ? 'no cluster' : serverProblem(cluster.server)
      },
      'publish the API server as an absolute URL with a host, e.g. https://api.example.com:6443',
    ),
  'proxy-url': (profile) =>
    firstEntry(
      profile,
      (index) => `status.accessProviders[${index}].cluster.proxy-url`,
      (entry) => proxyProblem(clusterOf(entry)?.['proxy-url']),
      'give an http://, https:// or socks5:// proxy URL with a host, or leave proxy-url out',
    ),
  'access-provider-names': (profile) => {
    const seen = new Set<unknown>()
    return firstEntry(
      profile,
      (index) => `status.accessProviders[${index}].name`,
      (entry) => {
        const {name} = entry
        if (typeof name !== 'string' || name === '') return 'no name'
        if (runeLength(name) > 253) return `a name of ${runeLength(name)} characters (at most 253)`
        if (seen.has(name)) return 'a second entry of this name'
        seen.add(name)
        return undefined
      },
      'give each access provider a name of 1 to 253 characters, one entry per name',
    )
  },
  'access-providers-max': (profile) => {
    const count = list(profile.status?.accessProviders).length
    return count > 64
      ? {
          field: 'status.accessProviders',
          found: `${count} access providers (v1alpha2 takes at most 64)`,
          fix: 'publish at most 64 access providers',
        }
      : undefined
  },
  'credential-providers-only': (profile) => {
    // v1alpha2 has no credentialProviders: a profile read through it has none to check.
    if (profile.apiVersion !== undefined && !profile.apiVersion.endsWith('/v1alpha1')) return undefined
    const access = new Set(list(profile.status?.accessProviders).map((entry) => entry.name))
    const only = list(profile.status?.credentialProviders)
      .map((entry, index) => ({index, name: entry.name}))
      .filter(({name}) => typeof name === 'string' && !access.has(name))
    if (only.length === 0) return undefined
    return {
      field: `status.credentialProviders[${only[0]!.index}].name`,
      found: `${only.map(({name}) => quoted(name)).join(', ')} only in the deprecated credentialProviders`,
      fix: 'publish the same entries in status.accessProviders (v1alpha2 and pkg/access v0.2.0 read only those)',
    }
  },
  'certificate-authority-file': (profile) =>
    firstEntry(
      profile,
      (index) => `status.accessProviders[${index}].cluster.certificate-authority`,
      (entry) => {
        const file = clusterOf(entry)?.['certificate-authority']
        return file === undefined || file === null || file === ''
          ? undefined
          : `a CA file path ${quoted(file)}`
      },
      'put the CA bundle itself in certificate-authority-data (base64 PEM) and drop certificate-authority',
    ),
  'cluster-manager-name': (profile) => {
    const name: unknown = profile.spec?.clusterManager?.name
    if (typeof name === 'string' && name !== '' && isLabelValue(name)) return undefined
    return {
      field: 'spec.clusterManager.name',
      found:
        typeof name === 'string'
          ? `${quoted(name)} is not a label value (1-63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends)`
          : 'no name',
      fix: 'the field is immutable: recreate the profile with a manager name that is a valid label value',
    }
  },
  'cluster-manager-label': (profile) => {
    const labels = profile.metadata.labels ?? {}
    const manager = profile.spec?.clusterManager?.name
    if (!Object.hasOwn(labels, MANAGER_LABEL))
      return {
        field: `metadata.labels["${MANAGER_LABEL}"]`,
        found: 'no such label',
        // A name that is no label value (cluster-manager-name) is shown quoted, never as it came.
        fix: `label it ${MANAGER_LABEL}=${typeof manager === 'string' && isLabelValue(manager) ? manager : quoted(manager)} (the value of spec.clusterManager.name)`,
      }
    if (labels[MANAGER_LABEL] === manager) return undefined
    return {
      field: `metadata.labels["${MANAGER_LABEL}"]`,
      found: `${quoted(labels[MANAGER_LABEL])}, while spec.clusterManager.name is ${quoted(manager)}`,
      fix: `set the label to ${quoted(manager)}`,
    }
  },
  'member-id-empty': (profile) =>
    profile.metadata.labels?.[MEMBER_ID_LABEL] === ''
      ? {
          field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
          found: 'an empty value (it counts as no member id)',
          fix: 'give the member cluster its id, or remove the label',
        }
      : undefined,
  // Duplicates are a matter of the inventory, not one profile: core/lint/lint.ts finds them.
  'member-id-duplicate-tie': () => undefined,
  'member-id-duplicate': () => undefined,
  'member-id-missing': (profile) =>
    Object.hasOwn(profile.metadata.labels ?? {}, MEMBER_ID_LABEL)
      ? undefined
      : {
          field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
          found: 'no member id',
          fix: `have the cluster manager label it ${MEMBER_ID_LABEL}=ID, the same id on every profile of the member cluster`,
        },
  'control-plane-healthy': (profile) =>
    conditionOf(profile, CONTROL_PLANE_HEALTHY)
      ? undefined
      : {
          field: 'status.conditions',
          found: `no ${CONTROL_PLANE_HEALTHY} condition`,
          fix: `have the cluster manager maintain the ${CONTROL_PLANE_HEALTHY} condition`,
        },
  'joined-condition': (profile) =>
    conditionOf(profile, JOINED)
      ? undefined
      : {
          field: 'status.conditions',
          found: `no ${JOINED} condition`,
          fix: `have the cluster manager report the ${JOINED} condition`,
        },
  'kubernetes-version': (profile) => {
    const version: unknown = profile.status?.version?.kubernetes
    return typeof version === 'string' && version !== ''
      ? undefined
      : {
          field: 'status.version.kubernetes',
          found: 'no Kubernetes version',
          fix: "have the cluster manager report the member cluster's version",
        }
  },
  'clusterset-namespace-label': (profile, context) => {
    const legacy = context.namespaceClusterset
    if (legacy === undefined) return undefined
    const property = list(profile.status?.properties).find((entry) => entry.name === CLUSTERSET_PROPERTY)
    if (property !== undefined && property.value !== '') return undefined
    return {
      field: `status.properties[name=${CLUSTERSET_PROPERTY}]`,
      found: `no ${CLUSTERSET_PROPERTY} property; membership only in the namespace label ${legacy.label}=${legacy.clusterset}, which KEP-4322 no longer defines`,
      fix: `reflect the member cluster's ClusterProperty ${CLUSTERSET_PROPERTY} (value ${quoted(legacy.clusterset)}) in status.properties`,
    }
  },
}

/** The findings of the per-profile rules for one profile, in the table's order. */
export function checkProfile(profile: ClusterProfile, context: ProfileContext = {}): LintFinding[] {
  const findings: LintFinding[] = []
  for (const rule of LINT_RULES) {
    const hit = CHECKS[rule.id](profile, context)
    if (hit !== undefined) findings.push(findingOf(profile, rule.id, hit))
  }
  return findings
}

export function findingOf(profile: ClusterProfile, id: RuleId, hit: RuleHit): LintFinding {
  const rule = RULES_BY_ID.get(id)!
  return {
    namespace: profile.metadata.namespace ?? '',
    profile: profile.metadata.name,
    rule: id,
    severity: rule.severity,
    ...hit,
    source: rule.source,
    url: rule.url,
  }
}
