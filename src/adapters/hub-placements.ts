// PlacementDecisions on the hub (multicluster.x-k8s.io/v1alpha1, the one version upstream defines):
// one by name, or those of a namespace a label selector picks. Failures are ApiFailures, as every
// hub call's.
import {GROUP} from '../core/profiles/cluster-profile.js'
import type {PlacementDecision} from '../core/fleet/placement.js'
import {namespacedPath} from '../core/profiles/names.js'
import type {PlacementDecisionList, PlacementWatchEvent} from '../usecases/ports.js'
import type {TranslateOptions} from './kube-errors.js'
import {KubeApiError} from './kube-client.js'
import {watchObjects, type HubCalls} from './hub-watch.js'

const PLACEMENT_VERSION = 'v1alpha1'
const PLACEMENTS = 'placementdecisions'

const HINTS: TranslateOptions = {
  notServed: {
    what: `${GROUP}/${PLACEMENT_VERSION} ${PLACEMENTS}`,
    hint: 'the hub does not serve the PlacementDecision CRD of the Cluster Inventory API; ask its administrator to install it',
  },
  forbiddenHint: `ask the hub administrator for RBAC access to ${PLACEMENTS}.${GROUP} (get, list), or use another --context`,
}

function placementsPath(namespace: string, name?: string): string {
  return namespacedPath(`/apis/${GROUP}/${PLACEMENT_VERSION}`, PLACEMENTS, namespace, name)
}

export async function getPlacementDecision(
  hub: HubCalls,
  namespace: string,
  name: string,
): Promise<PlacementDecision | undefined> {
  const path = placementsPath(namespace, name)
  try {
    return await hub.client.request<PlacementDecision>('GET', path)
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404 && error.statusObject?.details?.name === name)
      return undefined
    throw hub.translate(error, `get PlacementDecision ${namespace}/${name}`, HINTS)
  }
}

export async function listPlacementDecisions(
  hub: HubCalls,
  namespace: string,
  labelSelector?: string,
): Promise<PlacementDecisionList> {
  const path = placementsPath(namespace)
  try {
    const list = await hub.client.request<{
      items?: PlacementDecision[]
      metadata?: {resourceVersion?: string}
    }>('GET', path, {query: {labelSelector}})
    return {items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion}
  } catch (error) {
    throw hub.translate(error, `list PlacementDecisions in namespace "${namespace}"`, HINTS)
  }
}

export async function watchPlacementDecisions(
  hub: HubCalls,
  from: {namespace: string; labelSelector?: string; resourceVersion: string},
  onEvent: (event: PlacementWatchEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  await watchObjects<PlacementDecision>(
    hub,
    {
      path: placementsPath(from.namespace),
      resourceVersion: from.resourceVersion,
      labelSelector: from.labelSelector,
      action: `watch PlacementDecisions in namespace "${from.namespace}"`,
      hints: HINTS,
    },
    (type, decision) => onEvent({type, decision}),
    signal,
  )
}
