// list-5000 and list-10000: `cpcred list -A` against `kubectl get clusterprofiles -A` over the
// shared fleet (bench/fleet.ts: 1,000 profiles to a namespace, a condition and two providers each).
// list-10000 also measures 1,000 and 5,000 on the way, so the growth is printed.
import {alternate, median} from './measure.js'
import {benchLine} from './credential.js'
import {ensureFleet, fleetSelector, type FleetSize} from './fleet.js'
import type {BenchContext} from './run.js'

const RUNS = 7
/** Runs at the sizes on the way to the largest, which are printed, not budgeted. */
const CURVE_RUNS = 3

interface ListBudget {
  ratio: number
  rssMb: number
}

const BUDGETS: Record<5000 | 10000, ListBudget> = {
  5000: {ratio: 0.85, rssMb: 130},
  10000: {ratio: 0.8, rssMb: 160},
}

interface ListPoint {
  size: FleetSize
  cpcredMs: number
  kubectlMs: number
  peakMb: number
}

export async function listBench(context: BenchContext): Promise<void> {
  await ensureFleet(context, 5000)
  report('list-5000', await measureList(context, 5000, RUNS), BUDGETS[5000])
}

export async function list10000Bench(context: BenchContext): Promise<void> {
  const curve: ListPoint[] = []
  for (const size of [1000, 5000] as const) {
    await ensureFleet(context, size)
    curve.push(await measureList(context, size, CURVE_RUNS))
  }
  await ensureFleet(context, 10000)
  const last = await measureList(context, 10000, RUNS)
  curve.push(last)
  report('list-10000', last, BUDGETS[10000])
  console.log(
    `#   list-10000 growth: ${curve
      .map(
        (point) =>
          `${point.size}: cpcred ${point.cpcredMs.toFixed(0)} ms (${(point.cpcredMs / point.size).toFixed(3)} ms/profile), ` +
          `kubectl ${point.kubectlMs.toFixed(0)} ms, ratio ${(point.cpcredMs / point.kubectlMs).toFixed(2)}, ` +
          `peak RSS ${point.peakMb.toFixed(0)} MB`,
      )
      .join('; ')} (medians of ${CURVE_RUNS}, ${CURVE_RUNS} and ${RUNS} runs)`,
  )
}

async function measureList({env, cpcred}: BenchContext, size: FleetSize, runs: number): Promise<ListPoint> {
  const kubeconfig = {KUBECONFIG: env.hub.kubeconfig}
  const selector = fleetSelector(size)
  const samples = await alternate(
    [
      {name: 'cpcred', command: [...cpcred, 'list', '-A', '-l', selector], env: kubeconfig},
      {
        name: 'kubectl',
        command: ['kubectl', 'get', 'clusterprofiles.multicluster.x-k8s.io', '-A', '-l', selector],
        env: kubeconfig,
      },
    ],
    runs,
  )
  return {
    size,
    cpcredMs: median(samples.get('cpcred')!.map((s) => s.wallMs)),
    kubectlMs: median(samples.get('kubectl')!.map((s) => s.wallMs)),
    peakMb: Math.max(...samples.get('cpcred')!.map((s) => s.peakRssMiB)),
  }
}

function report(name: string, point: ListPoint, budget: ListBudget): void {
  benchLine(name, point.cpcredMs / point.kubectlMs, budget.ratio, {
    cpcred_ms: point.cpcredMs.toFixed(0),
    kubectl_ms: point.kubectlMs.toFixed(0),
    cpcred_peak_rss_mb: point.peakMb.toFixed(0),
    rss_budget_mb: `${budget.rssMb}${point.peakMb > budget.rssMb ? '(over)' : ''}`,
    runs: String(RUNS),
  })
}
