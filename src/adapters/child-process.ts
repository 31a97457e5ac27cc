// The command `cpcred exec` runs for the user (execa): with the terminal for one target, or with
// its output prefixed line by line for many. Signals sent to cpcred reach the command.
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
const SIGNAL_NUMBERS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGKILL: 9,
  SIGPIPE: 13,
  SIGTERM: 15,
}

export const execaChildRunner: ChildRunner = {
  inherited: (request) => start(request, 'inherit'),
  prefixed: (request, onLine) => start(request, 'pipe', onLine),
}

function start(
  request: ChildRequest,
  stdio: 'inherit' | 'pipe',
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void,
): RunningChild {
  // A signal that arrives while execa is still loading is delivered once the command has started.
  let pending: NodeJS.Signals | undefined
  let kill: (signal?: NodeJS.Signals) => void = (signal = 'SIGTERM') => void (pending = signal)
  const result = (async (): Promise<ChildResult> => {
    const {execa} = await import('execa')
    const subprocess = execa(request.command, request.args, {
      env: request.env,
      extendEnv: true,
      stdin: stdio === 'inherit' ? 'inherit' : 'ignore',
      stdout: stdio,
      stderr: stdio,
      reject: false,
      buffer: false,
      // Forwarded signals are the user's to act on; never escalate to SIGKILL behind their back.
      forceKillAfterDelay: false,
    })
    kill = (signal = 'SIGTERM') => void subprocess.kill(signal)
    if (pending) subprocess.kill(pending)
    const lines: Promise<void>[] = []
    if (onLine) {
      for (const [name, stream] of [
        ['stdout', subprocess.stdout],
        ['stderr', subprocess.stderr],
      ] as const) {
        if (stream) lines.push(eachLine(stream, (line) => onLine(name, line)))
      }
    }
    const outcome = await subprocess
    await Promise.all(lines)
    const signal = outcome.signal ?? undefined
    return {
      exitCode: signal
        ? 128 + (SIGNAL_NUMBERS[signal] ?? 0)
        : typeof outcome.exitCode === 'number'
          ? outcome.exitCode
          : 1,
      signal,
      notFound: outcome.code === 'ENOENT',
    }
  })()
  return {result, kill: (signal) => kill(signal)}
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
