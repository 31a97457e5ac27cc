// npm run bench [-- CASE…]: performance budgets as ratios against a baseline measured in the same
// run on the same machine. Starts its own hub + spoke (or uses CPCRED_TESTENV when set).
import {mkdtemp} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {adminConnection, down, readEnv, up, type TestEnv} from '../test/testenv/testenv.js'
import {credentialWarmBench} from './credential.js'
import {execOverheadBench, fanout1000Bench, fanout50Bench} from './exec.js'
import {cacheValueBench, execFloorBench} from './hot-path.js'
import {listBench} from './list.js'

export interface BenchContext {
  env: TestEnv
  hub: Awaited<ReturnType<typeof adminConnection>>
  cpcred: string[]
}

const cases: Record<string, (context: BenchContext) => Promise<void>> = {
  'list-5000': listBench,
  'credential-warm': credentialWarmBench,
  'exec-overhead': execOverheadBench,
  'exec-floor': execFloorBench,
  'cache-value': cacheValueBench,
  'fanout-50': fanout50Bench,
  'fanout-1000': fanout1000Bench,
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2)
  const unknown = wanted.filter((name) => !cases[name])
  if (unknown.length)
    throw new Error(`unknown bench case ${unknown.join(', ')}; known: ${Object.keys(cases).join(', ')}`)

  // An empty value means unset: never treat the working directory as an environment.
  const existing = process.env.CPCRED_TESTENV || undefined
  const dir = existing ?? (await mkdtemp(path.join(os.tmpdir(), 'cpcred-bench-')))
  const env =
    (existing && (await readEnv(existing))) || (await up(dir, (line) => console.error(`testenv: ${line}`)))
  try {
    const context = {
      env,
      hub: await adminConnection(env.hub),
      cpcred: [process.execPath, path.resolve('bin/run.js')],
    }
    for (const [name, run] of Object.entries(cases)) {
      if (wanted.length && !wanted.includes(name)) continue
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
