// What a target serves, as `kubectl get` learns it from discovery: the resources of every group,
// each with its plural, singular, kind, short names, categories, scope and verbs; and how a word
// typed after `cpcred get --` (pods, po, deploy, deployments.apps, deployments.v1.apps, all) names
// some of them, by kubectl's rules (k8s.io/client-go/restmapper, kubectl's shortcut expander).
import {isRecord} from '../json.js'

/** One resource a target serves (a discovery entry), in the group's preferred version first. */
export interface ApiResource {
  /** "" for the core group. */
  group: string
  version: string
  /** The plural, as in the request path (pods, deployments). */
  resource: string
  singular: string
  kind: string
  namespaced: boolean
  shortNames: string[]
  categories: string[]
  verbs: string[]
}

/** The Accept header of aggregated discovery (apidiscovery.k8s.io/v2, GA in Kubernetes 1.30), JSON as the fallback. */
export const AGGREGATED_DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []

/**
 * The resources of an APIGroupDiscoveryList (the answer of /api or /apis to the aggregated Accept),
 * groups and versions in the server's order of preference; undefined when the answer is another
 * document (a server without aggregated discovery answers /apis with an APIGroupList).
 */
export function fromAggregatedDiscovery(document: unknown): ApiResource[] | undefined {
  if (!isRecord(document) || document.kind !== 'APIGroupDiscoveryList' || !Array.isArray(document.items))
    return undefined
  const resources: ApiResource[] = []
  for (const group of document.items) {
    if (!isRecord(group) || !Array.isArray(group.versions)) continue
    const groupName =
      isRecord(group.metadata) && typeof group.metadata.name === 'string' ? group.metadata.name : ''
    for (const version of group.versions) {
      if (!isRecord(version) || typeof version.version !== 'string' || !Array.isArray(version.resources))
        continue
      for (const entry of version.resources) {
        if (!isRecord(entry) || typeof entry.resource !== 'string') continue
        const kind =
          isRecord(entry.responseKind) && typeof entry.responseKind.kind === 'string'
            ? entry.responseKind.kind
            : ''
        resources.push({
          group: groupName,
          version: version.version,
          resource: entry.resource,
          singular: typeof entry.singularResource === 'string' ? entry.singularResource : kind.toLowerCase(),
          kind,
          namespaced: entry.scope === 'Namespaced',
          shortNames: strings(entry.shortNames),
          categories: strings(entry.categories),
          verbs: strings(entry.verbs),
        })
      }
    }
  }
  return resources
}

/** The resources of one APIResourceList (/api/v1, /apis/GROUP/VERSION): the discovery before v2. */
export function fromResourceList(document: unknown, group: string, version: string): ApiResource[] {
  if (!isRecord(document) || !Array.isArray(document.resources)) return []
  const resources: ApiResource[] = []
  for (const entry of document.resources) {
    if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name.includes('/')) continue
    const kind = typeof entry.kind === 'string' ? entry.kind : ''
    resources.push({
      group,
      version,
      resource: entry.name,
      singular:
        typeof entry.singularName === 'string' && entry.singularName
          ? entry.singularName
          : kind.toLowerCase(),
      kind,
      namespaced: entry.namespaced === true,
      shortNames: strings(entry.shortNames),
      categories: strings(entry.categories),
      verbs: strings(entry.verbs),
    })
  }
  return resources
}

/** The group-versions of an APIGroupList (/apis without aggregated discovery), preferred first. */
export function preferredGroupVersions(document: unknown): {group: string; version: string}[] {
  if (!isRecord(document) || !Array.isArray(document.groups)) return []
  const found: {group: string; version: string}[] = []
  for (const group of document.groups) {
    if (!isRecord(group) || typeof group.name !== 'string') continue
    const preferred = isRecord(group.preferredVersion) ? group.preferredVersion.version : undefined
    if (typeof preferred === 'string') found.push({group: group.name, version: preferred})
  }
  return found
}

