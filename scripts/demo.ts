// npm run demo: a local hub with a few example ClusterProfiles, and cpcred listing them.
// Leaves the environment running so you can keep going; `npm run testenv -- down` ends it.
import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {kubeCall, kubeRequest, type Connection} from '../test/testenv/http.js'
import {adminConnection, readEnv, up, type TestEnv} from '../test/testenv/testenv.js'

const dir = path.resolve('.testenv')
const cpcredBin = path.resolve('bin/run.js')

async function main(): Promise<void> {
  const env = (await readEnv(dir)) ?? (await up(dir, (line) => console.error(`testenv: ${line}`)))
  const hub = await adminConnection(env.hub)
  await seed(hub, env)

  console.log(`\n$ cpcred list -A --kubeconfig ${path.relative(process.cwd(), env.hub.kubeconfig)}\n`)
  const list = spawnSync(process.execPath, [cpcredBin, 'list', '-A', '--kubeconfig', env.hub.kubeconfig], {
    stdio: 'inherit',
  })
  if (list.status !== 0) throw new Error(`cpcred list exited with ${list.status}`)

  console.log(`
The hub runs on ${env.hub.server} (upstream kube-apiserver + etcd on loopback). Keep going with:

  export KUBECONFIG=${env.hub.kubeconfig}
  ./bin/run.js list -A -o wide
  ./bin/run.js list -n fleet-prod -o yaml

Stop it with: npm run testenv -- down
`)
}

async function seed(hub: Connection, env: TestEnv): Promise<void> {
  const examples = [
    {
      namespace: 'fleet-prod',
      clusterset: 'prod',
      name: 'eu-west-1',
      manager: 'fleet-manager',
      healthy: 'True',
      providers: ['token-request'],
    },
    {
      namespace: 'fleet-prod',
      clusterset: 'prod',
      name: 'us-east-2',
      manager: 'fleet-manager',
      healthy: 'False',
      providers: ['secretreader', 'token-request'],
    },
    {
      namespace: 'fleet-dev',
      clusterset: 'dev',
      name: 'dev-spoke',
      manager: 'open-cluster-management',
      healthy: 'True',
      providers: ['secretreader'],
    },
  ]
  for (const example of examples) {
    const nsPath = `/api/v1/namespaces/${example.namespace}`
    if ((await kubeRequest(hub, 'GET', nsPath)).status === 404) {
      await kubeCall(hub, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {name: example.namespace, labels: {'multicluster.x-k8s.io/clusterset': example.clusterset}},
      })
    }
    const profilePath = `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${example.namespace}/clusterprofiles`
    if ((await kubeRequest(hub, 'GET', `${profilePath}/${example.name}`)).status === 200) continue
    const created = await kubeCall<Record<string, unknown>>(hub, 'POST', profilePath, {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ClusterProfile',
      metadata: {name: example.name, labels: {'x-k8s.io/cluster-manager': example.manager}},
      spec: {displayName: example.name, clusterManager: {name: example.manager}},
    })
    await kubeCall(hub, 'PUT', `${profilePath}/${example.name}/status`, {
      ...created,
      status: {
        conditions: [
          {
            type: 'ControlPlaneHealthy',
            status: example.healthy,
            reason: example.healthy === 'True' ? 'Healthy' : 'Unreachable',
            message: '',
            lastTransitionTime: new Date().toISOString(),
          },
        ],
        version: {kubernetes: 'v1.34.10'},
        accessProviders: example.providers.map((name) => ({
          name,
          cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData},
        })),
      },
    })
  }
}

main().catch((error: Error) => {
  console.error(`demo failed: ${error.message}`)
  process.exit(1)
})
