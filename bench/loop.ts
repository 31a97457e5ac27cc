// fanout-vs-loop: what a platform engineer would run instead of `cpcred exec`: a kubeconfig with one
// context per cluster (`cpcred kubeconfig --all`) and `xargs -P16 kubectl --context …`, where every
// kubectl call runs its credential plugin again. Two variants of that kubeconfig:
// - cpcred: each user runs `cpcred credential` (warm: the answer cache serves it);
// - plugin: each user runs a `#!/usr/bin/env python3` plugin that prints a static credential with an
//   expiry (the language of the aws and gcloud CLIs): kubectl pays its start on every call, cpcred
//   once per credential, which it then keeps.
// Both sides run `kubectl get --raw /readyz` against each of 200 targets, both warm. The machine has
// two cores, so this is a race for CPU: CPU per target is reported beside wall time.
import {chmod, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {alternate, median, sampleOnce, type Contender} from './measure.js'
import {benchLine, withTargets, writeFakeProviders, type BenchTargets} from './credential.js'
import type {BenchContext} from './run.js'

const TARGETS = 200
const PARALLEL = 16
const RUNS = 3
const BUDGETS = {cpcred: 0.7, plugin: 0.6} as const

type Mode = keyof typeof BUDGETS

export function fanoutVsLoopBench(context: BenchContext): Promise<void> {
  return withTargets(context, 'loop', TARGETS, async (targets) => {
    const pythonProviders = await pythonPluginProviders(targets)
    for (const mode of Object.keys(BUDGETS) as Mode[]) {
      await race(context, targets, mode, mode === 'plugin' ? pythonProviders : targets.providerFile)
    }
  })
}

async function race(context: BenchContext, targets: BenchTargets, mode: Mode, providerFile: string) {
  const hubFlags = ['--kubeconfig', context.env.hub.kubeconfig, '--provider-file', providerFile]
  const selection = ['-A', '-l', targets.selector]
  const kubeconfig = path.join(targets.dir, `contexts-${mode}.kubeconfig`)
  await sampleOnce({
    name: `cpcred kubeconfig --mode ${mode}`,
    command: [
      ...context.cpcred,
      'kubeconfig',
      ...selection,
      ...hubFlags,
      '--mode',
      mode,
      '--output-file',
      kubeconfig,
    ],
    env: targets.env,
  })
  const command = ['kubectl', 'get', '--raw', '/readyz']
  const cpcred: Contender = {
    name: 'cpcred',
    command: [
      ...context.cpcred,
      'exec',
      ...selection,
      ...hubFlags,
      '--parallel',
      String(PARALLEL),
      '--quiet',
      '--',
      ...command,
    ],
    env: targets.env,
  }
  // The loop as a user would write it: every context of the kubeconfig, 16 at a time.
  const script =
    `kubectl --kubeconfig "$1" config get-contexts -o name | ` +
    `xargs -P${PARALLEL} -I{} kubectl --kubeconfig "$1" --context {} ${command.slice(1).join(' ')} >/dev/null`
  const loop: Contender = {name: 'loop', command: ['sh', '-c', script, 'sh', kubeconfig], env: targets.env}

  // Warm both: cpcred's credential cache and answers, kubectl's discovery cache (shared through HOME).
  await sampleOnce(cpcred)
  await sampleOnce(loop)
  const samples = await alternate([cpcred, loop], RUNS)
  const wall = (name: string) => median(samples.get(name)!.map((sample) => sample.wallMs))
  const cpuPerTarget = (name: string) => median(samples.get(name)!.map((sample) => sample.cpuMs)) / TARGETS
  benchLine(`fanout-vs-loop-${mode}`, wall('cpcred') / wall('loop'), BUDGETS[mode], {
    cpcred_ms: wall('cpcred').toFixed(0),
    loop_ms: wall('loop').toFixed(0),
    cpcred_cpu_ms_per_target: cpuPerTarget('cpcred').toFixed(1),
    loop_cpu_ms_per_target: cpuPerTarget('loop').toFixed(1),
    targets: String(TARGETS),
    runs: String(RUNS),
  })
}

/** A provider file whose `fake` provider is a python3 plugin printing the targets' token, valid 1 h. */
async function pythonPluginProviders(targets: BenchTargets): Promise<string> {
  const plugin = path.join(targets.dir, 'static-plugin.py')
  const tokenFile = path.join(targets.dir, 'token')
  await writeFile(
    plugin,
    [
      '#!/usr/bin/env python3',
      'import datetime, json, os',
      "token = open(os.environ['PLUGIN_TOKEN_FILE']).read().strip()",
      'expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)',
      'print(json.dumps({',
      "    'apiVersion': 'client.authentication.k8s.io/v1',",
      "    'kind': 'ExecCredential',",
      "    'status': {'token': token, 'expirationTimestamp': expires.strftime('%Y-%m-%dT%H:%M:%SZ')},",
      '}))',
      '',
    ].join('\n'),
  )
  await chmod(plugin, 0o700)
  const file = path.join(targets.dir, 'python-providers.json')
  await writeFakeProviders(file, plugin, {PLUGIN_TOKEN_FILE: tokenFile})
  return file
}
