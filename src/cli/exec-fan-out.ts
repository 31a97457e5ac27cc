// `cpcred exec` on many targets (or on one, with --report, --output-dir or --quiet): each target's
// output goes to the prefixed stream, its log file and its report tail, as asked; the reports are
// written once every target has ended. Loaded only for a fan-out.
import path from 'node:path'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
// Kubernetes names are DNS labels and subdomains; anything else from the hub must not become a path.
import {isDnsSubdomain} from '../core/profiles/names.js'
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
import type {FanOutFormat} from '../adapters/fan-out-view.js'
import type {LogFile} from '../adapters/files.js'
import type {Printer} from '../adapters/printer.js'
import type {StdinCopies} from '../adapters/stdin-spool.js'
import type {ChildStdin} from '../usecases/ports.js'
import {execMany, type FanOutOutcome, type TargetOutput} from '../usecases/exec-many.js'
import type {ExecDeps, ExecInput} from '../usecases/exec-prepare.js'
import {wire} from './wiring.js'

export type ReportKind = 'junit' | 'json'

export interface ReportRequest {
  kind: ReportKind
  file: string
}

export interface FanOutRequest {
  parallel: number
  failFast: boolean
  format: FanOutFormat
  quiet: boolean
  outputDir?: string
  reports: ReportRequest[]
  /** --stdin: `copy` gives every target all of cpcred's stdin (unless it is a terminal). */
  stdin: 'copy' | 'none'
}

