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
  json: boolean
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
    json: request.json,
    quiet: request.quiet,
  })
  const tails = new Map<string, OutputTail>()
  const byKey = new Map(profiles.map((profile) => [profileKey(profile), profile]))
  const openOutput = (key: string): TargetOutput => {
    const log =
      request.outputDir === undefined ? undefined : openLog(LogFile, request.outputDir, byKey.get(key)!)
    const tail = request.reports.length ? new OutputTail() : undefined
    if (tail) tails.set(key, tail)
    const show = view.line
    const line =
      show || log || tail
        ? (stream: 'stdout' | 'stderr', text: string) => {
            show?.(key, stream, text)
            log?.write(`${text}\n`)
            tail?.push(text)
          }
        : undefined
    return {
      line,
      close(result) {
        if (!log) return
        if (result.error)
          log.write(`cpcred: error: ${result.error}\n${result.hint ? `${result.hint}\n` : ''}`)
        else if (result.exitCode !== 0) log.write(`cpcred: exit code ${result.exitCode}\n`)
        log.close()
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
  if (!readerGone) view.finish(results, interrupted)
  const failed = results.some((result) => result.exitCode !== 0)
  const written = await writeReports(
    writeFileAtomic,
    request.reports,
    {
      program: path.basename(input.command[0]!),
      startedAt,
      durationMs: performance.now() - startedMs,
      targets: results.map((result: TargetResult) => ({result, output: tails.get(result.profile)})),
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

function openLog(logFile: typeof LogFile, dir: string, profile: ClusterProfile): LogFile {
  const namespace = profile.metadata.namespace ?? ''
  const {name} = profile.metadata
  if (!isDnsSubdomain(namespace) || !isDnsSubdomain(name)) {
    throw new CpcredError(`${profileKey(profile)} is not a name that can be a file name, so it has no log`, {
      hint: 'Kubernetes names are DNS labels; check what the hub serves',
    })
  }
  return logFile.open(path.join(dir, namespace, `${name}.log`))
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
