// `cpcred exec` on many targets (or on one, with --report, --output-dir, --quiet or -o json): the
// directories first, so that a CI job learns of a wrong path before any target runs; a copy of stdin
// for every target; the targets through the pool (exec-pool.ts), each one's output to the view, its
// logs, its report tail and its record, as asked; the reports once every target has ended; and
// cpcred's exit code.
import path from 'node:path'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
// Kubernetes names are DNS labels and subdomains; anything else from the hub must not become a path.
import {isDnsSubdomain} from '../core/profiles/names.js'
import {characterBoundary, lineText} from '../core/text/line-splitter.js'
import {
  CpcredError,
  ExitCode,
  isCpcredError,
  OUTPUT_CLOSED_EXIT_CODE,
  QuietExit,
  signalExitCode,
} from '../core/errors.js'
import {
  inSelectionOrder,
  OutputTail,
  renderJsonReport,
  type FanOutReport,
  type TargetResult,
} from '../core/fleet/fan-out-report.js'
import {renderJUnit} from '../core/fleet/junit.js'
import {
  HELD_CAP_BYTES,
  STREAMED_CAP_BYTES,
  targetStreams,
  type TargetStreams,
} from '../core/fleet/target-streams.js'
import type {TargetRunInput, TargetRunPorts} from './exec-prepare.js'
import {runTargets, type PoolOutcome, type TargetOutput} from './exec-pool.js'
import type {FanOutPresenter} from '../core/fleet/fan-out-presenters.js'
import type {ChildStdin, FanOutPorts, StdinCopies, TargetLog} from './ports.js'

export type ReportKind = 'junit' | 'json'

export interface ReportRequest {
  kind: ReportKind
  /** An absolute path; its directory is created before any target runs. */
  file: string
}

/** What the fan-out flags ask for. */
export interface FanOutInput {
  parallel: number
  failFast: boolean
  /** What -o makes of the records, and so what must be kept of each target's output. */
  presenter: FanOutPresenter
  quiet: boolean
  /** --output-dir, absolute. */
  outputDir?: string
  reports: ReportRequest[]
  /** --stdin: `copy` gives every target all of cpcred's stdin (unless it is a terminal). */
  stdin: 'copy' | 'none'
}

export interface ExecManyInput extends TargetRunInput, FanOutInput {
  profiles: ClusterProfile[]
  /** Those the selection kept from running (unresolved references, what --healthy left out). */
  notRun: TargetResult[]
  /** The order of the summary and reports, when the selection has one (a placement's). */
  order?: readonly string[]
}

export interface ExecManyPorts extends TargetRunPorts, FanOutPorts {}

/** cpcred's exit code: 0 when every target succeeded and every report was written, else 1 (or a signal's). */
export type ExecManyOutcome = number

export async function execManyCommand(ports: ExecManyPorts, input: ExecManyInput): Promise<ExecManyOutcome> {
  const {profiles} = input
  const startedAt = ports.date()
  const startedMs = ports.now()
  makeDirectories(ports, input)

  // Each target's stdout and stderr apart, for its record (-o) and the JSON report. Held to the end
  // for -o json|yaml and the report, so capped lower than for -o jsonl, which lets go as each ends.
  const {capture} = input.presenter
  const held = capture === 'held' || input.reports.some(isJson)
  const captureCap = held ? HELD_CAP_BYTES : capture === 'streamed' ? STREAMED_CAP_BYTES : undefined
  const captured = new Map<string, TargetStreams>()
  const tails = new Map<string, OutputTail>()
  const view = await ports.view({
    profiles: profiles.map(profileKey),
    presenter: input.presenter,
    quiet: input.quiet,
    streams: {get: (key) => captured.get(key), take: (key) => void captured.delete(key)},
  })
  const byKey = new Map(profiles.map((profile) => [profileKey(profile), profile]))
  const openOutput = (key: string): TargetOutput => {
    const logs = input.outputDir === undefined ? undefined : openLogs(ports, input.outputDir, byKey.get(key)!)
    const tail = input.reports.length ? new OutputTail() : undefined
    if (tail) tails.set(key, tail)
    const streams = captureCap === undefined ? undefined : targetStreams(captureCap)
    if (streams) captured.set(key, streams)
    const show = view.line
    const line =
      show || logs || tail || streams
        ? (stream: 'stdout' | 'stderr', bytes: Buffer, newline?: boolean) => {
            // The command's bytes, never decoded, to every place but the report's tail (text).
            show?.(key, stream, bytes)
            if (logs) {
              logs.merged.write(bytes)
              logs.merged.write(NEWLINE)
              // The stream's own file as the command wrote it: a cut line is put back together.
              logs[stream].write(bytes)
              if (newline !== false) logs[stream].write(NEWLINE)
            }
            tail?.push(bytes)
            streams?.[stream].push(bytes, newline !== false)
            if (stream === 'stderr' && bytes.some(isVisible)) lastErrorLine = bytes
          }
        : undefined
    // Only the last: a line is at most 64 KiB, and the NOTE shows its start.
    let lastErrorLine: Buffer | undefined
    return {
      line,
      close: (result) => {
        if (lastErrorLine)
          result.lastErrorLine = lineText(
            lastErrorLine.subarray(0, characterBoundary(lastErrorLine, NOTE_LINE_BYTES)),
          )
        if (logs) closeLogs(logs, result)
      },
    }
  }

  // `cpcred exec --all -- … | head`: once the reader has gone, the targets stop, as kubectl would.
  const stop = ports.readerGone()
  // `cat app.yaml | cpcred exec --all -- kubectl apply -f -`: every target reads all of it. A terminal
  // is never shared between targets.
  let stdinFailure: CpcredError | undefined
  const copies =
    input.stdin === 'copy' && !input.stdinIsTTY
      ? await ports.spoolStdin(await ports.temp.pathFor('stdin'))
      : undefined
  void copies?.failure.then((error) => {
    stdinFailure = error
    stop.abort(error.message)
  })
  let outcome: PoolOutcome
  try {
    outcome = await runTargets(ports, input, profiles, {
      parallel: input.parallel,
      failFast: input.failFast,
      openOutput,
      onStart: view.started,
      onDone: view.done,
      stop: stop.signal,
      stdin: copies && stdinCopy(copies),
    })
  } finally {
    await copies?.close()
  }
  const {interrupted} = outcome
  // Those the selection kept from running are in the summary and the reports: in the selection's
  // order when it has one (a placement's), else after those that ran.
  const results = inSelectionOrder([...outcome.results, ...input.notRun], input.order)
  // The reader went away while targets still ran: they were stopped, and cpcred ends as kubectl
  // would. One that goes after the last target ended changes nothing.
  const readerGone = stop.gone && outcome.stopped === true
  if (!readerGone) await view.finish(results, interrupted)
  const written = await writeReports(ports, input.reports, {
    program: path.basename(input.command[0]!),
    startedAt,
    durationMs: ports.now() - startedMs,
    targets: results.map((result) => ({
      result,
      output: tails.get(result.profile),
      streams: captured.get(result.profile),
    })),
  })
  if (stdinFailure) throw stdinFailure
  if (readerGone) throw new QuietExit(OUTPUT_CLOSED_EXIT_CODE)
  if (interrupted) return signalExitCode(interrupted)
  const failed = results.some((result) => result.exitCode !== 0)
  return failed || !written ? ExitCode.Failure : ExitCode.Success
}

