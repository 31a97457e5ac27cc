// Each target's stdout and stderr apart, for `exec -o json|yaml|jsonl` and `--report json`: a CI job
// parses one target's output (kubectl's `-o json`) without the other stream mixed in. A remote
// command can print without end, so each stream keeps only its first `capBytes` (UTF-8) and says
// when it dropped the rest.

/** Per stream, when the whole fleet's records are held until the end (-o json|yaml, --report json). */
export const HELD_CAP_BYTES = 64 * 1024
/** Per stream, when each record is printed as its target ends (-o jsonl): only `parallel` are held. */
export const STREAMED_CAP_BYTES = 1024 * 1024

/** The start of one stream, at most `capBytes` of it, as the command wrote it (a CR before \n dropped). */
export class StreamCapture {
  private readonly parts: string[] = []
  private bytes = 0
  private full = false

  constructor(readonly capBytes: number) {
    if (!Number.isInteger(capBytes) || capBytes < 1) {
      throw new RangeError(`a stream capture needs a positive whole number of bytes, got ${capBytes}`)
    }
  }

  /** One output line without its newline; `newline` false when none ended it (see LineSplitter). */
  push(line: string, newline = true): void {
    if (this.full) return
    const text = newline ? `${line}\n` : line
    const size = Buffer.byteLength(text)
    if (this.bytes + size <= this.capBytes) {
      this.parts.push(text)
      this.bytes += size
      return
    }
    this.full = true
    const room = this.capBytes - this.bytes
    if (room <= 0) return
    // Cut at a character's boundary: a partial UTF-8 sequence decodes to U+FFFD, which is left out.
    const cut = new TextDecoder().decode(Buffer.from(text).subarray(0, room)).replace(/\uFFFD$/, '')
    this.parts.push(cut)
    this.bytes += Buffer.byteLength(cut)
  }

  get truncated(): boolean {
    return this.full
  }

  text(): string {
    return this.parts.join('')
  }
}

export interface TargetStreams {
  stdout: StreamCapture
  stderr: StreamCapture
}

export function targetStreams(capBytes: number): TargetStreams {
  return {stdout: new StreamCapture(capBytes), stderr: new StreamCapture(capBytes)}
}

/**
 * The fields a record carries for a target's output: `stdout` and `stderr` (empty when it never ran),
 * and `stdoutTruncated`/`stderrTruncated` with `outputCapBytes` when a stream was cut at the cap.
 */
export function streamFields(streams: TargetStreams | undefined): {
  stdout: string
  stderr: string
  stdoutTruncated?: true
  stderrTruncated?: true
  outputCapBytes?: number
} {
  if (!streams) return {stdout: '', stderr: ''}
  const {stdout, stderr} = streams
  return {
    stdout: stdout.text(),
    stderr: stderr.text(),
    ...(stdout.truncated ? {stdoutTruncated: true} : {}),
    ...(stderr.truncated ? {stderrTruncated: true} : {}),
    ...(stdout.truncated || stderr.truncated ? {outputCapBytes: stdout.capBytes} : {}),
  }
}
