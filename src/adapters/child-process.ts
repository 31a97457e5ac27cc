// The command `cpcred exec` runs for the user: with the terminal for one target, or with its
// output prefixed line by line for many. Signals sent to cpcred reach the command.
import type {Readable, Writable} from 'node:stream'
import type {ChildRequest, ChildResult, ChildRunner, OnLine, RunningChild} from '../usecases/ports.js'
import {LineSplitter} from '../core/text/line-splitter.js'
import {exitStatus, startProcess} from './process-group.js'

export type {
  ChildRequest,
  ChildResult,
  ChildRunner,
  ChildStdin,
  OnLine,
  RunningChild,
} from '../usecases/ports.js'
export {forwardingSignals} from './interrupts.js'

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
