// The command `cpcred exec` runs for the user: with the terminal for one target, or with its
// output prefixed line by line for many. Signals sent to cpcred reach the command.
import {spawn} from 'node:child_process'
import os from 'node:os'
import {createInterface} from 'node:readline'
import type {Readable} from 'node:stream'

export interface ChildRequest {
  command: string
  args: string[]
  /** Added to cpcred's own environment. */
  env: Record<string, string>
}

export interface ChildResult {
  /** The exit code, or 128+n when the command died of signal n (as a shell reports it). */
  exitCode: number
  signal?: string
  notFound: boolean
}

export interface RunningChild {
  result: Promise<ChildResult>
  kill(signal?: NodeJS.Signals): void
}

export interface ChildRunner {
  /** stdio inherited: the command owns the terminal. */
  inherited(request: ChildRequest): RunningChild
  /** stdin closed; each line of stdout and stderr handed to `onLine`. */
  prefixed(request: ChildRequest, onLine: (stream: 'stdout' | 'stderr', line: string) => void): RunningChild
}

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']

// node:child_process rather than execa here: execa takes about 80 ms to load, paid on every
// `cpcred exec` right before the user's command starts, and this needs none of its features.
export const nodeChildRunner: ChildRunner = {
  inherited: (request) => start(request, 'inherit'),
  prefixed: (request, onLine) => start(request, 'pipe', onLine),
}

function start(
  request: ChildRequest,
  stdio: 'inherit' | 'pipe',
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void,
): RunningChild {
  const child = spawn(request.command, request.args, {
    env: {...process.env, ...request.env},
    stdio: [stdio === 'inherit' ? 'inherit' : 'ignore', stdio, stdio],
  })
  const lines: Promise<void>[] = []
  if (onLine) {
    for (const [name, stream] of [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ] as const) {
      if (stream) lines.push(eachLine(stream, (line) => onLine(name, line)))
    }
  }
  const result = new Promise<ChildResult>((resolve) => {
    let notFound = false
    child.on('error', (error: NodeJS.ErrnoException) => {
      notFound = error.code === 'ENOENT'
      if (child.exitCode === null && child.pid === undefined) resolve({exitCode: 127, notFound})
    })
    child.on('close', async (code, signal) => {
      await Promise.all(lines)
      resolve({
        exitCode: signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1),
        signal: signal ?? undefined,
        notFound,
      })
    })
  })
  return {
    result,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    },
  }
}

function eachLine(stream: Readable, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const reader = createInterface({input: stream, crlfDelay: Infinity})
    reader.on('line', onLine)
    reader.on('close', resolve)
  })
}

/**
 * While `action` runs, signals sent to cpcred go to `forward` instead of ending cpcred, so cleanup
 * (the temporary kubeconfig) happens after the command has ended, whatever ended it.
 */
export async function forwardingSignals<T>(
  forward: (signal: NodeJS.Signals) => void,
  action: () => Promise<T>,
): Promise<T> {
  const handlers = FORWARDED_SIGNALS.map((signal) => {
    const handler = () => forward(signal)
    process.on(signal, handler)
    return [signal, handler] as const
  })
  try {
    return await action()
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler)
  }
}
