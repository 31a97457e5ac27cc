// The command `cpcred exec` runs for the user: with the terminal for one target, or with its
// output prefixed line by line for many. Signals sent to cpcred reach the command.
import type {Readable, Writable} from 'node:stream'
import {LineSplitter} from '../core/text/line-splitter.js'
import {exitStatus, startProcess} from './process-group.js'

export interface ChildRequest {
  command: string
  args: string[]
  /** Added to cpcred's own environment. */
  env: Record<string, string>
}

export interface ChildResult {
  /**
   * The exit code, or 128+n when the command died of signal n, or as a shell reports a command it
   * cannot start: 127 when there is no such command, 126 when it cannot be run (not executable).
   */
  exitCode: number
  signal?: string
  notFound: boolean
  /** Why the command could not start, in the shell's words ("command not found", "Permission denied"). */
  startError?: string
}

/** What bash says when it cannot run a program, by errno; it exits 126 for all of them. */
const SHELL_WORDS: Record<string, string> = {
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ENOEXEC: 'cannot execute binary file: Exec format error',
  E2BIG: "Argument list too long (its arguments and environment exceed the operating system's limit)",
  ENOTDIR: 'Not a directory',
}

/** The shell's status and words for a command that could not be started. */
export function startFailure(error: NodeJS.ErrnoException): {exitCode: number; reason: string} {
  if (error.code === 'ENOENT') return {exitCode: 127, reason: 'command not found'}
  return {exitCode: 126, reason: (error.code && SHELL_WORDS[error.code]) ?? error.code ?? error.message}
}

export interface RunningChild {
  result: Promise<ChildResult>
  /** Passes a signal on (to the command's whole process group when it has one). */
  kill(signal: NodeJS.Signals): void
  /** Ends it: SIGTERM, then SIGKILL after a grace (--fail-fast). */
  stop(): void
}

export type OnLine = (stream: 'stdout' | 'stderr', line: string) => void

/** A fan-out target's stdin: a descriptor to hand over, or a pipe that is fed once the child runs. */
export interface ChildStdin {
  stdio: number | 'pipe'
  /** The child has been started; `stdin` is its pipe (null when it was given a descriptor). */
  started(stdin: Writable | null): void
}

export interface ChildRunner {
  /**
   * stdio inherited: the command owns the terminal and stays in its foreground process group,
   * unless `ownGroup` (--timeout), so that stopping it stops what it started too, as timeout(1) does.
   */
  inherited(request: ChildRequest, options?: {ownGroup?: boolean}): RunningChild
  /**
   * stdin from `stdin` or else /dev/null; each line of stdout and stderr handed to `onLine`, or both
   * sent to /dev/null without one (nobody reads them). The command gets a process group of its own,
   * so stopping it stops what it started too.
   */
  prefixed(request: ChildRequest, onLine?: OnLine, stdin?: ChildStdin): RunningChild
}

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']

// node:child_process rather than execa here: execa takes about 80 ms to load, paid on every
// `cpcred exec` right before the user's command starts, and this needs none of its features.
export const nodeChildRunner: ChildRunner = {
  inherited: (request, options) => start(request, 'inherit', options?.ownGroup ?? false),
  prefixed(request, onLine, stdin) {
    const output = onLine ? 'pipe' : 'ignore'
    const running = start(request, [stdin?.stdio ?? 'ignore', output, output], true, onLine)
    stdin?.started(running.stdin)
    return running
  },
}

// Copied once: a fan-out over a thousand targets would otherwise copy the environment a thousand times.
let baseEnv: NodeJS.ProcessEnv | undefined

function start(
  request: ChildRequest,
  stdio: 'inherit' | ['ignore' | 'pipe' | number, 'pipe' | 'ignore', 'pipe' | 'ignore'],
  ownGroup: boolean,
  onLine?: OnLine,
): RunningChild & {stdin: Writable | null} {
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
  const result = group.ended.then(async (exit): Promise<ChildResult> => {
    await Promise.all(lines)
    const failed = exit.spawnError && startFailure(exit.spawnError)
    return {
      exitCode: failed ? failed.exitCode : exitStatus(exit),
      signal: exit.signal ?? undefined,
      notFound: exit.spawnError?.code === 'ENOENT',
      ...(failed ? {startError: failed.reason} : {}),
    }
  })
  return {result, kill: (signal) => group.signal(signal), stop: () => group.stop(), stdin: group.child.stdin}
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