/** Whether `value` is a list of resources as cached (the discovery cache's shape). */
export function isApiResourceList(value: unknown): value is ApiResource[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        isRecord(item) &&
        typeof item.group === 'string' &&
        typeof item.version === 'string' &&
        typeof item.resource === 'string' &&
        typeof item.kind === 'string' &&
        typeof item.singular === 'string' &&
        typeof item.namespaced === 'boolean' &&
        Array.isArray(item.shortNames) &&
        Array.isArray(item.categories) &&
        Array.isArray(item.verbs),
    )
  )
}

/** kubectl's words for a resource that the target does not serve. */
export function unknownResourceMessage(word: string): string {
  return `the server doesn't have a resource type ${JSON.stringify(word)}`
}

/**
 * The resources `word` names on a target that serves `served`, by kubectl's rules: a category
 * (all); a short name (po, deploy); a plural, a singular or a kind
 * (case does not matter); each maybe qualified by group (deployments.apps) or version and group
 * (deployments.v1.apps). Where several groups serve a name, the first in discovery's order wins
 * (the core group first, as kubectl's priority RESTMapper), in its preferred version. Only resources
 * that can be listed count. Empty when none is served.
 */
export function resolveResource(word: string, served: readonly ApiResource[]): ApiResource[] {
  const typed = word.toLowerCase()
  const listable = served.filter((resource) => resource.verbs.includes('list') || resource.verbs.length === 0)
  // The first of each group and resource: the group's preferred version comes first in discovery.
  const preferred = (candidates: ApiResource[]): ApiResource | undefined => candidates[0]
  const named = (name: string, resource: ApiResource) =>
    resource.resource === name || resource.singular === name || resource.kind.toLowerCase() === name
  // A category first (kubectl's category expander runs before the mapper): every resource in it,
  // once per group and resource.
  const seen = new Set<string>()
  const inCategory: ApiResource[] = []
  for (const resource of listable) {
    const key = `${resource.resource}.${resource.group}`
    if (!resource.categories.includes(typed) || seen.has(key)) continue
    seen.add(key)
    inCategory.push(resource)
  }
  if (inCategory.length > 0) return inCategory
  const short = listable.filter((resource) => resource.shortNames.includes(typed))
  if (short.length > 0) return [preferred(short)!]
  const plain = listable.filter((resource) => named(typed, resource))
  if (plain.length > 0) return [preferred(plain)!]
  // resource.group, then resource.version.group.
  const dot = typed.indexOf('.')
  if (dot > 0) {
    const name = typed.slice(0, dot)
    const rest = typed.slice(dot + 1)
    const inGroup = listable.filter(
      (resource) => resource.group === rest && (named(name, resource) || resource.shortNames.includes(name)),
    )
    if (inGroup.length > 0) return [preferred(inGroup)!]
    const second = rest.indexOf('.')
    if (second > 0) {
      const version = rest.slice(0, second)
      const group = rest.slice(second + 1)
      const exact = listable.filter(
        (resource) => resource.group === group && resource.version === version && named(name, resource),
      )
      if (exact.length > 0) return [exact[0]!]
    }
  }
  return []
}

/** How kubectl names a resource's objects in -o name and in a table of several types: pod, deployment.apps. */
export function kindPrefix(resource: Pick<ApiResource, 'kind' | 'group'>): string {
  const kind = resource.kind.toLowerCase()
  return resource.group ? `${kind}.${resource.group}` : kind
}

/** A resource as a message shows it: deployments.apps, pods. */
export function resourceName(resource: Pick<ApiResource, 'resource' | 'group'>): string {
  return resource.group ? `${resource.resource}.${resource.group}` : resource.resource
}

/**
 * The types `kubectl get <TAB>` offers for what a server serves (kubectl's `api-resources -o name
 * --cached --verbs=get`): each resource that can be read, once, as `resourceName` writes it
 * (pods, deployments.apps), sorted.
 */
export function resourceTypeNames(served: readonly ApiResource[]): string[] {
  const readable = served.filter((resource) => resource.verbs.includes('get') || resource.verbs.length === 0)
  return [...new Set(readable.map(resourceName))].sort()
}
