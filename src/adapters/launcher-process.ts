// The launcher: a small Node process that starts a fan-out's commands for cpcred and reports back
// (protocol in launcher-protocol.ts; cpcred's side is target-launcher.ts). Each command is started
// exactly as cpcred would start it (process-group.ts), in a process group of its own.
//
// It obeys cpcred only. The ^C typed at the terminal reaches it too (it shares cpcred's group), and
// is ignored here: cpcred passes signals on to the commands itself. When cpcred is gone (the IPC
// channel closes, even after a kill -9), the commands still running are stopped, then it exits.
import {closeSync, constants, openSync} from 'node:fs'
import type {Writable} from 'node:stream'
import {LineSplitter} from '../core/text/line-splitter.js'
import {FORWARDED_SIGNALS, onSignals} from './interrupts.js'
import type {FromLauncher, LaunchExit, LaunchStdin, ToLauncher} from './launcher-protocol.js'
import {startProcess, type GroupProcess} from './process-group.js'

interface Running {
  group: GroupProcess
  stdin: Writable | null
}

const running = new Map<number, Running>()
// cpcred may be gone between the check and the write (EPIPE): with a callback that is no error.
const send = (message: FromLauncher) => {
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined)
}

onSignals(FORWARDED_SIGNALS, () => undefined)

process.on('message', (message: ToLauncher) => {
  if (message.kind === 'start') return start(message)
  const target = running.get(message.id)
  if (!target) return
  switch (message.kind) {
    case 'signal':
      return target.group.signal(message.signal)
    case 'stop':
      return target.group.stop()
    case 'stdin':
      if (!target.stdin?.writable) return send({kind: 'stdin-written', id: message.id})
      target.stdin.write(message.chunk, () => send({kind: 'stdin-written', id: message.id}))
      return
    case 'stdin-end':
      return void target.stdin?.end()
    case 'stdin-destroy':
      return void target.stdin?.destroy()
  }
})

// Nothing else holds the launcher: it exits once the commands it stopped have ended.
process.on('disconnect', () => {
  for (const {group} of running.values()) group.stop()
})

function start(request: Extract<ToLauncher, {kind: 'start'}>): void {
  const {id} = request
  let stdinFile: number | undefined
  try {
    stdinFile = openStdin(request.stdin)
  } catch (error) {
    // Not the command's fault: without a code, startFailure does not take it for a missing program.
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    send({
      kind: 'ended',
      id,
      exit: {code: null, signal: null, spawnError: {message: `its copy of stdin: ${why}`}},
    })
    return
  }
  const output = request.lines ? 'pipe' : 'ignore'
  const group = startProcess(request.command, request.args, {
    env: {...baseEnv(), ...request.env},
    stdio: [stdinFile ?? (request.stdin === 'pipe' ? 'pipe' : 'ignore'), output, output],
    ownGroup: true,
  })
  if (stdinFile !== undefined) closeSync(stdinFile)
  const stdin = group.child.stdin
  if (stdin) {
    // The command may exit, or close its stdin, without reading all of it: not an error.
    const closed = () => send({kind: 'stdin-closed', id})
    stdin.on('error', closed)
    stdin.once('close', closed)
  }
  running.set(id, {group, stdin})
  const streams: Promise<void>[] = []
  if (request.lines) {
    for (const stream of ['stdout', 'stderr'] as const) {
      const readable = group.child[stream]
      if (readable)
        streams.push(
          eachChunkOfLines(readable, (data, ends, open) =>
            send(
              open.length
                ? {kind: 'lines', id, stream, data, ends, open}
                : {kind: 'lines', id, stream, data, ends},
            ),
          ),
        )
    }
  }
  void group.ended.then(async (exit) => {
    await Promise.all(streams)
    running.delete(id)
    const ended: LaunchExit = {code: exit.code, signal: exit.signal}
    if (exit.spawnError) ended.spawnError = {code: exit.spawnError.code, message: exit.spawnError.message}
    send({kind: 'ended', id, exit: ended})
  })
}

/** A copy of the whole spooled input is the file itself, read from its start, never through a link. */
function openStdin(stdin: LaunchStdin): number | undefined {
  return typeof stdin === 'object'
    ? openSync(stdin.file, constants.O_RDONLY | constants.O_NOFOLLOW)
    : undefined
}

// Copied once: a fan-out over a thousand targets would otherwise copy the environment a thousand times.
let env: NodeJS.ProcessEnv | undefined
const baseEnv = () => (env ??= {...process.env})

/**
 * The lines of each chunk of output, together: one message per chunk rather than per line, their
 * bytes in one buffer (the stream is never decoded) with where each line ends. One buffer rather than
 * one per line: the IPC channel's serializer took five times as long for a buffer a line.
 */
function eachChunkOfLines(
  stream: NodeJS.ReadableStream,
  onLines: (data: Buffer, ends: number[], open: number[]) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let lines: Buffer[] = []
    let ends: number[] = []
    let open: number[] = []
    let size = 0
    const splitter = new LineSplitter((line, newline) => {
      if (!newline) open.push(lines.length)
      lines.push(line)
      ends.push((size += line.length))
    })
    const flush = () => {
      if (lines.length === 0) return
      onLines(Buffer.concat(lines, size), ends, open)
      lines = []
      ends = []
      open = []
      size = 0
    }
    stream.on('data', (chunk: Buffer) => {
      splitter.push(chunk)
      flush()
    })
    // A stream given up on (held open by something the command left behind) ends without 'end'.
    stream.once('close', () => {
      splitter.end()
      flush()
      resolve()
    })
  })
}