/** --output-dir with a directory per namespace, and each report's directory. */
function makeDirectories(ports: Pick<FanOutPorts, 'makeDirectory'>, input: ExecManyInput): void {
  if (input.outputDir !== undefined) {
    ports.makeDirectory(input.outputDir)
    const namespaces = new Set(input.profiles.map((profile) => profile.metadata.namespace ?? ''))
    for (const namespace of namespaces) {
      if (isDnsSubdomain(namespace)) ports.makeDirectory(path.join(input.outputDir, namespace))
    }
  }
  for (const report of input.reports) ports.makeDirectory(path.dirname(report.file))
}

/** One target's copy of the spooled stdin. */
function stdinCopy(copies: StdinCopies): () => ChildStdin {
  return () => {
    const given = copies.forTarget()
    return {stdio: given, started: (pipe) => copies.started(given, pipe)}
  }
}

const isJson = (report: ReportRequest) => report.kind === 'json'
/** Not a space, a tab or a CR: a line with one of these says something. */
const isVisible = (byte: number) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0d
/** How much of a failed command's last stderr line the summary's NOTE keeps. */
const NOTE_LINE_BYTES = 512

const NEWLINE = new Uint8Array([0x0a])

interface TargetLogs {
  merged: TargetLog
  stdout: TargetLog
  stderr: TargetLog
}

/**
 * --output-dir's files for one target: NAME.log (both streams line by line and cpcred's word on how it
 * ended, as a person reads them), NAME.stdout and NAME.stderr (each stream's bytes exactly, for a
 * program such as jq).
 */
function openLogs(ports: Pick<FanOutPorts, 'openLog'>, dir: string, profile: ClusterProfile): TargetLogs {
  const namespace = profile.metadata.namespace ?? ''
  const {name} = profile.metadata
  if (!isDnsSubdomain(namespace) || !isDnsSubdomain(name)) {
    throw new CpcredError(`${profileKey(profile)} is not a name that can be a file name, so it has no log`, {
      hint: 'Kubernetes names are DNS labels; check what the hub serves',
    })
  }
  const base = path.join(dir, namespace, name)
  const opened: TargetLog[] = []
  try {
    for (const suffix of ['log', 'stdout', 'stderr']) opened.push(ports.openLog(`${base}.${suffix}`))
  } catch (error) {
    // One that cannot be opened fails the target; those opened before it are closed.
    for (const file of opened) file.close()
    throw error
  }
  const [merged, stdout, stderr] = opened as [TargetLog, TargetLog, TargetLog]
  return {merged, stdout, stderr}
}

function closeLogs(logs: TargetLogs, result: TargetResult): void {
  const {merged} = logs
  if (result.error) merged.write(`cpcred: error: ${result.error}\n${result.hint ? `${result.hint}\n` : ''}`)
  else if (result.exitCode !== 0) merged.write(`cpcred: exit code ${result.exitCode}\n`)
  merged.close()
  logs.stdout.close()
  logs.stderr.close()
}

/** Every report is attempted; false when one could not be written (the CI job must fail then). */
export async function writeReports(
  ports: Pick<FanOutPorts, 'writeReport' | 'error'>,
  reports: ReportRequest[],
  report: FanOutReport,
): Promise<boolean> {
  let allWritten = true
  for (const {kind, file} of reports) {
    try {
      const content = kind === 'junit' ? renderJUnit(report) : renderJsonReport(report)
      await ports.writeReport(file, content)
    } catch (error) {
      if (!isCpcredError(error) && !(error instanceof Error && 'code' in error)) throw error
      ports.error(
        `could not write the ${kind} report ${file}: ${error.message}`,
        'check the path given to --report',
      )
      allWritten = false
    }
  }
  return allWritten
}
