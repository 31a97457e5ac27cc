// What `cpcred exec --report` records about a fan-out: how each target ended and the end of its
// output, so CI can show per-cluster results. The JSON report is built here (exact strings, like
// -o json); the JUnit report in junit.ts. Output comes from remote clusters and can be unbounded, so
// only a bounded tail of it is ever kept in memory.
import {exportJson} from '../text/export.js'
import {lineText} from '../text/line-splitter.js'
import {streamFields, type TargetStreams} from './target-streams.js'
import type {SkipKind, SkippedProfile} from './placement.js'

/** How one target of a fan-out ended. */
export interface TargetResult {
  /** namespace/name */
  profile: string
  /**
   * The command's exit code (128+n for signal n); when it could not run, cpcred's exit code for the
   * error (see src/core/errors.ts ExitCode).
   */
  exitCode: number
  durationMs: number
  /** False when the command never started: credential/resolution failure, or --fail-fast skipped it. */
  started: boolean
  /** Why the command did not run, or how it ended (may run over several lines: a plugin's stderr). */
  error?: string
  /** What to do about `error` (a provider's installHint, say), when the failure said. */
  hint?: string
  /** Not started because an earlier target failed under --fail-fast. */
  cancelled?: boolean
  /** e.g. 'SIGTERM' when the command died of a signal. */
  signal?: string
  /** Stopped by --timeout. */
  timedOut?: boolean
  /** Left out by the selection (--healthy, tied duplicates): never started, not a failure; `error` says why. */
  skipped?: SkipKind
  /**
   * Stopped by cpcred before it ended, because the run ended early (the reader of the output went
   * away, stdin failed): not a failure of the target; `error` says why.
   */
  stopped?: boolean
  /**
   * The command's last line on stderr that says something, when its output was read (not with
   * --quiet alone): why it failed, for the summary's NOTE. Records and reports carry the streams.
   */
  lastErrorLine?: string
}

/**
 * Results in the selection's order (a placement's decision order, where a reference that did not
 * resolve or a profile --healthy skipped stands among those that ran); without one, as they are.
 */
export function inSelectionOrder(results: TargetResult[], order?: readonly string[]): TargetResult[] {
  if (!order) return results
  const position = new Map(order.map((key, index) => [key, index]))
  const at = (result: TargetResult) => position.get(result.profile) ?? Number.POSITIVE_INFINITY
  return results
    .map((result, index) => ({result, index}))
    .sort((a, b) => at(a.result) - at(b.result) || a.index - b.index)
    .map(({result}) => result)
}

/**
 * The targets that never ran because of the selection: references no profile answers to (errors,
 * with the exit code of why) and profiles --healthy left out (skipped, with the condition's words).
 */
export function notRunResults(
  unresolved: readonly {profile: string; error: string; exitCode: number}[],
  skipped: readonly SkippedProfile[],
): TargetResult[] {
  return [
    ...unresolved.map(({profile, error, exitCode}) => ({
      profile,
      exitCode,
      durationMs: 0,
      started: false,
      error,
    })),
    ...skipped.map(({profile, reason, kind}) => ({
      profile,
      exitCode: 0,
      durationMs: 0,
      started: false,
      skipped: kind,
      error: `skipped: ${reason}`,
    })),
  ]
}

/**
 * The cause in one line, for a summary row: the message's first line and, when that line only
 * introduces what follows (`…; its stderr:`), the first non-empty line after it; then the hint.
 */
export function causeLine(
  result: Pick<TargetResult, 'error' | 'hint'> &
    Partial<Pick<TargetResult, 'started' | 'exitCode' | 'lastErrorLine'>>,
): string {
  // A command that ran and failed on its own: its code, and its last word on stderr when read.
  if (result.error === undefined && result.started && result.exitCode) {
    const said = result.lastErrorLine?.trim()
    return `exited with code ${result.exitCode}${said ? `: ${said}` : ''}`
  }
  const lines = (result.error ?? '').split('\n')
  let cause = lines[0]!.trim()
  if (cause.endsWith(':')) {
    const next = lines.slice(1).find((line) => line.trim() !== '')
    if (next !== undefined) cause = `${cause} ${next.trim()}`
  }
  const hint = result.hint?.trim()
  // `…supports "x".` then `; add …`: one mark between the two, never `.;`.
  return hint ? (cause ? `${cause.replace(/[.;,]$/, '')}; ${hint}` : hint) : cause
}

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped'

/**
 * passed: started && exitCode 0; failed: started && exitCode != 0, unless cpcred stopped it (skipped);
 * skipped: cancelled; error: did not start otherwise. A command that started has a real result, so
 * `started` decides before `cancelled`.
 */
export function outcomeOf(result: TargetResult): Outcome {
  if (result.started) return result.exitCode === 0 ? 'passed' : result.stopped ? 'skipped' : 'failed'
  if (result.cancelled || result.skipped) return 'skipped'
  return 'error'
}

export const DEFAULT_TAIL_BYTES = 32 * 1024
const DEFAULT_LAST_LINES = 20

/**
 * A bounded tail of one target's combined output: at most maxBytes (UTF-16 length is fine) and the
 * newest lines win. A target can print without end (a log follower, a loop); a report keeps only
 * what explains how it ended, and memory stays bounded however many targets run.
 */
export class OutputTail {
  private readonly maxBytes: number
  /** Kept lines are lines[head..]; dropped ones are cut off the front in batches, not one by one. */
  private lines: string[] = []
  private head = 0
  /** Length of the kept lines joined with \n. */
  private size = 0
  private dropped = 0