export async function runFanOut(
  deps: ExecDeps,
  input: ExecInput,
  profiles: ClusterProfile[],
  request: FanOutRequest,
  printer: Printer,
  notRun: TargetResult[] = [],
  order?: readonly string[],
): Promise<number> {
  const startedAt = new Date()
  const startedMs = performance.now()
  const wiring = wire()
  const {fanOutView, LogFile, makeDirectory, writeFileAtomic, spoolStdin} = await wiring.fanOutPorts()
  // Directories first: a CI job learns of a wrong path before any target runs.
  if (request.outputDir !== undefined) {
    makeDirectory(request.outputDir)
    const namespaces = new Set(profiles.map((profile) => profile.metadata.namespace ?? ''))
    for (const namespace of namespaces) {
      if (isDnsSubdomain(namespace)) makeDirectory(path.join(request.outputDir, namespace))
    }
  }
  for (const report of request.reports) makeDirectory(path.dirname(report.file))

  const view = fanOutView({
    profiles: profiles.map(profileKey),
    printer,
    chalk: await printer.paint(),
    format: request.format,
    quiet: request.quiet,
    streams: {get: (key) => captured.get(key), take: (key) => void captured.delete(key)},
  })
  const tails = new Map<string, OutputTail>()
  // Each target's stdout and stderr apart, for its record (-o) and the JSON report. Held to the end
  // for -o json|yaml and the report, so capped lower than for -o jsonl, which lets go as each ends.
  const held = request.format === 'json' || request.format === 'yaml' || request.reports.some(isJson)
  const captureCap = held ? HELD_CAP_BYTES : request.format === 'jsonl' ? STREAMED_CAP_BYTES : undefined
  const captured = new Map<string, TargetStreams>()
  const byKey = new Map(profiles.map((profile) => [profileKey(profile), profile]))
  const openOutput = (key: string): TargetOutput => {
    const logs =
      request.outputDir === undefined ? undefined : openLogs(LogFile, request.outputDir, byKey.get(key)!)
    const tail = request.reports.length ? new OutputTail() : undefined
    if (tail) tails.set(key, tail)
    const streams = captureCap === undefined ? undefined : targetStreams(captureCap)
    if (streams) captured.set(key, streams)
    const show = view.line
    const line =
      show || logs || tail || streams
        ? (stream: 'stdout' | 'stderr', text: string, newline?: boolean) => {
            show?.(key, stream, text)
            if (logs) {
              logs.merged.write(`${text}\n`)
              // The stream's own file as the command wrote it: a cut line is put back together.
              logs[stream].write(newline === false ? text : `${text}\n`)
            }
            tail?.push(text)
            streams?.[stream].push(text, newline !== false)
          }
        : undefined
    return {
      line,
      close(result) {
        if (!logs) return
        const {merged} = logs
        if (result.error)
          merged.write(`cpcred: error: ${result.error}\n${result.hint ? `${result.hint}\n` : ''}`)
        else if (result.exitCode !== 0) merged.write(`cpcred: exit code ${result.exitCode}\n`)
        merged.close()
        logs.stdout.close()
        logs.stderr.close()
      },
    }
  }

  // `cpcred exec --all -- … | head`: once the reader has gone, the targets stop, as kubectl would.
  const stop = wiring.interrupts.readerGone(printer)
  // `cat app.yaml | cpcred exec --all -- kubectl apply -f -`: every target reads all of it. A terminal
  // is never shared between targets.
  let stdinFailure: CpcredError | undefined
  const copies =
    request.stdin === 'copy' && !input.stdinIsTTY
      ? await spoolStdin(process.stdin, await deps.temp.pathFor('stdin'))
      : undefined
  void copies?.failure.then((error) => {
    stdinFailure = error
    stop.abort(error.message)
  })
  let outcome: FanOutOutcome
  try {
    outcome = await execMany(deps, input, profiles, {
      parallel: request.parallel,
      failFast: request.failFast,
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
  const results = inSelectionOrder([...outcome.results, ...notRun], order)
  // The reader went away while targets still ran: they were stopped, and cpcred ends as kubectl
  // would. One that goes after the last target ended changes nothing.
  const readerGone = stop.gone && outcome.stopped === true
  if (!readerGone) await view.finish(results, interrupted)
  const failed = results.some((result) => result.exitCode !== 0)
  const written = await writeReports(
    writeFileAtomic,
    request.reports,
    {
      program: path.basename(input.command[0]!),
      startedAt,
      durationMs: performance.now() - startedMs,
      targets: results.map((result: TargetResult) => ({
        result,
        output: tails.get(result.profile),
        streams: captured.get(result.profile),
      })),
    },
    printer,
  )
  if (stdinFailure) throw stdinFailure
  if (readerGone) throw new QuietExit(OUTPUT_CLOSED_EXIT_CODE)
  if (interrupted) return signalExitCode(interrupted)
  return failed || !written ? ExitCode.Failure : ExitCode.Success
}

/** One target's copy of the spooled stdin. */
function stdinCopy(copies: StdinCopies): () => ChildStdin {
  return () => {
    const given = copies.forTarget()
    return {stdio: given, started: (pipe) => copies.started(given, pipe)}
  }
}

const isJson = (report: ReportRequest) => report.kind === 'json'

/**
 * --output-dir's files for one target: NAME.log (both streams and cpcred's word on how it ended, as a
 * person reads them), NAME.stdout and NAME.stderr (each stream exactly, for a program such as jq).
 */
function openLogs(
  logFile: typeof LogFile,
  dir: string,
  profile: ClusterProfile,
): {merged: LogFile; stdout: LogFile; stderr: LogFile} {
  const namespace = profile.metadata.namespace ?? ''
  const {name} = profile.metadata
  if (!isDnsSubdomain(namespace) || !isDnsSubdomain(name)) {
    throw new CpcredError(`${profileKey(profile)} is not a name that can be a file name, so it has no log`, {
      hint: 'Kubernetes names are DNS labels; check what the hub serves',
    })
  }
  const base = path.join(dir, namespace, name)
  const opened: LogFile[] = []
  try {
    for (const suffix of ['log', 'stdout', 'stderr']) opened.push(logFile.open(`${base}.${suffix}`))
  } catch (error) {
    // One that cannot be opened fails the target; those opened before it are closed.
    for (const file of opened) file.close()
    throw error
  }
  const [merged, stdout, stderr] = opened as [LogFile, LogFile, LogFile]
  return {merged, stdout, stderr}
}

/** Every report is attempted; false when one could not be written (the CI job must fail then). */
async function writeReports(
  writeFileAtomic: (
    file: string,
    content: string,
    options: {mode: 'keep'; refuseSymlink: true},
  ) => Promise<unknown>,
  reports: ReportRequest[],
  report: FanOutReport,
  printer: Printer,
): Promise<boolean> {
  let allWritten = true
  for (const {kind, file} of reports) {
    try {
      const content = kind === 'junit' ? renderJUnit(report) : renderJsonReport(report)
      await writeFileAtomic(file, content, {mode: 'keep', refuseSymlink: true})
    } catch (error) {
      if (!isCpcredError(error) && !(error instanceof Error && 'code' in error)) throw error
      printer.error(
        `could not write the ${kind} report ${file}: ${error.message}`,
        'check the path given to --report',
      )
      allWritten = false
    }
  }
  return allWritten
}
