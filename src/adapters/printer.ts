// The output boundary, as gh's IOStreams: every byte cpcred shows a person goes through here. It
// knows whether stdout is a terminal, whether colour is allowed and whether a progress line is on
// screen, and it makes untrusted text printable (src/core/printable.ts) in exactly one place:
// renderers hand it plain strings and cells and never escape on their own. Exact data (-o json|yaml,
// kubeconfigs, ExecCredentials) bypasses the escaping through `data`.
import {isatty} from 'node:tty'
import type {ChalkInstance} from 'chalk'
import {formatCells, type Cells, type CellStyle} from '../core/format.js'
import {printable, printableLines} from '../core/printable.js'

export type Stream = 'stdout' | 'stderr'

export interface Printer {
  /** stdout is a terminal (tables, colour); false when piped (stable, plain output). */
  readonly stdoutIsTTY: boolean
  /** stdin and stdout are terminals: prompting is allowed. */
  readonly interactive: boolean
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
   * output of the user's own command and passes as it is, as `kubectl logs` passes a pod's; cpcred's
   * messages (`printable: true`) are made printable like everything else.
   */
  prefixed(stream: Stream, prefix: string, line: string, options?: PrefixedOptions): void
  /** A progress line on a stderr terminal, redrawn below whatever else is written; '' removes it. */
  status(text: string): void
  /** stderr is a terminal, so status() shows something (no progress in a CI log). */
  readonly statusShown: boolean
  /** A chalk whose level follows the colour decision, not chalk's own detection. */
  paint(): Promise<ChalkInstance>
}

export interface PrefixedOptions {
  printable?: boolean
  paintPrefix?: (prefix: string) => string
  paintLine?: (line: string) => string
}

export interface PrinterStreams {
  stdout: {write(text: string): unknown; isTTY?: boolean}
  stderr: {write(text: string): unknown; isTTY?: boolean}
  stdin?: {isTTY?: boolean}
}

const same = (text: string) => text

/**
 * The printer of this process. Node creates process.stdout and process.stderr (a stream each, and for
 * a pipe the net module) on first touch, which costs a warm `cpcred credential` several
 * milliseconds; so they are touched only when something is written to them, and whether they are
 * terminals is asked of the file descriptors.
 */
export function processPrinter(env = process.env): Printer {
  const stream = (fd: 0 | 1 | 2) => ({
    get isTTY() {
      return isatty(fd)
    },
    write: (text: string) => (fd === 1 ? process.stdout : process.stderr).write(text),
  })
  return printerFor({stdout: stream(1), stderr: stream(2), stdin: stream(0)}, env)
}

export function printerFor(streams: PrinterStreams, env: NodeJS.ProcessEnv = {}): Printer {
  const stdoutIsTTY = Boolean(streams.stdout.isTTY)
  const colour = stdoutIsTTY && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb'
  const statusShown = Boolean(streams.stderr.isTTY)
  let status = ''
  let chalk: Promise<ChalkInstance> | undefined

  const write = (stream: Stream, text: string) => {
    if (status) streams.stderr.write('\r\x1b[2K')
    streams[stream].write(text)
    if (status) streams.stderr.write(status)
  }
  const printer: Printer = {
    stdoutIsTTY,
    statusShown,
    interactive: stdoutIsTTY && Boolean(streams.stdin?.isTTY),
    colour,
    data: (text) => write('stdout', text),
    text: (text, stream = 'stdout') => write(stream, printableLines(text)),
    cells: (cells, options = {}) => write(options.stream ?? 'stdout', formatCells(cells, options.style)),
    note: (text) => write('stderr', `${printableLines(text)}\n`),
    warn: (text) => write('stderr', `warning: ${printableLines(text)}\n`),
    error: (message, hint) =>
      write('stderr', `error: ${printableLines(message)}\n${hint ? `${printableLines(hint)}\n` : ''}`),
    prefixed(stream, prefix, line, {printable: escape = false, paintPrefix = same, paintLine = same} = {}) {
      const shownPrefix = paintPrefix(printable(prefix))
      // A message of several lines (a plugin's stderr) keeps its prefix on every line.
      const lines = escape ? printableLines(line).split('\n') : [line]
      write(stream, lines.map((text) => `${shownPrefix} ${paintLine(text)}\n`).join(''))
    },
    status(text) {
      if (!statusShown) return
      const next = printable(text)
      streams.stderr.write(`${status ? '\r\x1b[2K' : ''}${next}`)
      status = next
    },
    paint: () =>
      (chalk ??= import('chalk').then(({Chalk}) => new Chalk({level: colour ? 1 : 0}) as ChalkInstance)),
  }
  return printer
}