  constructor(maxBytes: number = DEFAULT_TAIL_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(`an output tail needs a positive whole number of bytes, got ${maxBytes}`)
    }
    this.maxBytes = maxBytes
  }

  /** One output line without its newline: text, or the command's bytes (read as lineText does). */
  push(output: string | Uint8Array): void {
    const line = typeof output === 'string' ? output : lineText(output)
    const kept = line.length > this.maxBytes ? lineEnd(line, this.maxBytes) : line
    while (this.count > 0 && this.size + 1 + kept.length > this.maxBytes) {
      const oldest = this.lines[this.head++]!
      this.size -= this.count === 0 ? oldest.length : oldest.length + 1
      this.dropped++
    }
    this.size += this.count === 0 ? kept.length : kept.length + 1
    this.lines.push(kept)
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head)
      this.head = 0
    }
  }

  /**
   * The kept text, lines joined with \n; starts with a marker line like
   * "[… 123 earlier lines not kept]" when something was dropped.
   */
  text(): string {
    const kept = this.lines.slice(this.head).join('\n')
    if (this.dropped === 0) return kept
    const marker = `[… ${this.dropped} earlier ${this.dropped === 1 ? 'line' : 'lines'} not kept]`
    return this.count === 0 ? marker : `${marker}\n${kept}`
  }

  /** The last n kept lines (default 20). */
  last(n: number = DEFAULT_LAST_LINES): string[] {
    if (n <= 0) return []
    return this.lines.slice(Math.max(this.head, this.lines.length - n))
  }

  private get count(): number {
    return this.lines.length - this.head
  }
}

/** The end of a line too long to keep whole, marked with … and never starting inside a surrogate pair. */
function lineEnd(line: string, maxBytes: number): string {
  let end = line.slice(line.length - (maxBytes - 1))
  const first = end.charCodeAt(0)
  if (first >= 0xdc00 && first <= 0xdfff) end = end.slice(1)
  return `…${end}`
}

export interface TargetReport {
  result: TargetResult
  output?: OutputTail
  /** Its stdout and stderr apart (the JSON report's `stdout` and `stderr`). */
  streams?: TargetStreams
}

export interface FanOutReport {
  /** The cpcred command that ran (default exec). */
  command?: 'exec' | 'get'
  /** The program only (argv[0] of the command), never its arguments: arguments may carry secrets; get's resource words. */
  program: string
  startedAt: Date
  durationMs: number
  targets: TargetReport[]
}

export interface ReportCounts {
  total: number
  passed: number
  failed: number
  errors: number
  skipped: number
}

export function countOutcomes(results: readonly TargetResult[]): ReportCounts {
  const counts: ReportCounts = {total: results.length, passed: 0, failed: 0, errors: 0, skipped: 0}
  for (const result of results) {
    const outcome = outcomeOf(result)
    if (outcome === 'passed') counts.passed++
    else if (outcome === 'failed') counts.failed++
    else if (outcome === 'error') counts.errors++
    else counts.skipped++
  }
  return counts
}

/** namespace/name split at the first slash (names cannot contain one); no slash: no namespace. */
export function splitProfile(profile: string): {namespace: string; name: string} {
  const slash = profile.indexOf('/')
  return slash === -1
    ? {namespace: '', name: profile}
    : {namespace: profile.slice(0, slash), name: profile.slice(slash + 1)}
}

/** How many output lines a report shows for one target. */
export const REPORT_LAST_LINES = DEFAULT_LAST_LINES

/**
 * Pretty JSON (as -o json: 4 spaces, trailing newline): {program, startedAt (ISO), durationMs (rounded), counts,
 * targets:[{profile, namespace, name, outcome, exitCode, durationMs (rounded), signal?, timedOut?,
 * error?, hint?, lastLines (both streams merged), stdout, stdoutBase64?, stderr, stderrBase64?,
 * stdoutTruncated?, stderrTruncated?, outputCapBytes?}]} (target-streams.ts: base64 beside the text
 * for a stream that is not UTF-8). Strings stay exact, as with -o json: JSON escapes what it cannot carry.
 */
export function renderJsonReport(report: FanOutReport): string {
  const json = {
    program: report.program,
    startedAt: report.startedAt.toISOString(),
    durationMs: Math.round(report.durationMs),
    counts: countOutcomes(report.targets.map((target) => target.result)),
    targets: report.targets.map(({result, output, streams}) => ({
      profile: result.profile,
      ...splitProfile(result.profile),
      outcome: outcomeOf(result),
      exitCode: result.exitCode,
      durationMs: Math.round(result.durationMs),
      ...(result.signal === undefined ? {} : {signal: result.signal}),
      ...(result.timedOut ? {timedOut: true} : {}),
      ...(result.error === undefined ? {} : {error: result.error}),
      ...(result.hint === undefined ? {} : {hint: result.hint}),
      lastLines: output?.last(REPORT_LAST_LINES) ?? [],
      ...streamFields(streams),
    })),
  }
  return exportJson(json)
}

/**
 * One target's record in `exec -o json|yaml` (an array of them) and `-o jsonl` (one a line, as each
 * target ends): how it ended, and its stdout and stderr apart (target-streams.ts: capped, and said so).
 */
export function targetRecord(result: TargetResult, streams: TargetStreams | undefined) {
  return {
    profile: result.profile,
    outcome: outcomeOf(result),
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
    ...(result.signal ? {signal: result.signal} : {}),
    ...(result.timedOut ? {timedOut: true} : {}),
    ...(result.error ? {error: result.error} : {}),
    ...(result.hint ? {hint: result.hint} : {}),
    ...streamFields(streams),
  }
}
