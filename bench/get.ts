// get-1000: `cpcred get -A -l … -- pods -A` over 1,000 profiles of the test spoke against
// (a) `cpcred exec -A -l … --parallel 16 --quiet -- kubectl get pods -A` and (b) the loop a user
// would write over the merged contexts of `cpcred kubeconfig --mode plugin` (a shell plugin, the
// cheapest a kubectl can run): `kubectl config get-contexts -o name | xargs -P16 kubectl --context {}
// get pods -A`. All warm: cpcred's credential and discovery caches, kubectl's discovery cache.
// get-warm: `cpcred get NS/NAME -- pods` on one warm target against `kubectl get pods` through the
// context `cpcred kubeconfig --mode cpcred` writes for it, whose credential `cpcred credential`
// answers from its warm cache (as credential-warm measures it).
import path from 'node:path'
import {kubeCall} from '../test/testenv/http.js'
import {adminConnection} from '../test/testenv/testenv.js'
import {alternate, median, sampleOnce, type Contender, type Sample} from './measure.js'
import {
  benchLine,
  grantReader,
  staticTokenKubeconfig,
  withTargets,
  writeShellPluginProviders,
  type BenchTargets,
} from './credential.js'
import type {BenchContext} from './run.js'

const FLEET_TARGETS = 1000
const PARALLEL = 16
/** A run of the baselines starts 1,000 kubectl processes (a minute or more on two cores). */
const FLEET_RUNS = 1
const FLEET_BUDGET = 0.25
const FLEET_RSS_BUDGET_MB = 300
/** Pods in one namespace of the spoke, so that every table has rows (20,000 across the fleet). */
const PODS = 20

const WARM_RUNS = 11
const WARM_BUDGET = 1.1

export function get1000Bench(context: BenchContext): Promise<void> {
  return withTargets(context, 'get', FLEET_TARGETS, async (targets) => {
    await grantReader(context, targets, 'pods')
    await ensurePods(context)
    await writeShellPluginProviders(targets.dir, targets.providerFile)
    await get1000(context, targets)
  })
}

async function get1000(context: BenchContext, targets: BenchTargets): Promise<void> {
  const selection = ['-A', '-l', targets.selector, ...targets.flags]
  const get: Contender = {
    name: 'get',
    command: [...context.cpcred, 'get', ...selection, '--', 'pods', '-A'],
    env: targets.env,
  }
  const exec: Contender = {
    name: 'exec',
    command: [
      ...context.cpcred,
      'exec',
      ...selection,
      '--parallel',
      String(PARALLEL),
      '--quiet',
      '--',
      'kubectl',
      'get',
      'pods',
      '-A',
    ],
    env: targets.env,
  }
  const kubeconfig = path.join(targets.dir, 'contexts.kubeconfig')
  await sampleOnce({
    name: 'cpcred kubeconfig --mode plugin',
    command: [...context.cpcred, 'kubeconfig', ...selection, '--mode', 'plugin', '--output-file', kubeconfig],
    env: targets.env,
  })
  const script =
    `kubectl --kubeconfig "$1" config get-contexts -o name | ` +
    `xargs -P${PARALLEL} -I{} kubectl --kubeconfig "$1" --context {} get pods -A >/dev/null`
  const loop: Contender = {name: 'loop', command: ['sh', '-c', script, 'sh', kubeconfig], env: targets.env}

  // Warm: get fills the credential cache (one per target) and the discovery cache; one kubectl call
  // fills kubectl's discovery cache, which exec's and the loop's kubectl share through HOME.
  const cold = await sampleOnce(get)
  console.error(`get-1000: the first get, which fills the caches, took ${(cold.wallMs / 1000).toFixed(1)}s`)
  const first = (await readFirstContext(targets, kubeconfig)) ?? ''
  await sampleOnce({
    name: 'kubectl (warm-up)',
    command: ['kubectl', '--kubeconfig', kubeconfig, '--context', first, 'get', 'pods', '-A'],
    env: targets.env,
  })
  const samples = new Map<string, Sample[]>([
    ['get', []],
    ['exec', []],
    ['loop', []],
  ])
  for (let run = 0; run < FLEET_RUNS; run++)
    for (const contender of [get, exec, loop]) samples.get(contender.name)!.push(await sampleOnce(contender))
  const wall = (name: string) => median(samples.get(name)!.map((sample) => sample.wallMs))
  const cpuPerTarget = (name: string) =>
    median(samples.get(name)!.map((sample) => sample.cpuMs)) / FLEET_TARGETS
  const peakMb = Math.max(cold.peakRssMiB, ...samples.get('get')!.map((sample) => sample.peakRssMiB))
  benchLine('get-1000', wall('get') / wall('loop'), FLEET_BUDGET, {
    ratio_exec: (wall('get') / wall('exec')).toFixed(2),
    get_ms: wall('get').toFixed(0),
    exec_ms: wall('exec').toFixed(0),
    loop_ms: wall('loop').toFixed(0),
    get_cpu_ms_per_target: cpuPerTarget('get').toFixed(1),
    exec_cpu_ms_per_target: cpuPerTarget('exec').toFixed(1),
    loop_cpu_ms_per_target: cpuPerTarget('loop').toFixed(1),
    get_peak_rss_mb: peakMb.toFixed(0),
    rss_budget_mb: `${FLEET_RSS_BUDGET_MB}${peakMb > FLEET_RSS_BUDGET_MB ? '(over)' : ''}`,
    targets: String(FLEET_TARGETS),
    runs: String(FLEET_RUNS),
  })
}

