// The command `cpcred exec` runs for the user: with the terminal for one target, or with its
// output prefixed line by line for many. Signals sent to cpcred reach the command.
import type {Readable} from 'node:stream'
import {LineSplitter} from '../core/line-splitter.js'
import {exitStatus, startProcess} from './process-group.js'

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
  /** Why the command could not be started otherwise (EACCES, E2BIG…), in words. */
  startError?: string
}

export interface RunningChild {
  result: Promise<ChildResult>
  /** Passes a signal on (to the command's whole process group when it has one). */
  kill(signal: NodeJS.Signals): void
  /** Ends it: SIGTERM, then SIGKILL after a grace (--fail-fast). */
  stop(): void
}

export type OnLine = (stream: 'stdout' | 'stderr', line: string) => void

export interface ChildRunner {
  /**
   * stdio inherited: the command owns the terminal and stays in its foreground process group,
   * unless `ownGroup` (--timeout), so that stopping it stops what it started too, as timeout(1) does.
   */
  inherited(request: ChildRequest, options?: {ownGroup?: boolean}): RunningChild
  /**
   * stdin closed; each line of stdout and stderr handed to `onLine`, or both sent to /dev/null
   * without one (nobody reads them). The command gets a process group of its own, so stopping it
   * stops what it started too.
   */
  prefixed(request: ChildRequest, onLine?: OnLine): RunningChild
}

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']

// node:child_process rather than execa here: execa takes about 80 ms to load, paid on every
// `cpcred exec` right before the user's command starts, and this needs none of its features.
export const nodeChildRunner: ChildRunner = {
  inherited: (request, options) => start(request, 'inherit', options?.ownGroup ?? false),
  prefixed: (request, onLine) => start(request, onLine ? ['ignore', 'pipe', 'pipe'] : 'ignore', true, onLine),
}

// Copied once: a fan-out over a thousand targets would otherwise copy the environment a thousand times.
let baseEnv: NodeJS.ProcessEnv | undefined

function start(
  request: ChildRequest,
  stdio: 'inherit' | 'ignore' | ['ignore', 'pipe', 'pipe'],
  ownGroup: boolean,
  onLine?: OnLine,
): RunningChild {
  baseEnv ??= {...process.env}
  const group = startProcess(request.command, request.args, {
    env: {...baseEnv, ...request.env},
    stdio,
    ownGroup,
  })
  const lines: Promise<void>[] = []
  if (onLine) {
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = group.child[name]
      if (stream) lines.push(eachLine(stream, (line) => onLine(name, line)))
    }
  }
  const result = group.ended.then(async (exit) => {
    await Promise.all(lines)
    return {
      exitCode: exit.spawnError ? 127 : exitStatus(exit),
      signal: exit.signal ?? undefined,
      notFound: exit.spawnError?.code === 'ENOENT',
      ...(exit.spawnError && exit.spawnError.code !== 'ENOENT'
        ? {startError: startFailure(exit.spawnError)}
        : {}),
    }
  })
  return {result, kill: (signal) => group.signal(signal), stop: () => group.stop()}
}

function eachLine(stream: Readable, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const splitter = new LineSplitter(onLine)
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => splitter.push(chunk))
    // A stream given up on (held open by something the command left behind) ends without 'end'.
    stream.once('close', () => {
      splitter.end()
      resolve()
    })
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

const START_FAILURES: Record<string, string> = {
  EACCES: 'permission denied (is it executable?)',
  E2BIG: "its arguments and environment exceed the operating system's limit (E2BIG)",
  ENOEXEC: 'it is not a program this system can run',
  ENOTDIR: 'a part of its path is not a directory',
}

function startFailure(error: NodeJS.ErrnoException): string {
  return (error.code && START_FAILURES[error.code]) ?? error.code ?? error.message
}
