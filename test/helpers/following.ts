// A cpcred that runs until interrupted (sync --watch, list --watch), and waiting for what it does.
import {spawn, type ChildProcess} from 'node:child_process'
import {cpcredBin, isolatedEnv} from './env.js'

/** A child cpcred whose stderr lines are collected, for the commands that run until interrupted. */
export function follow(
  args: string[],
  env: NodeJS.ProcessEnv,
): {child: ChildProcess; stdout: () => string; stderr: () => string; stop: () => Promise<number | null>} {
  const child = spawn(process.execPath, [cpcredBin, ...args], {
    env: {...isolatedEnv, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT')
      return exited
    },
  }
}

export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
