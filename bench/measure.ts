// Wall-clock and peak-RSS measurement of whole commands, alternated so that machine noise hits
// every contender alike. Ratios, not absolute times, are the budget.
import {spawn} from 'node:child_process'
import {closeSync, openSync} from 'node:fs'
import {readFile} from 'node:fs/promises'

export interface Sample {
  wallMs: number
  /** Peak resident set size in MiB (GNU time %M). */
  peakRssMiB: number
  /** User + system CPU in ms. */
  cpuMs: number
}

export interface Contender {
  name: string
  command: string[]
  env?: NodeJS.ProcessEnv
  /** Where its stdout goes (default: nowhere). */
  stdoutFile?: string
}

/** Runs once under /usr/bin/time; fails when the command fails, so a broken run never counts. */
export function sampleOnce(contender: Contender): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const stdout = contender.stdoutFile ? openSync(contender.stdoutFile, 'w', 0o600) : 'ignore'
    const started = process.hrtime.bigint()
    const child = spawn('/usr/bin/time', ['-f', '\n__TIME__ %M %U %S', ...contender.command], {
      env: {...process.env, ...contender.env},
      stdio: ['ignore', stdout, 'pipe'],
    })
    if (typeof stdout === 'number') closeSync(stdout)
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6
      const match = /__TIME__ (\d+) ([\d.]+) ([\d.]+)/.exec(stderr)
      if (code !== 0 || !match) {
        reject(new Error(`${contender.name} failed (exit ${code}): ${stderr.slice(-2000)}`))
        return
      }
      resolve({
        wallMs,
        peakRssMiB: Number(match[1]) / 1024,
        cpuMs: (Number(match[2]) + Number(match[3])) * 1000,
      })
    })
  })
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Alternates the contenders `runs` times after one warm-up each (shown to `warmed`, when given);
 * returns their samples.
 */
export async function alternate(
  contenders: Contender[],
  runs: number,
  warmed?: (contender: Contender, sample: Sample) => void,
): Promise<Map<string, Sample[]>> {
  const samples = new Map(contenders.map((c) => [c.name, [] as Sample[]]))
  for (const contender of contenders) {
    const sample = await sampleOnce(contender)
    warmed?.(contender, sample)
  }
  for (let run = 0; run < runs; run++) {
    for (const contender of contenders) samples.get(contender.name)!.push(await sampleOnce(contender))
  }
  return samples
}

/**
 * Waits (up to a minute) until the machine is idle: the case before may leave the hub or its
 * commands busy for a while (5,000 profiles created, a thousand processes reaped), and a case that
 * starts then measures the previous one's tail, not itself. Both sides of a ratio are hit, but not
 * alike: on 2 cores the side with more processes loses more.
 */
export async function settle(name: string): Promise<void> {
  const idleShare = async () => {
    const sample = async () =>
      (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.split(/\s+/).slice(1).map(Number)
    const before = await sample()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const delta = (await sample()).map((value, index) => value - before[index]!)
    const total = delta.reduce((sum, value) => sum + value, 0)
    // idle and iowait
    return total === 0 ? 1 : (delta[3]! + delta[4]!) / total
  }
  const deadline = Date.now() + 60_000
  let idle = await idleShare()
  while (idle < SETTLED_IDLE_SHARE && Date.now() < deadline) idle = await idleShare()
  if (idle < SETTLED_IDLE_SHARE)
    console.log(`# ${name}: the machine was still ${Math.round((1 - idle) * 100)}% busy after a minute`)
}

const SETTLED_IDLE_SHARE = 0.9
