// The ports of `cpcred exec` on many targets: what a person (or a CI log) sees while they run, the
// files a CI job keeps (logs, reports and their directories), cpcred's stdin copied to every target,
// and the reader of stdout that may go away.
import type {Writable} from 'node:stream'
import type {CpcredError} from '../../core/errors.js'
import type {TargetResult} from '../../core/fleet/fan-out-report.js'
import type {FanOutPresenter} from '../../core/fleet/fan-out-presenters.js'
import type {TargetStreams} from '../../core/fleet/target-streams.js'
import type {TargetStdin} from './processes.js'

/** What the view of a run is opened with. */
export interface FanOutViewInput {
  /** NAMESPACE/NAME of every target, in their order. */
  profiles: string[]
  /** What -o makes of the records (core/fleet/fan-out-presenters.ts). */
  presenter: FanOutPresenter
  /** --quiet: only the summary. */
  quiet: boolean
  /** A target's captured stdout and stderr, for its record; `take` lets go of it once printed. */
  streams?: {get(profile: string): TargetStreams | undefined; take(profile: string): void}
}

/** Each line prefixed with its profile, progress on a terminal, a summary (src/adapters/fan-out-view.ts). */
export interface FanOutView {
  /**
   * A line of a target's output, its bytes without the newline, shown behind the profile as they are;
   * undefined with --quiet (the output is not shown).
   */
  line: ((profile: string, stream: 'stdout' | 'stderr', line: Buffer) => void) | undefined
  started(profile: string): void
  done(result: TargetResult, done: number, total: number): void
  /** The summary; `interrupted` names the signal that stopped the run before its end. */
  finish(results: TargetResult[], interrupted?: NodeJS.Signals): Promise<void>
}

/** A target's log for --output-dir: 0600, an earlier run's truncated, never through a link. */
export interface TargetLog {
  /** Text is written as UTF-8, bytes as they are. */
  write(data: string | Uint8Array): void
  close(): void
}

/** cpcred's stdin, read once and given whole to every target (src/adapters/stdin-spool.ts). */
export interface StdinCopies {
  /** The stdin for a target about to start. */
  forTarget(): TargetStdin
  /** The target has started (`stdin` is its pipe, or null): feed it. */
  started(given: TargetStdin, stdin: Writable | null | undefined): void
  /**
   * Settles when the targets cannot all get the whole input (more than the limit: a UsageError; the
   * spool cannot be written); never otherwise. The run must stop its targets then.
   */
  readonly failure: Promise<CpcredError>
  /** Stops reading and feeding; the spool file goes with the run's directory. */
  close(): Promise<void>
}

/** Aborted (with its reason) once the reader of stdout has gone, or when `abort` is called. */
export interface ReaderGone {
  readonly signal: AbortSignal
  /** The reader of stdout has gone (not merely aborted for another reason). */
  readonly gone: boolean
  abort(reason: string): void
}

/** What a run of many targets shows and writes with, beside what runs each target. */
export interface FanOutPorts {
  /** The view of this run, on cpcred's stdout and stderr. */
  view(input: FanOutViewInput): Promise<FanOutView>
  /**
   * Creates `dir` and its missing parents (0700); one that exists is left as it is. Throws a
   * CpcredError that says what is in the way.
   */
  makeDirectory(dir: string): void
  /** Opens (creates or truncates) a target's log; throws a CpcredError when it cannot. */
  openLog(file: string): TargetLog
  /** Writes a report atomically, never through a link at its path; an existing file keeps its mode. */
  writeReport(file: string, content: string): Promise<void>
  /** cpcred's stdin, kept in `file` (a new private file) for every target. */
  spoolStdin(file: string): Promise<StdinCopies>
  /** Watches for the reader of stdout going away, from now until the run ends. */
  readerGone(): ReaderGone
  /** A failure that does not stop the run (a report that could not be written), on stderr. */
  error(message: string, hint: string): void
  /** The wall clock: when the reports say the run started. */
  date(): Date
}
