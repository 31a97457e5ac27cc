// sync-10000: `cpcred sync` of the shared fleet's 10,000 profiles into an empty kubeconfig, then again
// after 100 of them changed (only those may be touched), kubectl reading the result, and the memory
// of `sync --watch` after the first pass and 1,000 updates.
// list-watch-10000: the memory of `cpcred list -A -w` once its first 10,000 rows are out.
import {spawn} from 'node:child_process'
import {readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {benchLine, type BenchTargets} from './credential.js'
import {
  eachConcurrently,
  FLEET_LABEL,
  fleetName,
  fleetNamespace,
  fleetTargets,
  reviseFleetProfile,
} from './fleet.js'
import {sampleOnce, type Sample} from './measure.js'
import type {BenchContext} from './run.js'

const SIZE = 10000
const CHANGED = 100
const WATCH_UPDATES = 1000
const UPDATE_WORKERS = 16
const WATCH_RSS_BUDGET_MB = 250
const WAIT_MS = 600_000
/** How long the watch gets to apply the updates; past it, its memory is measured as it stands. */
const WATCH_APPLY_MS = 300_000

interface SyncChange {
  action: string
  profile?: string
}

export async function sync10000Bench(context: BenchContext): Promise<void> {
  const targets = await fleetTargets(context, SIZE)
  try {
    const file = path.join(targets.dir, 'fleet.kubeconfig')
    await writeFile(file, '', {mode: 0o600})
    const first = await syncOnce(context, targets, file)
    expectChanges('the first sync', first.changes, 'add', SIZE)
    progress('the first sync, into an empty file', first.sample)

    const revision = `r${Date.now().toString(36)}`
    const changed = Array.from({length: CHANGED}, (_, i) => i * (SIZE / CHANGED))
    await eachConcurrently(changed, UPDATE_WORKERS, (index) => reviseFleetProfile(context, index, revision))
    const second = await syncOnce(context, targets, file)
    expectChanges('the second sync', second.changes, 'update', CHANGED)
    progress(`the second sync, ${CHANGED} profiles changed`, second.sample)
    const want = new Set(changed.map((index) => `${fleetNamespace(index)}/${fleetName(index)}`))
    if (second.changes.some((change) => !want.has(change.profile!)))
      throw new Error('the second sync updated profiles that did not change')

    const names = path.join(targets.dir, 'contexts.txt')
    const kubectl = await sampleOnce({
      name: 'kubectl config get-contexts',
      command: ['kubectl', 'config', 'get-contexts', '-o', 'name'],
      env: {...targets.env, KUBECONFIG: file},
      stdoutFile: names,
    })
    const contexts = (await readFile(names, 'utf8')).split('\n').filter(Boolean).length
    if (contexts !== SIZE) throw new Error(`kubectl read ${contexts} contexts from ${file}, want ${SIZE}`)

    const watch = await watchMemory(context, targets)
    benchLine('sync-10000', second.sample.wallMs / first.sample.wallMs, undefined, {
      first_ms: first.sample.wallMs.toFixed(0),
      second_ms: second.sample.wallMs.toFixed(0),
      kubectl_get_contexts_ms: kubectl.wallMs.toFixed(0),
      sync_peak_rss_mb: Math.max(first.sample.peakRssMiB, second.sample.peakRssMiB).toFixed(0),
      first_pass_s: (watch.firstPassMs / 1000).toFixed(1),
      updates_applied_s: watch.applied
        ? (watch.updatesMs / 1000).toFixed(1)
        : `>${(watch.updatesMs / 1000).toFixed(0)}(${watch.appliedCount}/${WATCH_UPDATES})`,
      watch_passes: String(watch.passes),
      watch_rss_mb: watch.rssMb.toFixed(0),
      watch_peak_rss_mb: `${watch.peakMb.toFixed(0)}${watch.peakMb > WATCH_RSS_BUDGET_MB ? '(over)' : ''}`,
      watch_rss_budget_mb: String(WATCH_RSS_BUDGET_MB),
    })
    console.log(
      `#   sync-10000: ratio = second sync (${CHANGED} profiles changed) / first (into an empty file); ` +
        `watch_* after the first pass and ${WATCH_UPDATES} updates, ${UPDATE_WORKERS} at a time`,
    )
  } finally {
    await rm(targets.dir, {recursive: true, force: true})
  }
}

/** `cpcred sync` of the whole fleet into `file`. */
function fleetSync(cpcred: string[], targets: BenchTargets, file: string): string[] {
  return [...cpcred, 'sync', '-A', '-l', FLEET_LABEL, ...targets.flags, '--output-file', file]
}

async function syncOnce(
  {cpcred}: BenchContext,
  targets: BenchTargets,
  file: string,
): Promise<{sample: Sample; changes: SyncChange[]}> {
  const output = `${file}.json`
  const sample = await sampleOnce({
    name: 'cpcred sync',
    command: [...fleetSync(cpcred, targets, file), '-o', 'json'],
    env: targets.env,
    stdoutFile: output,
  })
  const {changes} = JSON.parse(await readFile(output, 'utf8')) as {changes: SyncChange[]}
  return {sample, changes}
}

function expectChanges(what: string, changes: SyncChange[], action: string, count: number): void {
  const matching = changes.filter((change) => change.action === action).length
  if (matching !== count || changes.length !== count)
    throw new Error(
      `${what}: ${changes.length} changes, ${matching} of them ${action}; want ${count} ${action}`,
    )
}

/** `sync --watch` into a fresh file: its memory after the first pass and after 1,000 updates. */
async function watchMemory(context: BenchContext, targets: BenchTargets) {
  const file = path.join(targets.dir, 'watched.kubeconfig')
  await writeFile(file, '', {mode: 0o600})
  const command = [...fleetSync(context.cpcred, targets, file), '-w']
  const clusters = async (marker: string) => {
    const text = await readFile(file, 'utf8').catch(() => '')
    return text.split(marker).length - 1
  }
  return following(command, targets.env, async (child, output) => {
    const started = Date.now()
    await until('the first pass', WAIT_MS, async () => (await clusters('clusterName: cluster-')) >= SIZE)
    const firstPassMs = Date.now() - started
    console.error(`sync-10000: sync --watch wrote the first pass in ${(firstPassMs / 1000).toFixed(1)}s`)
    const revision = `w${Date.now().toString(36)}`
    const updated = Date.now()
    const indexes = Array.from({length: WATCH_UPDATES}, (_, i) => i * (SIZE / WATCH_UPDATES) + 1)
    await eachConcurrently(indexes, UPDATE_WORKERS, (index) => reviseFleetProfile(context, index, revision))
    let appliedCount = 0
    const applied = await until(`${WATCH_UPDATES} updates`, WATCH_APPLY_MS, async () => {
      appliedCount = await clusters(`revision: ${revision}`)
      return appliedCount >= WATCH_UPDATES
    }).then(
      () => true,
      () => false,
    )
    const updatesMs = Date.now() - updated
    // Each pass that changed something prints its changes with one timestamp.
    const passes = new Set(output().match(/^\d{4}-\d\d-\d\dT[\d:.]+Z/gm)).size
    return {firstPassMs, updatesMs, applied, appliedCount, passes, ...(await memoryOf(child))}
  })
}

/** list-watch-10000: `list -A -w`, its memory once the header and 10,000 rows are out. */
export async function listWatch10000Bench(context: BenchContext): Promise<void> {
  const targets = await fleetTargets(context, SIZE)
  try {
    let lines = 0
    const command = [...context.cpcred, 'list', '-A', '-w', '-l', FLEET_LABEL, ...targets.flags]
    const result = await following(command, targets.env, async (child) => {
      const started = Date.now()
      child.stdout!.on('data', (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 10) lines++
      })
      await until('the first 10,000 rows', WAIT_MS, async () => lines >= SIZE + 1)
      return {listedMs: Date.now() - started, ...(await memoryOf(child))}
    })
    benchLine('list-watch-10000', result.peakMb, undefined, {
      listed_ms: result.listedMs.toFixed(0),
      rss_mb: result.rssMb.toFixed(0),
      peak_rss_mb: result.peakMb.toFixed(0),
    })
    console.log('#   list-watch-10000: ratio = peak RSS in MB once the first 10,000 rows are out')
  } finally {
    await rm(targets.dir, {recursive: true, force: true})
  }
}

