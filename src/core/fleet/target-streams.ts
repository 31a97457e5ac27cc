// Each target's stdout and stderr apart, for `exec -o json|yaml|jsonl` and `--report json`: a CI job
// parses one target's output (kubectl's `-o json`) without the other stream mixed in. A remote
// command can print without end, so each stream keeps only its first `capBytes` and says when it
// dropped the rest. The bytes are kept as the command wrote them; a record carries them as text,
// and as base64 as well when they are not UTF-8 (streamFields).
import {isUtf8} from 'node:buffer'
import {characterBoundary} from '../text/line-splitter.js'

/** Per stream, when the whole fleet's records are held until the end (-o json|yaml, --report json). */
export const HELD_CAP_BYTES = 64 * 1024
/** Per stream, when each record is printed as its target ends (-o jsonl): only `parallel` are held. */
export const STREAMED_CAP_BYTES = 1024 * 1024

const NEWLINE = new Uint8Array([0x0a])

/** The start of one stream, at most `capBytes` of it, exactly as the command wrote it. */
export class StreamCapture {
  private data = Buffer.alloc(0)
  private size = 0
  private full = false

  constructor(readonly capBytes: number) {
    if (!Number.isInteger(capBytes) || capBytes < 1) {
      throw new RangeError(`a stream capture needs a positive whole number of bytes, got ${capBytes}`)
    }
  }

  /** One output line without its newline; `newline` false when none ended it (see LineSplitter). */
  push(line: Uint8Array, newline = true): void {
    if (this.full) return
    if (this.size + line.length + (newline ? 1 : 0) <= this.capBytes) {
      this.append(line)
      if (newline) this.append(NEWLINE)
      return
    }
    this.full = true
    const whole = newline ? Buffer.concat([line, NEWLINE]) : line
    const room = this.capBytes - this.size
    // Cut at a character's boundary, so that text that is UTF-8 stays UTF-8.
    if (room > 0) this.append(whole.subarray(0, characterBoundary(whole, room)))
  }

  get truncated(): boolean {
    return this.full
  }

  /** What was kept (a view of it: copy it to keep it past further pushes). */
  bytes(): Buffer {
    return this.data.subarray(0, this.size)
  }

  /** The kept bytes as text: UTF-8, any sequence that is not UTF-8 as U+FFFD. */
  text(): string {
    return this.bytes().toString('utf8')
  }

  /** Grows by doubling, never past the cap: a few lines cost a few bytes, a full capture its cap. */
  private append(bytes: Uint8Array): void {
    const needed = this.size + bytes.length
    if (needed > this.data.length) {
      const grown = Buffer.alloc(Math.min(this.capBytes, Math.max(needed, this.data.length * 2, 256)))
      this.data.copy(grown, 0, 0, this.size)
      this.data = grown
    }
    this.data.set(bytes, this.size)
    this.size = needed
  }
}

export interface TargetStreams {
  stdout: StreamCapture
  stderr: StreamCapture
}

export function targetStreams(capBytes: number): TargetStreams {
  return {stdout: new StreamCapture(capBytes), stderr: new StreamCapture(capBytes)}
}

export interface StreamFields {
  stdout: string
  /** Set only when stdout is not valid UTF-8: its exact bytes (`stdout` has U+FFFD in their place). */
  stdoutBase64?: string
  stderr: string
  stderrBase64?: string
  stdoutTruncated?: true
  stderrTruncated?: true
  outputCapBytes?: number
}

/**
 * The fields a record carries for a target's output: `stdout` and `stderr` (empty when it never ran),
 * each with `stdoutBase64`/`stderrBase64` beside it when its bytes are not UTF-8 (the text cannot
 * carry them: JSON and YAML strings are Unicode), and `stdoutTruncated`/`stderrTruncated` with
 * `outputCapBytes` when a stream was cut at the cap.
 */
export function streamFields(streams: TargetStreams | undefined): StreamFields {
  if (!streams) return {stdout: '', stderr: ''}
  const {stdout, stderr} = streams
  const out = encoded(stdout)
  const err = encoded(stderr)
  return {
    stdout: out.text,
    ...(out.base64 === undefined ? {} : {stdoutBase64: out.base64}),
    stderr: err.text,
    ...(err.base64 === undefined ? {} : {stderrBase64: err.base64}),
    ...(stdout.truncated ? {stdoutTruncated: true} : {}),
    ...(stderr.truncated ? {stderrTruncated: true} : {}),
    ...(stdout.truncated || stderr.truncated ? {outputCapBytes: stdout.capBytes} : {}),
  }
}

/** A stream as text, and as base64 too when its bytes are not UTF-8. */
function encoded(capture: StreamCapture): {text: string; base64?: string} {
  const bytes = capture.bytes()
  const text = bytes.toString('utf8')
  return isUtf8(bytes) ? {text} : {text, base64: bytes.toString('base64')}
}
