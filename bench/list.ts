// list-5000: `cpcred list -A` against `kubectl get clusterprofiles -A` on a hub with 5,000 profiles
// (10 namespaces, 2 providers and a condition each).
import {kubeCall, type Connection} from '../test/testenv/http.js'
import {benchLine} from './credential.js'
import {alternate, median} from './measure.js'
import type {BenchContext} from './run.js'

const NAMESPACES = 10
const PER_NAMESPACE = 500
const RUNS = 7
const BUDGET = 0.85
const RSS_BUDGET_MB = 130

export async function listBench({env, hub, cpcred}: BenchContext): Promise<void> {
  const label = `bench-${Date.now()}`
  const started = Date.now()
  await seed(hub, env.spoke.server, label)
  console.error(
    `list-5000: seeded ${NAMESPACES * PER_NAMESPACE} profiles in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  )

  const kubeconfig = {KUBECONFIG: env.hub.kubeconfig}
  const samples = await alternate(
    [
      {name: 'cpcred', command: [...cpcred, 'list', '-A', '-l', `bench=${label}`], env: kubeconfig},
      {
        name: 'kubectl',
        command: ['kubectl', 'get', 'clusterprofiles.multicluster.x-k8s.io', '-A', '-l', `bench=${label}`],
        env: kubeconfig,
      },
    ],
    RUNS,
  )
  const cpcredMs = median(samples.get('cpcred')!.map((s) => s.wallMs))
  const kubectlMs = median(samples.get('kubectl')!.map((s) => s.wallMs))
  const peak = Math.max(...samples.get('cpcred')!.map((s) => s.peakRssMiB))
  benchLine('list-5000', cpcredMs / kubectlMs, BUDGET, {
    cpcred_ms: cpcredMs.toFixed(0),
    kubectl_ms: kubectlMs.toFixed(0),
    cpcred_peak_rss_mb: peak.toFixed(0),
    rss_budget_mb: `${RSS_BUDGET_MB}${peak > RSS_BUDGET_MB ? '(over)' : ''}`,
    runs: String(RUNS),
  })
}

async function seed(hub: Connection, server: string, label: string): Promise<void> {
  const jobs: (() => Promise<void>)[] = []
  for (let n = 0; n < NAMESPACES; n++) {
    const namespace = `${label}-${n}`
    await kubeCall(hub, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {name: namespace},
    })
    for (let i = 0; i < PER_NAMESPACE; i++)
      jobs.push(() => createProfile(hub, namespace, `cluster-${String(i).padStart(4, '0')}`, server, label))
  }
  // A few requests in flight at once keep seeding short without overloading the hub.
  const workers = Array.from({length: 8}, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job()
  })
  await Promise.all(workers)
}

async function createProfile(
  hub: Connection,
  namespace: string,
  name: string,
  server: string,
  label: string,
) {
  const path = `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles`
  const created = await kubeCall<Record<string, unknown>>(hub, 'POST', path, {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, labels: {bench: label, 'x-k8s.io/cluster-manager': 'bench-manager'}},
    spec: {displayName: `Bench ${name}`, clusterManager: {name: 'bench-manager'}},
  })
  await kubeCall(hub, 'PUT', `${path}/${name}/status`, {
    ...created,
    status: {
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
          name: 'secretreader',
          cluster: {
            server,
            extensions: [{name: 'client.authentication.k8s.io/exec', extension: {clusterName: name}}],
          },
        },
      ],
    },
  })
}
