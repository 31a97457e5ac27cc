// The output boundary, as gh's IOStreams: every byte cpcred shows a person goes through here. It
// is the one place that asks whether stdin, stdout or stderr is a terminal (isTerminal; the rest of
// cpcred asks the printer), knows whether colour is allowed and whether a progress line is on
// screen, and it makes untrusted text printable (src/core/text/printable.ts) in exactly one place:
// renderers hand it plain strings and cells and never escape on their own. Exact data (-o json|yaml,
// kubeconfigs, ExecCredentials) bypasses the escaping through `data`.
import {fstatSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {ChalkInstance} from 'chalk'
import {formatCells, type Cells, type CellStyle} from '../core/text/format.js'
import {ASCII_GLYPHS, UNICODE_GLYPHS, unicodeTerminal, type Glyphs} from '../core/text/glyphs.js'
import {MAX_PRINTABLE_LENGTH, printable, printableLines, warningLine} from '../core/text/printable.js'
import {outputSink} from './output-sink.js'
import {controllingTerminalAvailable} from './prompt-terminal.js'

export type Stream = 'stdout' | 'stderr'

export interface Printer {
  /** stdout is a terminal (tables, colour); false when piped (stable, plain output). */
  readonly stdoutIsTTY: boolean
  /** stdin is a terminal: a plugin run with it may ask its user (interactiveMode IfAvailable). */
  readonly stdinIsTTY: boolean
  /**
   * A person can be asked: stdin is a terminal and so is the controlling terminal (/dev/tty), where
   * prompts are drawn (adapters/prompt-terminal.ts); stdout may be a pipe (`cpcred exec | tee log`).
   */
  readonly interactive: boolean
  /** The terminal shows UTF-8 (core/text/glyphs.ts): its locale says so and TERM is not dumb. */
  readonly unicode: boolean
  /** Check marks, pointers, ellipses: the UTF-8 ones, or ASCII where the terminal cannot show them. */
  readonly glyphs: Glyphs
  /** Colour on stdout: only on a terminal, never with NO_COLOR or TERM=dumb. */
  readonly colour: boolean
  /** Exact data on stdout (-o json|yaml|name, a kubeconfig, an ExecCredential): never altered. */
  data(text: string): void
  /** Human-readable text, each line made printable. */
  text(text: string, stream?: Stream): void
  /** Aligned cells (tables, describe): each cell made printable, then measured, then styled. */
  cells(cells: Cells, options?: {style?: CellStyle; stream?: Stream}): void
  /** A line for the person on stderr. */
  note(text: string): void
  warn(text: string): void
  /** The one way a failure is shown: `error: message`, then what to do. */
  error(message: string, hint?: string): void
  /**
   * A line behind a printable prefix (the profile of a fan-out target). By default the line is the
   * output of the user's own command and passes as it is, as `kubectl logs` passes a pod's: given as
   * bytes, they are written as they are, never decoded, on a terminal and in a pipe alike (as GNU
   * parallel's --tag); cpcred's messages (`printable: true`) are made printable like everything else.
   */
  prefixed(stream: Stream, prefix: string, line: string | Uint8Array, options?: PrefixedOptions): void
  /** A progress line on a stderr terminal, redrawn below whatever else is written; '' removes it. */
  status(text: string): void
  /** stderr is a terminal, so status() shows something (no progress in a CI log). */
  readonly statusShown: boolean
  /** A chalk whose level follows the colour decision, not chalk's own detection. */
  paint(): Promise<ChalkInstance>
  /** Called once if the reader of stdout goes away (`| head`): work that only prints can stop. */
  onStdoutClosed(listener: () => void): void
}

export interface PrefixedOptions {
  printable?: boolean
  paintPrefix?: (prefix: string) => string
  /** Paints a line given as text (bytes are written as they are). */
  paintLine?: (line: string) => string
}

export interface PrinterStreams {
  /** Text is written as UTF-8, bytes as they are. */
  stdout: {write(data: string | Uint8Array): unknown; isTTY?: boolean; onClosed?(listener: () => void): void}
  stderr: {write(data: string | Uint8Array): unknown; isTTY?: boolean}
  stdin?: {isTTY?: boolean}
  /** The controlling terminal, where prompts go; none when absent. */
  controllingTerminal?: {readonly available: boolean}
}

const same = (text: string) => text
const NEWLINE = new Uint8Array([0x0a])

/**
 * The printer of this process. Text goes to the file descriptors (output-sink.ts), never
 * through process.stdout/stderr; and whether one is a terminal is asked only when it matters, and of
 * node:tty (which loads net) only when fstat says it is a character device at all.
 */
export function processPrinter(env = process.env): Printer {
  const stream = (fd: 1 | 2) => ({
    get isTTY() {
      return isTerminal(fd)
    },
    write: (data: string | Uint8Array) => outputSink(fd).write(data),
    onClosed: (listener: () => void) => outputSink(fd).onClosed(listener),
  })
  const stdin = {
    get isTTY() {
      return isTerminal(0)
    },
  }
  const controllingTerminal = {
    get available() {
      return controllingTerminalAvailable()
    },
  }
  return printerFor({stdout: stream(1), stderr: stream(2), stdin, controllingTerminal}, env)
}

/** Whether fd 0, 1 or 2 is a terminal, without creating process.stdin/stdout/stderr. */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false
  } catch {
    return false
  }
  // /dev/null is a character device too; only the tty module can tell a terminal.
  const {isatty} = createRequire(import.meta.url)('node:tty') as {isatty(fd: number): boolean}
  return isatty(fd)
}

