// The requests `cpcred get` sends a target for one resource: the path (built from checked segments
// by core/profiles/names.ts), the query and the Accept header, as kubectl get sends them.
import {CpcredError, ExitCode} from '../errors.js'
import {clusterPath, namespacedPath} from '../profiles/names.js'
import type {ApiResource} from './discovery.js'
import type {GetQuery, RequestShape} from './query.js'

/** kubectl get's Accept for tables: the server prints the columns (metav1 Table), JSON otherwise. */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'

/** The namespace kubectl uses when none is given (a kubeconfig's context has none for a target). */
export const DEFAULT_NAMESPACE = 'default'

export type {RequestShape}

/** One GET to a target. */
export interface TargetRequest {
  path: string
  query: Record<string, string>
  accept: string
}

const SEGMENT = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/

/** `/api/v1` or `/apis/GROUP/VERSION`; a group, version or resource that could change the path is refused. */
function apiBase(resource: ApiResource): string {
  for (const part of [resource.version, resource.resource, ...(resource.group ? [resource.group] : [])]) {
    if (!SEGMENT.test(part))
      throw new CpcredError(
        `the target's discovery names a resource ${JSON.stringify(part)} that cannot be part of a path`,
        {
          exitCode: ExitCode.Failure,
        },
      )
  }
  return resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`
}

/**
 * The GET of `resource` (and `name`, when one was given) for `query`: across all namespaces with -A,
 * in -n's namespace (else "default") for a namespaced resource; a Table with the object's metadata
 * (the object itself for --sort-by by JSONPath) or the objects.
 */
export function targetRequest(
  resource: ApiResource,
  query: GetQuery,
  options: {name?: string; shape: RequestShape; objectInRows?: boolean},
): TargetRequest {
  const base = apiBase(resource)
  const path = !resource.namespaced
    ? clusterPath(base, resource.resource, options.name)
    : query.allNamespaces && options.name === undefined
      ? clusterPath(base, resource.resource)
      : namespacedPath(base, resource.resource, query.namespace ?? DEFAULT_NAMESPACE, options.name)
  const params: Record<string, string> = {}
  if (options.name === undefined) {
    if (query.selector) params.labelSelector = query.selector
    if (query.fieldSelector) params.fieldSelector = query.fieldSelector
  }
  if (options.shape === 'table') {
    params.includeObject = options.objectInRows ? 'Object' : 'Metadata'
    return {path, query: params, accept: TABLE_ACCEPT}
  }
  return {path, query: params, accept: 'application/json'}
}
