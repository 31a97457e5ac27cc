// Writing to stdout or stderr without creating process.stdout/stderr. Node creates those on first
// touch: a stream each, and for a pipe (kubectl reading `cpcred credential`) the net module, about
// 8 ms of a warm run on the reference machine.
import {writeSync} from 'node:fs'

/**
 * Writes whole texts to fd 1 or 2. A non-blocking descriptor that is full (EAGAIN: a parent shared a
 * non-blocking pipe) hands the rest, and everything after it, to Node's stream, which waits and keeps
 * the order. A reader that has gone (EPIPE: `cpcred list | head`) ends the output quietly, as it ends
 * kubectl's.
 */
export function descriptorWriter(fd: 1 | 2): (text: string) => void {
  let stream: NodeJS.WriteStream | undefined
  let closed = false
  return (text) => {
    if (closed) return
    if (stream) {
      stream.write(text)
      return
    }
    const data = Buffer.from(text)
    let offset = 0
    try {
      while (offset < data.length) offset += writeSync(fd, data, offset)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EPIPE') {
        closed = true
        return
      }
      if (code !== 'EAGAIN') throw error
      stream = fd === 1 ? process.stdout : process.stderr
      stream.on('error', (streamError: NodeJS.ErrnoException) => {
        if (streamError.code !== 'EPIPE') throw streamError
        closed = true
      })
      stream.write(data.subarray(offset))
    }
  }
}