type Child = ReturnType<typeof spawn>

/** Starts `command`, runs `body` with it, then interrupts it (as Ctrl-C) and waits for its exit. */
async function following<T>(
  command: string[],
  env: NodeJS.ProcessEnv,
  body: (child: Child, output: () => string) => Promise<T>,
): Promise<T> {
  const child = spawn(command[0]!, command.slice(1), {
    env: {...process.env, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let stdout = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  try {
    return await Promise.race([
      body(child, () => stdout + stderr),
      exited.then((code) => {
        throw new Error(`${command.slice(0, 4).join(' ')}… exited (${code}) early: ${stderr.slice(-4000)}`)
      }),
    ])
  } finally {
    child.kill('SIGINT')
    await exited
  }
}

/** Resident memory now and at its peak (VmHWM), of the process and its children, in MiB. */
async function memoryOf(child: Child): Promise<{rssMb: number; peakMb: number}> {
  let rss = 0
  let peak = 0
  for (const pid of await processTree(child.pid!)) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    rss += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0)
    peak += Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0)
  }
  return {rssMb: rss / 1024, peakMb: peak / 1024}
}

async function processTree(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')
  const below = await Promise.all(
    children
      .split(/\s+/)
      .filter(Boolean)
      .map((child) => processTree(Number(child))),
  )
  return [pid, ...below.flat()]
}

function progress(what: string, sample: Sample): void {
  console.error(
    `sync-10000: ${what}: ${(sample.wallMs / 1000).toFixed(1)}s, peak RSS ${sample.peakRssMiB.toFixed(0)} MB`,
  )
}

async function until(what: string, limitMs: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000}s`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
