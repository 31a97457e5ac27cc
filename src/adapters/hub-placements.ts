// PlacementDecisions on the hub (multicluster.x-k8s.io/v1alpha1, the one version upstream defines):
// one by name, or those of a namespace a label selector picks. Failures are ApiFailures, as every
// hub call's.
import {GROUP} from '../core/profiles/cluster-profile.js'
import type {PlacementDecision} from '../core/fleet/placement.js'
import type {CpcredError} from '../core/errors.js'
import type {TranslateOptions} from './kube-errors.js'
import {KubeApiError, type KubeClient} from './kube-client.js'

const PLACEMENT_VERSION = 'v1alpha1'
const PLACEMENTS = 'placementdecisions'

/** The parts of the hub a PlacementDecision call needs. */
export interface PlacementCalls {
  client: KubeClient
  translate(error: unknown, action: string, options?: TranslateOptions): CpcredError
}

const HINTS: TranslateOptions = {
  notServed: {
    what: `${GROUP}/${PLACEMENT_VERSION} ${PLACEMENTS}`,
    hint: 'the hub does not serve the PlacementDecision CRD of the Cluster Inventory API; ask its administrator to install it',
  },
  forbiddenHint: `ask the hub administrator for RBAC access to ${PLACEMENTS}.${GROUP} (get, list), or use another --context`,
}

function placementsPath(namespace: string): string {
  return `/apis/${GROUP}/${PLACEMENT_VERSION}/namespaces/${encodeURIComponent(namespace)}/${PLACEMENTS}`
}

export async function getPlacementDecision(
  hub: PlacementCalls,
  namespace: string,
  name: string,
): Promise<PlacementDecision | undefined> {
  try {
    return await hub.client.request<PlacementDecision>(
      'GET',
      `${placementsPath(namespace)}/${encodeURIComponent(name)}`,
    )
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404 && error.statusObject?.details?.name === name)
      return undefined
    throw hub.translate(error, `get PlacementDecision ${namespace}/${name}`, HINTS)
  }
}

export async function listPlacementDecisions(
  hub: PlacementCalls,
  namespace: string,
  labelSelector?: string,
): Promise<PlacementDecision[]> {
  try {
    const list = await hub.client.request<{items?: PlacementDecision[]}>('GET', placementsPath(namespace), {
      query: {labelSelector},
    })
    return list.items ?? []
  } catch (error) {
    throw hub.translate(error, `list PlacementDecisions in namespace "${namespace}"`, HINTS)
  }
}
