// exec-overhead: `cpcred exec <p> -- kubectl get ns` (warm cache) against kubectl with a static-token
// kubeconfig for the same spoke and the same token.
// fanout-50: `cpcred exec -A -l <label> --parallel 8 -- kubectl version` over 50 profiles against the
// same 50 run one after another, plus cpcred's own CPU per target.
// fanout-1000: a thousand targets in one step, against xargs -P16 starting the same commands.
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {alternate, median, sampleOnce, type Contender} from './measure.js'
import {
  benchLine,
  grantNamespaceReader,
  staticTokenKubeconfig,
  withTargets,
  type BenchTargets,
} from './credential.js'
import type {BenchContext} from './run.js'

const OVERHEAD_RUNS = 11
const FANOUT_TARGETS = 50
const FANOUT_PARALLEL = 8
const FANOUT_RUNS = 3
const FANOUT_CPU_RUNS = 5
const FANOUT_BUDGET = 0.6

export function execOverheadBench(context: BenchContext): Promise<void> {
  return withTargets(context, 'exec', 1, (targets) => execOverhead(context, targets))
}

async function execOverhead(context: BenchContext, targets: BenchTargets): Promise<void> {
  await grantNamespaceReader(context, targets)
  const kubeconfig = await staticTokenKubeconfig(context, targets)
  const profile = targets.profiles[0]!
  // Fill the credential cache before anything is measured (alternate() then warms kubectl's
  // discovery cache, which both contenders share through HOME).
  await sampleOnce({
    name: 'cpcred exec (cold)',
    command: [...context.cpcred, 'exec', profile, ...targets.flags, '--', 'true'],
    env: targets.env,
  })

  const samples = await alternate(
    [
      {
        name: 'cpcred',
        command: [...context.cpcred, 'exec', profile, ...targets.flags, '--', 'kubectl', 'get', 'ns'],
        env: targets.env,
      },
      {name: 'kubectl', command: ['kubectl', '--kubeconfig', kubeconfig, 'get', 'ns'], env: targets.env},
    ],
    OVERHEAD_RUNS,
  )
  const cpcredMs = median(samples.get('cpcred')!.map((s) => s.wallMs))
  const kubectlMs = median(samples.get('kubectl')!.map((s) => s.wallMs))
  const cpcredCpu = median(samples.get('cpcred')!.map((s) => s.cpuMs))
  const kubectlCpu = median(samples.get('kubectl')!.map((s) => s.cpuMs))
  // No budget: the baseline leaves out Node's own start, which no Node program can avoid (42 ms
  // against kubectl's ~110 here, a floor of about 1.4). exec-floor holds the budget for this path.
  benchLine('exec-overhead', cpcredMs / kubectlMs, undefined, {
    cpcred_ms: cpcredMs.toFixed(0),
    kubectl_ms: kubectlMs.toFixed(0),
    added_ms: (cpcredMs - kubectlMs).toFixed(0),
    cpcred_cpu_ms: cpcredCpu.toFixed(0),
    kubectl_cpu_ms: kubectlCpu.toFixed(0),
    runs: String(OVERHEAD_RUNS),
  })
}

export function fanout50Bench(context: BenchContext): Promise<void> {
  return withTargets(context, 'fanout', FANOUT_TARGETS, (targets) => fanout(context, targets))
}