async function readFirstContext(targets: BenchTargets, kubeconfig: string): Promise<string | undefined> {
  const {execFile} = await import('node:child_process')
  return new Promise((resolve) =>
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, 'config', 'get-contexts', '-o', 'name'],
      {env: {...process.env, ...targets.env}},
      (error, stdout) => resolve(error ? undefined : stdout.split('\n')[0]),
    ),
  )
}

/** PODS pods in namespace bench-get of the spoke (Pending: the test spoke has no nodes). */
async function ensurePods({env}: BenchContext): Promise<void> {
  const spoke = await adminConnection(env.spoke)
  const namespace = 'bench-get'
  await kubeCall(
    spoke,
    'POST',
    '/api/v1/namespaces',
    {apiVersion: 'v1', kind: 'Namespace', metadata: {name: namespace}},
    [201, 409],
  )
  // No controller-manager on the test spoke makes the default ServiceAccount the pods need.
  await kubeCall(
    spoke,
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    {apiVersion: 'v1', kind: 'ServiceAccount', metadata: {name: 'default'}},
    [201, 409],
  )
  for (let index = 0; index < PODS; index++)
    await kubeCall(
      spoke,
      'POST',
      `/api/v1/namespaces/${namespace}/pods`,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name: `web-${index}`, labels: {app: 'web'}},
        spec: {
          automountServiceAccountToken: false,
          containers: [{name: 'web', image: 'registry.k8s.io/pause:3.10'}],
        },
      },
      [201, 409],
    )
}

export function getWarmBench(context: BenchContext): Promise<void> {
  return withTargets(context, 'getwarm', 1, async (targets) => {
    await grantReader(context, targets, 'pods')
    await ensurePods(context)
    const profile = targets.profiles[0]!
    const kubeconfig = path.join(targets.dir, 'cpcred.kubeconfig')
    await sampleOnce({
      name: 'cpcred kubeconfig --mode cpcred',
      command: [
        ...context.cpcred,
        'kubeconfig',
        profile,
        ...targets.flags,
        '--mode',
        'cpcred',
        '--set-current',
        '--output-file',
        kubeconfig,
      ],
      env: targets.env,
    })
    const staticKubeconfig = await staticTokenKubeconfig(context, targets)
    const get: Contender = {
      name: 'get',
      command: [...context.cpcred, 'get', profile, ...targets.flags, '--', 'pods', '-n', 'bench-get'],
      env: targets.env,
    }
    const kubectl: Contender = {
      name: 'kubectl',
      command: ['kubectl', '--kubeconfig', kubeconfig, 'get', 'pods', '-n', 'bench-get'],
      env: targets.env,
    }
    const staticToken: Contender = {
      name: 'static',
      command: ['kubectl', '--kubeconfig', staticKubeconfig, 'get', 'pods', '-n', 'bench-get'],
      env: targets.env,
    }
    // alternate() warms each once: the credential cache, cpcred's and kubectl's discovery.
    const samples = await alternate([get, kubectl, staticToken], WARM_RUNS)
    const wall = (name: string) => median(samples.get(name)!.map((sample) => sample.wallMs))
    const cpu = (name: string) => median(samples.get(name)!.map((sample) => sample.cpuMs))
    benchLine('get-warm', wall('get') / wall('kubectl'), WARM_BUDGET, {
      ratio_static_token: (wall('get') / wall('static')).toFixed(2),
      get_ms: wall('get').toFixed(0),
      kubectl_ms: wall('kubectl').toFixed(0),
      static_token_kubectl_ms: wall('static').toFixed(0),
      get_cpu_ms: cpu('get').toFixed(0),
      kubectl_cpu_ms: cpu('kubectl').toFixed(0),
      runs: String(WARM_RUNS),
    })
  })
}
