// Real plugins as users have them: shell wrappers whose children hang, ignore SIGTERM, or escape.
import {chmod, readFile, writeFile} from 'node:fs/promises'
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'

/** Writes an executable `#!/bin/sh` script and returns its path. */
export async function shellScript(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, `#!/bin/sh\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

/** A process that is gone or only a zombie waiting for a reaper (PID 1 here may never reap it). */
export function isAlive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`
  if (!existsSync(stat)) return false
  try {
    // The state follows the command name in parentheses: "123 (sleep) S ...".
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/**
 * The complete lines a script wrote to `file`, once it has written `count` of them. A shell's `>`
 * creates the file before it writes, so the file existing says nothing about what is in it yet.
 */
export async function waitForLines(file: string, count = 1, timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = existsSync(file) ? await readFile(file, 'utf8') : ''
    const lines = text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
    if (lines.length >= count) return lines
    if (Date.now() > deadline) throw new Error(`no ${count} line(s) in ${file} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The pids a script wrote to `file`, one per line, once it has written `count` of them. */
export async function waitForPids(file: string, count = 1, timeoutMs = 10_000): Promise<number[]> {
  return (await waitForLines(file, count, timeoutMs)).map(Number)
}

/** Waits until none of `pids` is alive (a stopped group may take a moment to be reaped). */
export async function waitGone(pids: number[], timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return true
}

/** What each cpcred run given `nodeOptions` says of itself as it exits, a line per run; the last run's line. */
interface ExitProbe {
  nodeOptions: string
  last(): Promise<string | undefined>
}

/**
 * A preload (in `dir`, named `name`) that appends, as the process exits, the line the JavaScript
 * expression `line` gives.
 */
async function exitProbe(dir: string, name: string, line: string): Promise<ExitProbe> {
  const probe = path.join(dir, `${name}.cjs`)
  const lines = path.join(dir, name)
  await writeFile(
    probe,
    `process.on('exit', () => require('fs').appendFileSync(${JSON.stringify(lines)}, (${line}) + '\\n'))`,
  )
  return {
    nodeOptions: `--require ${probe}`,
    last: async () => (await readFile(lines, 'utf8')).split('\n').at(-2),
  }
}

/**
 * Tells, for each cpcred run given `nodeOptions`, whether it loaded its full bundle (`full`) or was
 * answered before (`answer`).
 */
export function bundleProbe(dir: string, bundle: 'fast-path.cjs' | 'exec.cjs'): Promise<ExitProbe> {
  return exitProbe(
    dir,
    'bundle-probe',
    `Object.keys(require.cache).some((f) => f.endsWith('/${bundle}')) ? 'full' : 'answer'`,
  )
}

/**
 * The Node internals each cpcred run given `nodeOptions` loaded whose id contains `needle`
 * (process.moduleLoadList), space-separated: what a run should never load.
 */
export function internalsProbe(dir: string, needle: string): Promise<ExitProbe> {
  return exitProbe(
    dir,
    'internals-probe',
    `process.moduleLoadList.filter((id) => id.includes(${JSON.stringify(needle)})).join(' ')`,
  )
}