async function fanout(context: BenchContext, targets: BenchTargets): Promise<void> {
  const fanOut = (command: string[]): Contender => ({
    name: `cpcred exec --parallel ${FANOUT_PARALLEL} -- ${command.join(' ')}`,
    command: [
      ...context.cpcred,
      'exec',
      '-A',
      '-l',
      targets.selector,
      '--parallel',
      String(FANOUT_PARALLEL),
      ...targets.flags,
      '--',
      ...command,
    ],
    env: targets.env,
  })
  // One `cpcred exec <p> -- kubectl version` per profile, one after another, as a shell loop would.
  const script = [
    'set -e',
    `for p in "$@"; do ${[...context.cpcred, 'exec'].map(shellQuote).join(' ')} "$p" ` +
      `${targets.flags.map(shellQuote).join(' ')} -- kubectl version >/dev/null; done`,
  ].join('\n')
  const sequential: Contender = {
    name: 'sequential',
    command: ['sh', '-c', script, 'sh', ...targets.profiles],
    env: targets.env,
  }
  const parallel = {...fanOut(['kubectl', 'version']), name: 'parallel'}
  const bare = fanOut(['true'])

  // Fill all 50 cache entries; a failure of any target fails the case.
  await sampleOnce(bare)
  const samples = await alternate([parallel, sequential], FANOUT_RUNS)
  const parallelMs = median(samples.get('parallel')!.map((s) => s.wallMs))
  const sequentialMs = median(samples.get('sequential')!.map((s) => s.wallMs))

  // cpcred's own CPU: the same fan-out with `true` as the command, so the process tree is cpcred,
  // its hub list, 50 warm cache reads, 50 temporary kubeconfigs and 50 `true` children (~1 ms each).
  const bareCpu: number[] = []
  for (let run = 0; run < FANOUT_CPU_RUNS; run++) bareCpu.push((await sampleOnce(bare)).cpuMs)
  const cpuPerTarget = median(bareCpu) / FANOUT_TARGETS
  const parallelCpuPerTarget = median(samples.get('parallel')!.map((s) => s.cpuMs)) / FANOUT_TARGETS
  const sequentialCpuPerTarget = median(samples.get('sequential')!.map((s) => s.cpuMs)) / FANOUT_TARGETS

  benchLine('fanout-50', parallelMs / sequentialMs, FANOUT_BUDGET, {
    parallel_ms: parallelMs.toFixed(0),
    sequential_ms: sequentialMs.toFixed(0),
    cpcred_cpu_ms_per_target: cpuPerTarget.toFixed(1),
    parallel_cpu_ms_per_target: parallelCpuPerTarget.toFixed(1),
    sequential_cpu_ms_per_target: sequentialCpuPerTarget.toFixed(1),
    runs: String(FANOUT_RUNS),
  })
  console.log(
    `#   fanout-50: cpcred_cpu_ms_per_target = user+sys (GNU time, whole waited process tree) of ` +
      `'cpcred exec -A -l … --parallel ${FANOUT_PARALLEL} -- true' over ${FANOUT_TARGETS} warm targets ` +
      `/ ${FANOUT_TARGETS}, median of ${FANOUT_CPU_RUNS}: one node start, the hub list, ` +
      `per target a cache read, a temporary kubeconfig and a 'true' child. ` +
      `parallel/sequential_cpu_ms_per_target include kubectl version (and, sequentially, ${FANOUT_TARGETS} cpcred starts).`,
  )
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

const FLEET_TARGETS = 1000
const FLEET_PARALLEL = 16
const FLEET_RUNS = 3
const FLEET_RATIO_BUDGET = 2
const FLEET_RSS_BUDGET_MB = 250

/**
 * fanout-1000: `cpcred exec -A -l <sel> --parallel 16 --quiet -- true` over 1,000 profiles with a
 * warm cache, against what a shell pays to start the same 1,000 commands 16 at a time, each with its
 * own KUBECONFIG in its environment: `xargs -P16 -I{} env KUBECONFIG={} true`, alternated with
 * cpcred in the same run. Budget: 2.0; peak memory: 250 MB.
 */
export function fanout1000Bench(context: BenchContext): Promise<void> {
  return withTargets(context, 'fleet', FLEET_TARGETS, async (targets) => {
    const cpcred: Contender = {
      name: 'cpcred',
      command: [
        ...context.cpcred,
        'exec',
        '-A',
        '-l',
        targets.selector,
        '--parallel',
        String(FLEET_PARALLEL),
        '--quiet',
        ...targets.flags,
        '--',
        'true',
      ],
      env: targets.env,
    }
    const paths = path.join(targets.dir, 'kubeconfigs.txt')
    await writeFile(
      paths,
      targets.profiles.map((profile) => `${path.join(targets.dir, 'kubeconfigs', profile)}\n`).join(''),
    )
    const xargs: Contender = {
      name: 'xargs',
      command: ['sh', '-c', `xargs -P${FLEET_PARALLEL} -I{} env KUBECONFIG={} true < "$0"`, paths],
      env: targets.env,
    }
    // alternate() starts with one run each: cpcred's fills the 1,000 cache entries (each profile has
    // its own exec config, so its own credential); a failure of any target fails the case.
    const samples = await alternate([cpcred, xargs], FLEET_RUNS)
    const cpcredMs = median(samples.get('cpcred')!.map((sample) => sample.wallMs))
    const xargsMs = median(samples.get('xargs')!.map((sample) => sample.wallMs))
    const cpu = (name: string) => median(samples.get(name)!.map((sample) => sample.cpuMs)) / FLEET_TARGETS
    const peakMb = Math.max(...samples.get('cpcred')!.map((sample) => sample.peakRssMiB))
    benchLine('fanout-1000', cpcredMs / xargsMs, FLEET_RATIO_BUDGET, {
      cpcred_ms: cpcredMs.toFixed(0),
      xargs_ms: xargsMs.toFixed(0),
      cpcred_cpu_ms_per_target: cpu('cpcred').toFixed(2),
      xargs_cpu_ms_per_target: cpu('xargs').toFixed(2),
      cpcred_peak_rss_mb: peakMb.toFixed(0),
      rss_budget_mb: `${FLEET_RSS_BUDGET_MB}${peakMb > FLEET_RSS_BUDGET_MB ? '(over)' : ''}`,
      runs: String(FLEET_RUNS),
    })
  })
}
