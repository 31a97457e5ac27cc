// The one way cpcred's bytes reach stdout and stderr. Every write is finished before it returns, so
// no exit path (a normal end, process.exit with a code, an error, a signal after the child ended) can
// leave output behind in a buffer. process.stdout/stderr are never created: Node creates them on
// first touch, a stream each and for a pipe the net module (about 8 ms of a warm `cpcred credential`),
// and a stream's pending writes are what process.exit throws away.
import {writeSync} from 'node:fs'

export type OutputFd = 1 | 2

export interface OutputSink {
  /** Writes all of `data` (text as UTF-8, bytes as they are), waiting while a slow reader keeps the pipe full. */
  write(data: string | Uint8Array): void
  /** The reader has gone (EPIPE): later writes are dropped quietly. */
  readonly closed: boolean
  /** Called once, when the reader goes away: long-running work (watch, fan-out) stops then. */
  onClosed(listener: () => void): void
}

// A pipe is non-blocking once any process sharing it (a Node parent, or this process creating
// process.stdout) has said so; writes then fail with EAGAIN while it is full. The wait between tries
// grows from 1 ms to 20 ms: a fast reader costs a millisecond, a stalled one a few wakeups a second.
const FIRST_WAIT_MS = 1
const LONGEST_WAIT_MS = 20
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms)

const sinks = new Map<OutputFd, OutputSink>()

/** The sink of fd 1 or 2, one per process so that a closed reader is seen by every writer. */
export function outputSink(fd: OutputFd): OutputSink {
  let sink = sinks.get(fd)
  if (!sink) sinks.set(fd, (sink = descriptorSink(fd, writeSync)))
  return sink
}

type WriteSync = (fd: number, data: Uint8Array, offset: number) => number

/** Exported for the unit tests, which hand it a writer that fails as a full or closed pipe does. */
export function descriptorSink(fd: number, write: WriteSync, wait: (ms: number) => void = sleep): OutputSink {
  let closed = false
  const listeners: Array<() => void> = []
  const close = () => {
    closed = true
    for (const listener of listeners.splice(0)) listener()
  }
  return {
    get closed() {
      return closed
    },
    onClosed(listener) {
      if (closed) listener()
      else listeners.push(listener)
    },
    write(text) {
      if (closed || text.length === 0) return
      const data = typeof text === 'string' ? Buffer.from(text) : text
      let offset = 0
      let waitMs = FIRST_WAIT_MS
      while (offset < data.length) {
        try {
          offset += write(fd, data, offset)
          waitMs = FIRST_WAIT_MS
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code
          if (code === 'EAGAIN') {
            wait(waitMs)
            waitMs = Math.min(waitMs * 2, LONGEST_WAIT_MS)
          } else if (code === 'EPIPE') {
            // `cpcred list | head`: the end of the output, not an error, as for kubectl.
            close()
            return
          } else throw error
        }
      }
    },
  }
}
