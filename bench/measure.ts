// Wall-clock and peak-RSS measurement of whole commands, alternated so that machine noise hits
// every contender alike. Ratios, not absolute times, are the budget.
import {spawn} from 'node:child_process'
import {closeSync, openSync} from 'node:fs'

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
