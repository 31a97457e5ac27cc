// exec-overhead: `cpcred exec <p> -- kubectl get ns` (warm cache) against kubectl with a static-token
// kubeconfig for the same spoke and the same token.
// fanout-50: `cpcred exec -A -l <label> --parallel 8 -- kubectl version` over 50 profiles against the
// same 50 run one after another, plus cpcred's own CPU per target.
// fanout-1000: a thousand targets in one step, against xargs -P16 starting the same commands;
// fanout-10000: the shared fleet's 10,000, against xargs -P32, with a JUnit report.
import {readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {alternate, median, sampleOnce, type Contender} from './measure.js'
import {
  benchLine,
  grantNamespaceReader,
  staticTokenKubeconfig,
  withTargets,
  type BenchTargets,
} from './credential.js'
import {junitTestcases} from '../test/helpers/fleet-job.js'
import {fleetTargets} from './fleet.js'
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
  return withTargets(context, 'fleet', FLEET_TARGETS, (targets) =>
    fanOutAgainstXargs(context, targets, {
      name: 'fanout-1000',
      parallel: FLEET_PARALLEL,
      runs: FLEET_RUNS,
      ratioBudget: FLEET_RATIO_BUDGET,
      rssBudgetMb: FLEET_RSS_BUDGET_MB,
    }),
  )
}

/**
 * fanout-10000: the same over the 10,000 profiles of the shared fleet, 32 at a time, with a JUnit
 * report (checked: 10,000 test cases, none failed). Budget: 1.5; peak memory: 300 MB.
 */
export async function fanout10000Bench(context: BenchContext): Promise<void> {
  const targets = await fleetTargets(context, 10000)
  try {
    await fanOutAgainstXargs(context, targets, {
      name: 'fanout-10000',
      parallel: 32,
      runs: FLEET_RUNS,
      ratioBudget: 1.5,
      rssBudgetMb: 300,
      junit: true,
    })
  } finally {
    await rm(targets.dir, {recursive: true, force: true})
  }
}

interface FanOutCase {
  name: string
  parallel: number
  runs: number
  ratioBudget: number
  rssBudgetMb: number
  /** Ask for a JUnit report and check it holds one passed test case per target. */
  junit?: boolean
}

async function fanOutAgainstXargs(
  context: BenchContext,
  targets: BenchTargets,
  {name, parallel, runs, ratioBudget, rssBudgetMb, junit}: FanOutCase,
): Promise<void> {
  const count = targets.profiles.length
  const junitFile = path.join(targets.dir, 'junit.xml')
  const cpcred: Contender = {
    name: 'cpcred',
    command: [
      ...context.cpcred,
      'exec',
      '-A',
      '-l',
      targets.selector,
      '--parallel',
      String(parallel),
      '--quiet',
      ...(junit ? ['--report', `junit=${junitFile}`] : []),
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
    command: ['sh', '-c', `xargs -P${parallel} -I{} env KUBECONFIG={} true < "$0"`, paths],
    env: targets.env,
  }
  // alternate() starts with one run each: cpcred's fills the cache (each profile has its own exec
  // config, so its own credential); a failure of any target fails the case.
  const samples = await alternate([cpcred, xargs], runs, (contender, sample) => {
    if (contender === cpcred)
      console.error(
        `${name}: the first run, which fills the cache, took ${(sample.wallMs / 1000).toFixed(1)}s`,
      )
  })
  if (junit) await checkJUnit(junitFile, targets.profiles)
  const cpcredMs = median(samples.get('cpcred')!.map((sample) => sample.wallMs))
  const xargsMs = median(samples.get('xargs')!.map((sample) => sample.wallMs))
  const cpu = (contender: string) => median(samples.get(contender)!.map((sample) => sample.cpuMs)) / count
  const peakMb = Math.max(...samples.get('cpcred')!.map((sample) => sample.peakRssMiB))
  benchLine(name, cpcredMs / xargsMs, ratioBudget, {
    cpcred_ms: cpcredMs.toFixed(0),
    xargs_ms: xargsMs.toFixed(0),
    cpcred_cpu_ms_per_target: cpu('cpcred').toFixed(2),
    xargs_cpu_ms_per_target: cpu('xargs').toFixed(2),
    cpcred_peak_rss_mb: peakMb.toFixed(0),
    rss_budget_mb: `${rssBudgetMb}${peakMb > rssBudgetMb ? '(over)' : ''}`,
    runs: String(runs),
  })
}

/** The last run's JUnit: well-formed, one passed test case per target, nothing else. */
async function checkJUnit(file: string, profiles: string[]): Promise<void> {
  const cases = junitTestcases(await readFile(file, 'utf8'))
  const failed = cases.filter((testcase) => testcase.failed).length
  const names = new Set(cases.map((testcase) => `${testcase.classname}/${testcase.name}`))
  const missing = profiles.filter((profile) => !names.has(profile)).length
  if (cases.length !== profiles.length || failed || missing)
    throw new Error(
      `${file}: ${cases.length} test cases (${failed} failed, ${missing} targets missing), want ${profiles.length} passed`,
    )
}