export function printerFor(streams: PrinterStreams, env: NodeJS.ProcessEnv = {}): Printer {
  // Asked once each, and only when needed: `cpcred credential` never needs to know.
  let stdoutTTY: boolean | undefined
  let stderrTTY: boolean | undefined
  let stdinTTY: boolean | undefined
  const stdoutIsTTY = () => (stdoutTTY ??= Boolean(streams.stdout.isTTY))
  const statusShown = () => (stderrTTY ??= Boolean(streams.stderr.isTTY))
  let interactive: boolean | undefined
  const colour = () => stdoutIsTTY() && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb'
  const unicode = unicodeTerminal(env)
  const glyphs = unicode ? UNICODE_GLYPHS : ASCII_GLYPHS
  const shown = (text: string) => printableLines(text, glyphs.ellipsis)
  let status = ''
  let chalk: Promise<ChalkInstance> | undefined

  const write = (stream: Stream, data: string | Uint8Array) => {
    if (status) streams.stderr.write('\r\x1b[2K')
    streams[stream].write(data)
    if (status) streams.stderr.write(status)
  }
  const printer: Printer = {
    get stdoutIsTTY() {
      return stdoutIsTTY()
    },
    get statusShown() {
      return statusShown()
    },
    get stdinIsTTY() {
      return (stdinTTY ??= Boolean(streams.stdin?.isTTY))
    },
    get interactive() {
      return (interactive ??= printer.stdinIsTTY && Boolean(streams.controllingTerminal?.available))
    },
    unicode,
    glyphs,
    get colour() {
      return colour()
    },
    data: (text) => write('stdout', text),
    text: (text, stream = 'stdout') => write(stream, shown(text)),
    cells: (cells, options = {}) =>
      write(options.stream ?? 'stdout', formatCells(cells, options.style, glyphs.ellipsis)),
    note: (text) => write('stderr', `${shown(text)}\n`),
    warn: (text) => write('stderr', warningLine(shown(text))),
    error: (message, hint) => write('stderr', `error: ${shown(message)}\n${hint ? `${shown(hint)}\n` : ''}`),
    prefixed(stream, prefix, line, {printable: escape = false, paintPrefix = same, paintLine = same} = {}) {
      const shownPrefix = paintPrefix(printable(prefix, MAX_PRINTABLE_LENGTH, glyphs.ellipsis))
      if (typeof line !== 'string' && !escape) {
        // The command's bytes after cpcred's prefix, in one write, so that lines of targets never mix.
        write(stream, Buffer.concat([Buffer.from(`${shownPrefix} `), line, NEWLINE]))
        return
      }
      const text = typeof line === 'string' ? line : Buffer.from(line).toString('utf8')
      // A message of several lines (a plugin's stderr) keeps its prefix on every line.
      const lines = escape ? shown(text).split('\n') : [text]
      write(stream, lines.map((text) => `${shownPrefix} ${paintLine(text)}\n`).join(''))
    },
    status(text) {
      if (!statusShown()) return
      const next = printable(text, MAX_PRINTABLE_LENGTH, glyphs.ellipsis)
      streams.stderr.write(`${status ? '\r\x1b[2K' : ''}${next}`)
      status = next
    },
    paint: () =>
      (chalk ??= import('chalk').then(({Chalk}) => new Chalk({level: colour() ? 1 : 0}) as ChalkInstance)),
    onStdoutClosed: (listener) => streams.stdout.onClosed?.(listener),
  }
  return printer
}
