// What a person (or a CI log) sees while `cpcred exec` runs on many targets: each line prefixed
// with its profile (none with --quiet), a progress line with an ETA on a terminal only, and a
// summary at the end.
import type {ChalkInstance} from 'chalk'
import {formatDuration} from '../core/duration.js'
import {causeLine, targetRecord, type TargetResult} from '../core/fleet/fan-out-report.js'
import {kubectlTable} from '../core/text/format.js'
import type {FanOutView, FanOutViewInput} from '../usecases/ports.js'
import type {Printer} from './printer.js'

const COLOURS = ['cyan', 'magenta', 'yellow', 'blue', 'green', 'red'] as const
/** The progress line is redrawn at most this often as targets end, and once a second anyway. */
const REDRAW_MS = 100
const TICK_MS = 1000

export interface FanOutViewOptions extends FanOutViewInput {
  printer: Printer
  chalk: ChalkInstance
  now?: () => number
}

export function fanOutView(options: FanOutViewOptions): FanOutView {
  const {printer, chalk} = options
  const now = options.now ?? (() => performance.now())
  const width = Math.max(0, ...options.profiles.map((profile) => profile.length))
  const colourOf = new Map(
    options.profiles.map((profile, index) => [profile, COLOURS[index % COLOURS.length]!]),
  )
  const paintPrefix = (profile: string) => (prefix: string) => chalk[colourOf.get(profile) ?? 'cyan'](prefix)
  const prefix = (profile: string) => `${profile.padEnd(width)} |`
  const progress = printer.statusShown ? new Progress(options.profiles.length, printer, now) : undefined
  const {presenter} = options
  const data = presenter.records
  const recordOf = (result: TargetResult) => targetRecord(result, options.streams?.get(result.profile))
  /** A record as its target ends (-o jsonl, csv): the profiles whose record is out; the rest (never run) come at the end. */
  const streamed = new Set<string>()
  const streamRecord = (each: NonNullable<typeof presenter.each>, result: TargetResult) => {
    printer.data(each(recordOf(result), streamed.size === 0))
    streamed.add(result.profile)
    options.streams?.take(result.profile)
  }

  return {
    line: options.quiet
      ? undefined
      : (profile, stream, line) => {
          const to = stream === 'stdout' && !data ? 'stdout' : 'stderr'
          // The command's bytes, as they are, behind cpcred's printable prefix.
          printer.prefixed(to, prefix(profile), line, {paintPrefix: paintPrefix(profile)})
        },
    started: () => progress?.started(),
    done(result) {
      // One cpcred stopped (its reader went away) did not fail: nothing to say about it on its own.
      if (result.error && !result.cancelled && !result.stopped && !options.quiet) {
        const said = result.hint ? `error: ${result.error}\n${result.hint}` : `error: ${result.error}`
        printer.prefixed('stderr', prefix(result.profile), said, {
          printable: true,
          paintPrefix: paintPrefix(result.profile),
          paintLine: (line) => chalk.red(line),
        })
      }
      progress?.done(result)
      if (presenter.each) streamRecord(presenter.each, result)
    },
    async finish(results, interrupted) {
      progress?.stop()
      const {each, all} = presenter
      if (each) {
        for (const result of results) if (!streamed.has(result.profile)) streamRecord(each, result)
        return
      }
      if (all) {
        printer.data(await all(results.map(recordOf)))
        return
      }
      if (results.length === 0) return
      const failed = results.filter((result) => result.exitCode !== 0).length
      const rows = results.map((result) => [
        result.profile,
        String(result.exitCode),
        `${(result.durationMs / 1000).toFixed(1)}s`,
        // The cause in one line (the whole message was shown when the target ended, but not
        // with --quiet, where this row is all there is of it).
        causeLine(result),
      ])
      if (!options.quiet) printer.note('')
      printer.cells(kubectlTable(['PROFILE', 'EXIT', 'DURATION', 'NOTE'], rows), {
        stream: 'stderr',
        style: (cell, column, row) =>
          row > 0 && column === 1 ? (cell === '0' ? chalk.green(cell) : chalk.red(cell)) : cell,
      })
      const notStarted = results.filter((result) => result.cancelled).length
      if (interrupted) {
        printer.note(
          `interrupted by ${interrupted}: ${results.length - notStarted} of ${results.length} started, ${notStarted} not started`,
        )
      } else {
        printer.note(fanOutSummary(results, failed))
      }
    },
  }
}

/** `3 of 10 failed, 2 skipped (not healthy), 2 skipped (tied duplicates)`: each skip by its cause. */
function fanOutSummary(results: readonly TargetResult[], failed: number): string {
  const skipped = new Map<string, number>()
  for (const {skipped: kind} of results) if (kind) skipped.set(kind, (skipped.get(kind) ?? 0) + 1)
  const ran = results.length - [...skipped.values()].reduce((sum, count) => sum + count, 0)
  const said = failed ? `${failed} of ${ran} failed` : `all ${ran} succeeded`
  return [said, ...[...skipped].map(([kind, count]) => `${count} skipped (${kind})`)].join(', ')
}

/** `412/1000 done, 16 running, 3 failed, ETA 1m5s`, on a terminal only. */
class Progress {
  private readonly startedAt: number
  private running = 0
  private finished = 0
  private failed = 0
  private drawnAt = -Infinity
  private readonly tick: NodeJS.Timeout

  constructor(
    private readonly total: number,
    private readonly printer: Printer,
    private readonly now: () => number,
  ) {
    this.startedAt = now()
    this.tick = setInterval(() => this.draw(), TICK_MS)
    this.tick.unref()
  }

  started(): void {
    this.running++
  }

  done(result: TargetResult): void {
    if (!result.cancelled) this.running = Math.max(0, this.running - 1)
    this.finished++
    if (result.exitCode !== 0) this.failed++
    if (this.now() - this.drawnAt >= REDRAW_MS || this.finished === this.total) this.draw()
  }

  stop(): void {
    clearInterval(this.tick)
    this.printer.status('')
  }

  private draw(): void {
    this.drawnAt = this.now()
    if (this.finished >= this.total) {
      this.printer.status('')
      return
    }
    const elapsed = this.drawnAt - this.startedAt
    const remainingMs = (elapsed / Math.max(1, this.finished)) * (this.total - this.finished)
    const eta = this.finished === 0 ? '' : `, ETA ${formatDuration(Math.ceil(remainingMs / 1000) * 1000)}`
    this.printer.status(
      `${this.finished}/${this.total} done, ${this.running} running, ${this.failed} failed${eta}`,
    )
  }
}
