// npm run bench [-- CASE…]: performance budgets as ratios against a baseline measured in the same
// run on the same machine. Starts its own hub + spoke (or uses CPCRED_TESTENV when set).
import {spawn} from 'node:child_process'
import {mkdtemp} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {adminConnection, down, readEnv, up, type TestEnv} from '../test/testenv/testenv.js'
import {credentialInstructionsBench, credentialWarmBench} from './credential.js'
import {execOverheadBench, fanout10000Bench, fanout1000Bench, fanout50Bench} from './exec.js'
import {cacheValueBench, execEntryBench, execFloorBench} from './hot-path.js'
import {lint10000Bench} from './lint.js'
import {list10000Bench, listBench} from './list.js'
import {fanoutVsLoopBench} from './loop.js'
import {get1000Bench, getWarmBench} from './get.js'
import {credentialStandaloneBench} from './standalone.js'
import {listWatch10000Bench, sync10000Bench} from './sync.js'
import {alternate, median, settle} from './measure.js'
import {lineBin, NODE_PACKAGES, NODE_VERSION} from '../scripts/node-runtime.js'

export interface BenchContext {
  env: TestEnv
  hub: Awaited<ReturnType<typeof adminConnection>>
  cpcred: string[]
  /**
   * NODE_STARTUP_VARIABLES as the bench found them: for setup that reaches the network (npm may
   * need the CA bundle), never for what is measured.
   */
  setupEnv: NodeJS.ProcessEnv
}

const cases: Record<string, (context: BenchContext) => Promise<void>> = {
  'list-5000': listBench,
  'credential-warm': credentialWarmBench,
  'credential-instructions': credentialInstructionsBench,
  'credential-standalone': credentialStandaloneBench,
  'exec-overhead': execOverheadBench,
  'exec-floor': execFloorBench,
  'exec-entry': execEntryBench,
  'cache-value': cacheValueBench,
  'fanout-50': fanout50Bench,
  'fanout-1000': fanout1000Bench,
  'fanout-vs-loop': fanoutVsLoopBench,
  'get-warm': getWarmBench,
  'get-1000': get1000Bench,
  // The edge-scale cases share one fleet, grown in place to 10,000 profiles (bench/fleet.ts).
  'list-10000': list10000Bench,
  'fanout-10000': fanout10000Bench,
  'sync-10000': sync10000Bench,
  'list-watch-10000': listWatch10000Bench,
  'lint-10000': lint10000Bench,
}

/**
 * Variables that change what every Node start costs, whoever's program it is. NODE_EXTRA_CA_CERTS
 * makes Node read and parse a CA bundle before any JavaScript runs (about 85 ms on the reference
 * machine, where it is set for everything): it would inflate the node baseline of credential-warm and
 * exec-floor, and swamp cpcred in cache-value, hiding cpcred's own cost either way. The cases run
 * without them; the tax is measured and printed first.
 */
const NODE_STARTUP_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'] as const

/** Measures and prints the tax, then unsets the variables; returns them as they were. */
async function nodeStartupTax(): Promise<NodeJS.ProcessEnv> {
  const found = Object.fromEntries(NODE_STARTUP_VARIABLES.map((name) => [name, process.env[name]]))
  const set = NODE_STARTUP_VARIABLES.filter((name) => process.env[name])
  if (set.length === 0) return found
  const clean = Object.fromEntries(NODE_STARTUP_VARIABLES.map((name) => [name, undefined]))
  const samples = await alternate(
    [
      {name: 'as set', command: [process.execPath, '-e', '0']},
      {name: 'without', command: [process.execPath, '-e', '0'], env: clean},
    ],
    11,
  )
  const asSet = median(samples.get('as set')!.map((sample) => sample.wallMs))
  const without = median(samples.get('without')!.map((sample) => sample.wallMs))
  console.log(
    `# node startup: ${set.join(', ')} set in this environment; node -e 0 takes ${asSet.toFixed(0)} ms with ` +
      `and ${without.toFixed(0)} ms without (+${(asSet - without).toFixed(0)} ms on every Node start, ` +
      `cpcred's included). The cases below run without ${set.join(' and ')}.`,
  )
  for (const name of set) delete process.env[name]
  return found
}

/**
 * The cases measure cpcred, and Node's own start beside it, on the Node the release ships
 * (scripts/node-runtime.ts), not on whichever Node runs npm: what a run costs differs between Node
 * lines by tens of milliseconds (Node 20 parses its bundled root certificates for the first TLS
 * context, about 50 ms; later lines do not). Re-runs this script there, fetched and checked as CI
 * fetches it; CPCRED_BENCH_NODE=current measures on the running Node instead. Returns its exit code,
 * or undefined when this Node is the one.
 */
async function onShippedNode(): Promise<number | undefined> {
  if (process.env.CPCRED_BENCH_NODE === 'current' || process.version === `v${NODE_VERSION}`) return undefined
  if (`${process.platform}-${process.arch}` !== 'linux-x64') {
    console.log(`# Node ${process.version}: the shipped Node ${NODE_VERSION} is fetched for linux-x64 only`)
    return undefined
  }
  const node = path.join(await lineBin(NODE_PACKAGES['linux-amd64']), 'node')
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {stdio: 'inherit'})
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

async function main(): Promise<void> {
  const reran = await onShippedNode()
  if (reran !== undefined) process.exit(reran)
  console.log(`# cpcred and the node baselines run on Node ${process.version}`)
  const wanted = process.argv.slice(2)
  const unknown = wanted.filter((name) => !cases[name])
  if (unknown.length)
    throw new Error(`unknown bench case ${unknown.join(', ')}; known: ${Object.keys(cases).join(', ')}`)

  const setupEnv = await nodeStartupTax()
  // An empty value means unset: never treat the working directory as an environment.
  const existing = process.env.CPCRED_TESTENV || undefined
  const dir = existing ?? (await mkdtemp(path.join(os.tmpdir(), 'cpcred-bench-')))
  const env =
    (existing && (await readEnv(existing))) || (await up(dir, (line) => console.error(`testenv: ${line}`)))
  // Both sides run the kubectl of the clusters' release, as the tests do.
  if (env.kubectl) process.env.PATH = `${path.dirname(env.kubectl)}${path.delimiter}${process.env.PATH}`
  try {
    const context = {
      env,
      hub: await adminConnection(env.hub),
      // CPCRED_BENCH_COMMAND: an installed cpcred to measure instead of this checkout (the npm
      // install's bin/cpcred, or the standalone archive's launcher with its own Node).
      cpcred: process.env.CPCRED_BENCH_COMMAND
        ? [path.resolve(process.env.CPCRED_BENCH_COMMAND)]
        : [process.execPath, path.resolve('bin/run.js')],
      setupEnv,
    }
    for (const [name, run] of Object.entries(cases)) {
      if (wanted.length && !wanted.includes(name)) continue
      await settle(name)
      await run(context)
    }
  } finally {
    if (!existing) await down(dir)
  }
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error}`)
  process.exit(1)
})
