// Splits a command's output into lines for the prefixed fan-out stream, the logs and the reports.
// readline keeps a line in memory until its newline comes, however long it grows; a target that
// prints megabytes without a newline (a binary, a minified JSON) would hold them all. Here a line
// is cut every `maxLength` characters, so each target costs a bounded amount of memory. Each piece
// says whether a newline ended it, so a reader that wants the stream exactly (a target's stdout
// file) can put the cut pieces back together.

export const MAX_LINE_LENGTH = 64 * 1024

export class LineSplitter {
  private pending = ''

  constructor(
    /** `newline` is false for a piece cut off a longer line, and for a last line without a newline. */
    private readonly onLine: (line: string, newline: boolean) => void,
    private readonly maxLength = MAX_LINE_LENGTH,
  ) {}

  /** A decoded chunk of output (see Readable.setEncoding: multi-byte characters are never split). */
  push(chunk: string): void {
    let start = 0
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      const line = this.pending + chunk.slice(start, newline)
      this.pending = ''
      this.emit(line.endsWith('\r') ? line.slice(0, -1) : line, true)
      start = newline + 1
    }
    this.pending += chunk.slice(start)
    while (this.pending.length > this.maxLength) {
      this.onLine(this.pending.slice(0, this.maxLength), false)
      this.pending = this.pending.slice(this.maxLength)
    }
  }

  /** The output ended: a last line without a newline is a line too. */
  end(): void {
    if (this.pending !== '') this.emit(this.pending, false)
    this.pending = ''
  }

  private emit(line: string, newline: boolean): void {
    let start = 0
    for (; line.length - start > this.maxLength; start += this.maxLength) {
      this.onLine(line.slice(start, start + this.maxLength), false)
    }
    this.onLine(line.slice(start), newline)
  }
}
