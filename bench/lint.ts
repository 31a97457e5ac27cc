// lint-10000: `cpcred lint -A` against `cpcred list -A` on the same 10,000 profiles of the shared
// fleet (bench/fleet.ts), in the same run: lint reads the profiles as list does (pages of the hub),
// then checks every rule on each and groups them into inventories, so what it costs beyond the
// listing is the rules and the report.
import {alternate, median} from './measure.js'
import {benchLine} from './credential.js'
import {ensureFleet, fleetSelector} from './fleet.js'
import type {BenchContext} from './run.js'

const RUNS = 9
const BUDGET = {ratio: 1.2, rssMb: 200}

export async function lint10000Bench(context: BenchContext): Promise<void> {
  const {env, cpcred} = context
  await ensureFleet(context, 10000)
  const kubeconfig = {KUBECONFIG: env.hub.kubeconfig}
  const selector = fleetSelector(10000)
  const samples = await alternate(
    [
      {name: 'lint', command: [...cpcred, 'lint', '-A', '-l', selector], env: kubeconfig},
      {name: 'list', command: [...cpcred, 'list', '-A', '-l', selector], env: kubeconfig},
    ],
    RUNS,
  )
  const lintMs = median(samples.get('lint')!.map((sample) => sample.wallMs))
  const listMs = median(samples.get('list')!.map((sample) => sample.wallMs))
  const lintCpuMs = median(samples.get('lint')!.map((sample) => sample.cpuMs))
  const listCpuMs = median(samples.get('list')!.map((sample) => sample.cpuMs))
  const peakMb = Math.max(...samples.get('lint')!.map((sample) => sample.peakRssMiB))
  benchLine('lint-10000', lintMs / listMs, BUDGET.ratio, {
    lint_ms: lintMs.toFixed(0),
    list_ms: listMs.toFixed(0),
    lint_cpu_ms: lintCpuMs.toFixed(0),
    list_cpu_ms: listCpuMs.toFixed(0),
    lint_peak_rss_mb: peakMb.toFixed(0),
    rss_budget_mb: `${BUDGET.rssMb}${peakMb > BUDGET.rssMb ? '(over)' : ''}`,
    runs: String(RUNS),
  })
}
