// The objects of `cpcred get -o json|yaml|jsonl|name`: every item as kubectl prints it (apiVersion and
// kind set, as kubectl sets them on a list's items), carrying the profile it came from in one
// annotation, so a List from many clusters still says where each object lives.
import {isRecord} from '../json.js'
import type {ApiResource} from './discovery.js'
import {kindPrefix} from './discovery.js'

/** The annotation on each object of -o json|yaml|jsonl: the profile (NAMESPACE/NAME) it came from. */
export const CLUSTER_PROFILE_ANNOTATION = 'multicluster.x-k8s.io/cluster-profile'

export type KubeObject = Record<string, unknown>

/**
 * The objects of one answer (a list, or one object asked for by name), each with its apiVersion and
 * kind (a list's items have none of their own) and the profile's annotation.
 */
export function answerObjects(answer: unknown, resource: ApiResource, cluster: string): KubeObject[] {
  if (!isRecord(answer)) return []
  const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version
  const found = Array.isArray(answer.items) ? answer.items.filter(isRecord) : [answer]
  return found.map((item) => {
    // apiVersion and kind first, as kubectl prints a list's items.
    const object: KubeObject = {
      apiVersion: typeof item.apiVersion === 'string' ? item.apiVersion : apiVersion,
      kind: typeof item.kind === 'string' ? item.kind : resource.kind,
      ...item,
    }
    const metadata = isRecord(object.metadata) ? object.metadata : {}
    const annotations = isRecord(metadata.annotations) ? metadata.annotations : {}
    object.metadata = {...metadata, annotations: {...annotations, [CLUSTER_PROFILE_ANNOTATION]: cluster}}
    return object
  })
}

/** A target that gave no objects, as -o json|yaml's List says: the profile, why, and cpcred's exit code for it. */
export interface TargetFailure {
  cluster: string
  message: string
  exitCode: number
}

/**
 * The one List of -o json|yaml, kubectl's shape (apiVersion, items, kind, metadata); with a `status`
 * naming the targets that failed when some did (kubectl apply reads a List's items only).
 */
export function fleetList(items: readonly KubeObject[], failures: readonly TargetFailure[]): KubeObject {
  return {
    apiVersion: 'v1',
    items,
    kind: 'List',
    metadata: {resourceVersion: ''},
    ...(failures.length > 0 ? {status: {failures}} : {}),
  }
}

/** A line of -o name: the profile, a space, and kubectl's KIND.GROUP/NAME (pod/web-0, deployment.apps/web). */
export function nameLine(
  cluster: string,
  resource: Pick<ApiResource, 'kind' | 'group'>,
  name: string,
): string {
  return `${cluster} ${kindPrefix(resource)}/${name}`
}
