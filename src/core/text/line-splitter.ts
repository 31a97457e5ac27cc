// Splits a command's output into lines for the prefixed fan-out stream, the logs and the reports.
// The lines are the command's bytes, never decoded: a stream that is not UTF-8 (a binary, a file in
// Latin-1) reaches a file or a pipe as it was written. readline keeps a line in memory until its
// newline comes, however long it grows; a target that prints megabytes without a newline (a binary,
// a minified JSON) would hold them all. Here a line is cut every `maxLength` bytes (a little sooner
// when that would split a UTF-8 character), so each target costs a bounded amount of memory. Each
// piece says whether a newline ended it, so a reader that wants the stream exactly (a target's
// stdout file) can put the cut pieces back together.

export const MAX_LINE_LENGTH = 64 * 1024

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

export class LineSplitter {
  private pending: Buffer = Buffer.alloc(0)

  constructor(
    /**
     * A line without its newline (a `\r` before it is kept: it is the command's); `newline` is false
     * for a piece cut off a longer line, and for a last line without a newline.
     */
    private readonly onLine: (line: Buffer, newline: boolean) => void,
    private readonly maxLength = MAX_LINE_LENGTH,
  ) {
    if (!Number.isInteger(maxLength) || maxLength < 1) {
      throw new RangeError(`a line splitter needs a positive whole number of bytes, got ${maxLength}`)
    }
  }

  /** A chunk of output as it was read. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let start = 0
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
      const piece = bytes.subarray(start, newline)
      const line = this.pending.length ? Buffer.concat([this.pending, piece]) : piece
      this.pending = Buffer.alloc(0)
      this.emit(line, true)
      start = newline + 1
    }
    if (start < bytes.length) {
      const rest = bytes.subarray(start)
      // Copied: the reader's chunk is not held for the sake of a few bytes of it.
      this.pending = this.pending.length ? Buffer.concat([this.pending, rest]) : Buffer.from(rest)
    }
    while (this.pending.length > this.maxLength) {
      const cut = characterBoundary(this.pending, this.maxLength)
      this.onLine(this.pending.subarray(0, cut), false)
      this.pending = this.pending.subarray(cut)
    }
  }

  /** The output ended: a last line without a newline is a line too. */
  end(): void {
    if (this.pending.length) this.emit(this.pending, false)
    this.pending = Buffer.alloc(0)
  }

  private emit(line: Buffer, newline: boolean): void {
    let rest = line
    while (rest.length > this.maxLength) {
      const cut = characterBoundary(rest, this.maxLength)
      this.onLine(rest.subarray(0, cut), false)
      rest = rest.subarray(cut)
    }
    this.onLine(rest, newline)
  }
}

/**
 * Where to cut `bytes` (longer than `at`) at most `at` bytes in: at `at`, or just before the UTF-8
 * character that would be split there. Bytes that are not UTF-8 are cut at `at`.
 */
export function characterBoundary(bytes: Uint8Array, at: number): number {
  if (at >= bytes.length) return bytes.length
  let start = at
  // Back over continuation bytes (10xxxxxx) to the byte that began the character, at most three.
  while (start > 0 && at - start < 3 && (bytes[start]! & 0xc0) === 0x80) start--
  const lead = bytes[start]!
  const isLead = lead >= 0xc0 && lead < 0xf8
  // Never an empty piece: a cut at 0 would hand on nothing and never end.
  return start < at && start > 0 && isLead ? start : at
}

/** A line as text for a person (a report's last lines): UTF-8, a `\r` before its newline left out. */
export function lineText(line: Uint8Array): string {
  const end = line.length && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length
  return Buffer.from(line.buffer, line.byteOffset, end).toString('utf8')
}
