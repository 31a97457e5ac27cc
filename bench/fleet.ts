// The edge fleet the large cases share: up to 10,000 ClusterProfiles, 1,000 to a namespace, grown in
// place (1,000 → 5,000 → 10,000) so that a curve costs one creation, and found again on a hub that is
// reused (CPCRED_TESTENV). Each profile has a condition, a version and two providers; `fake` reaches
// the spoke with a per-cluster exec config, so each target has its own credential, as real fleets do.
import {kubeCall, type Connection} from '../test/testenv/http.js'
import {benchHome, writeShellPluginProviders, type BenchTargets} from './credential.js'
import type {BenchContext} from './run.js'

export const FLEET_LABEL = 'bench=edge'
export const FLEET_SIZES = [1000, 5000, 10000] as const
export type FleetSize = (typeof FLEET_SIZES)[number]

const PER_NAMESPACE = 1000
const CREATE_WORKERS = 16
const TIER_LABEL = 'bench-tier'
const PROFILES = 'apis/multicluster.x-k8s.io/v1alpha1'

/** `-l` that selects the first `size` profiles of the fleet (a tier label per size step). */
export function fleetSelector(size: FleetSize): string {
  const tiers = TIERS.slice(0, FLEET_SIZES.indexOf(size) + 1)
  return size === 10000 ? FLEET_LABEL : `${FLEET_LABEL},${TIER_LABEL} in (${tiers.join(',')})`
}

const TIERS = ['a', 'b', 'c'] as const

function tierOf(index: number): string {
  return TIERS[FLEET_SIZES.findIndex((size) => index < size)]!
}

export function fleetNamespace(index: number): string {
  return `bench-edge-${Math.floor(index / PER_NAMESPACE)}`
}

export function fleetName(index: number): string {
  return `cluster-${String(index % PER_NAMESPACE).padStart(4, '0')}`
}

/** Makes sure the first `size` profiles exist (creating only the missing ones); prints how long. */
export async function ensureFleet({env, hub}: BenchContext, size: FleetSize): Promise<void> {
  const started = Date.now()
  const missing: number[] = []
  for (let first = 0; first < size; first += PER_NAMESPACE) {
    const namespace = fleetNamespace(first)
    await kubeCall(
      hub,
      'POST',
      '/api/v1/namespaces',
      {apiVersion: 'v1', kind: 'Namespace', metadata: {name: namespace}},
      [201, 409],
    )
    const list = await kubeCall<{items: {metadata: {name: string}}[]}>(
      hub,
      'GET',
      `/${PROFILES}/namespaces/${namespace}/clusterprofiles`,
    )
    const present = new Set(list.items.map((item) => item.metadata.name))
    for (let index = first; index < Math.min(size, first + PER_NAMESPACE); index++)
      if (!present.has(fleetName(index))) missing.push(index)
  }
  const created = missing.length
  await eachConcurrently(missing, CREATE_WORKERS, (index) => createFleetProfile(hub, index, env.spoke.server))
  const seconds = (Date.now() - started) / 1000
  console.error(
    `fleet: ${size} profiles, ${created} created in ${seconds.toFixed(1)}s` +
      (created ? ` (${Math.round(created / seconds)}/s, ${CREATE_WORKERS} at a time)` : ''),
  )
}

async function createFleetProfile(hub: Connection, index: number, server: string) {
  const name = fleetName(index)
  const profiles = `/${PROFILES}/namespaces/${fleetNamespace(index)}/clusterprofiles`
  const [labelKey, labelValue] = FLEET_LABEL.split('=') as [string, string]
  const created = await kubeCall<Record<string, unknown>>(hub, 'POST', profiles, {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {
      name,
      labels: {
        [labelKey]: labelValue,
        [TIER_LABEL]: tierOf(index),
        'x-k8s.io/cluster-manager': 'bench-manager',
      },
    },
    spec: {displayName: `Edge ${name}`, clusterManager: {name: 'bench-manager'}},
  })
  await kubeCall(hub, 'PUT', `${profiles}/${name}/status`, {
    ...created,
    status: fleetStatus(name, server),
  })
}

/**
 * A fleet profile's status: list-5000's former profiles (a condition, a version, `token-request` with
 * a 4-byte CA), their second provider being `fake`, which reaches the spoke with a per-cluster exec
 * extension. `revision` changes what sync writes for it.
 */
function fleetStatus(name: string, server: string, revision?: string) {
  return {
    conditions: [
      {
        type: 'ControlPlaneHealthy',
        status: 'True',
        reason: 'Healthy',
        message: 'ok',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    version: {kubernetes: 'v1.34.10'},
    accessProviders: [
      {name: 'token-request', cluster: {server, 'certificate-authority-data': 'Y2EK'}},
      {
        name: 'fake',
        cluster: {
          server,
          extensions: [{name: 'client.authentication.k8s.io/exec', extension: {clusterName: name, revision}}],
        },
      },
    ],
  }
}

/** Gives profile `index` a new revision of its exec extension (a change sync must write). */
export async function reviseFleetProfile(
  {env, hub}: BenchContext,
  index: number,
  revision: string,
): Promise<void> {
  const name = fleetName(index)
  const profile = `/${PROFILES}/namespaces/${fleetNamespace(index)}/clusterprofiles/${name}`
  const current = await kubeCall<Record<string, unknown>>(hub, 'GET', profile)
  await kubeCall(hub, 'PUT', `${profile}/status`, {
    ...current,
    status: fleetStatus(name, env.spoke.server, revision),
  })
}

/** Runs `job` for each index, `workers` at a time. */
export async function eachConcurrently(
  indexes: number[],
  workers: number,
  job: (index: number) => Promise<void>,
): Promise<void> {
  const queue = [...indexes]
  await Promise.all(
    Array.from({length: workers}, async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) await job(index)
    }),
  )
}

/**
 * Targets for the first `size` profiles: a private home whose provider file runs a shell plugin (a
 * Node plugin would start 10,000 Node processes to fill the cache, minutes on two cores; what is
 * measured is the fan-out, with every credential answered from the cache).
 */
export async function fleetTargets(context: BenchContext, size: FleetSize): Promise<BenchTargets> {
  await ensureFleet(context, size)
  const home = await benchHome(context, 'fleet')
  await writeShellPluginProviders(home.dir, home.providerFile)
  const profiles = Array.from({length: size}, (_, index) => `${fleetNamespace(index)}/${fleetName(index)}`)
  return {...home, profiles, selector: fleetSelector(size)}
}
