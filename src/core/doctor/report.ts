// How a `cpcred doctor` run is shown: text for people (one line per check, a hint under each failure,
// or one line per profile for many), and JSON for CI with a stable schema. The printer makes the
// text printable; the JSON goes out exactly as built here.
import {exitCodeOf, overallStatus, type CheckId, type CheckResult, type CheckStatus} from './checks.js'
import type {Cells} from '../text/format.js'
import {UNICODE_GLYPHS} from '../text/glyphs.js'

/** hub: no profile given; profile: one profile, every check shown; fleet: -A/-l/--all, a line per profile. */
export type DoctorMode = 'hub' | 'profile' | 'fleet'

export interface ProfileReport {
  /** namespace/name. */
  profile: string
  checks: CheckResult[]
  /** Checks not done because nothing asked for them (target-can without --can), and how to ask. */
  notDone?: NotDone[]
}

export interface NotDone {
  id: CheckId
  why: string
}

export interface DoctorReport {
  mode: DoctorMode
  /** The hub and the provider file (and, for a fleet, which profiles were selected). */
  checks: CheckResult[]
  profiles: ProfileReport[]
}

/** 0 when nothing failed, else the class of the first failure, hub first, then profile by profile. */
export function doctorExitCode(report: DoctorReport): number {
  return exitCodeOf([...report.checks, ...report.profiles.flatMap((profile) => profile.checks)])
}

/** `-o json`. Every key is always present (hint is null when there is none), so CI can rely on the shape. */
export interface DoctorJson {
  checks: CheckJson[]
  profiles: {profile: string; status: CheckStatus; checks: CheckJson[]; notDone: NotDone[]}[]
  exitCode: number
}

export interface CheckJson {
  id: string
  status: CheckStatus
  detail: string
  hint: string | null
}

export function doctorJson(report: DoctorReport): DoctorJson {
  return {
    checks: report.checks.map(checkJson),
    profiles: report.profiles.map((profile) => ({
      profile: profile.profile,
      status: overallStatus(profile.checks),
      checks: profile.checks.map(checkJson),
      notDone: profile.notDone ?? [],
    })),
    exitCode: doctorExitCode(report),
  }
}

function checkJson(result: CheckResult): CheckJson {
  return {id: result.id, status: result.status, detail: result.detail, hint: result.hint ?? null}
}

export type StatusSymbols = Record<CheckStatus, string>

/** For a terminal. */
export const UNICODE_SYMBOLS: StatusSymbols = {
  ok: UNICODE_GLYPHS.ok,
  warn: '!',
  fail: UNICODE_GLYPHS.fail,
  skip: '-',
}
/** For logs and pipes: words that grep finds and any encoding shows. */
export const ASCII_SYMBOLS: StatusSymbols = {ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip'}

export interface RenderedReport {
  cells: Cells
  /** The status shown on each row (its first cell is the symbol), for colour. */
  statuses: (CheckStatus | undefined)[]
}

export function renderDoctorReport(report: DoctorReport, symbols: StatusSymbols): RenderedReport {
  const out = new ReportWriter(symbols)
  const checks =
    report.mode === 'fleet' ? report.checks : [...report.checks, ...report.profiles.flatMap((p) => p.checks)]
  for (const result of checks) out.check(result)
  out.notChecked(checks)
  if (report.mode !== 'fleet') {
    const notDone = report.profiles.flatMap((profile) => profile.notDone ?? [])
    out.notDone(notDone)
    out.line(chainSummary(checks, doctorExitCode(report), notDone))
    return out.done()
  }
  if (report.profiles.length > 0) {
    out.line('')
    out.row(undefined, ['', 'PROFILE', 'CHECK', 'DETAIL'])
    for (const profile of report.profiles) {
      const {status, id, detail} = profileLine(profile.checks)
      out.row(status, [symbols[status], profile.profile, id, oneLine(detail)])
    }
  }
  // Each check not done once, however many profiles left it out.
  const notDone = new Map(
    report.profiles.flatMap((profile) => profile.notDone ?? []).map((left) => [left.id, left]),
  )
  out.notDone([...notDone.values()])
  out.line(fleetSummary(report))
  return out.done()
}

/** A profile in one line: its first failure, else its first warning, else who the target says you are. */
function profileLine(checks: CheckResult[]): {status: CheckStatus; id: string; detail: string} {
  const status = overallStatus(checks)
  const shown =
    checks.find((check) => check.status === status && status !== 'ok') ??
    checks.find((check) => check.id === 'target-auth')
  if (!shown) return {status, id: '', detail: 'all checks pass'}
  return {status, id: status === 'ok' ? '' : shown.id, detail: shown.detail}
}

function chainSummary(checks: CheckResult[], exitCode: number, notDone: NotDone[]): string {
  const counts = countStatuses(checks)
  const firstFailure = checks.find((check) => check.status === 'fail')
  if (firstFailure) {
    return (
      `The chain breaks at ${firstFailure.id}: ${counts.fail} failed, ${counts.warn} with warnings, ` +
      `${counts.skip} not checked (exit code ${exitCode}).`
    )
  }
  const passed = counts.ok + counts.warn
  const left = notDone.length ? `; not done: ${notDone.map((check) => check.id).join(', ')}` : ''
  return counts.warn === 0
    ? `All ${passed} checks pass${left}.`
    : `All ${passed} checks pass, ${counts.warn} with warnings${left}.`
}

function fleetSummary(report: DoctorReport): string {
  const hubFailure = report.checks.find((check) => check.status === 'fail')
  if (hubFailure) return `The chain breaks at ${hubFailure.id} (exit code ${doctorExitCode(report)}).`
  const statuses = report.profiles.map((profile) => overallStatus(profile.checks))
  const failing = statuses.filter((status) => status === 'fail' || status === 'skip').length
  const warned = statuses.filter((status) => status === 'warn').length
  const summary =
    `${report.profiles.length} profile${report.profiles.length === 1 ? '' : 's'}: ` +
    `${statuses.length - failing} pass${warned ? ` (${warned} with warnings)` : ''}, ${failing} fail`
  return failing === 0
    ? `${summary}.`
    : `${summary} (exit code ${doctorExitCode(report)}). For the whole chain of one: cpcred doctor NAMESPACE/NAME`
}

function countStatuses(checks: CheckResult[]): Record<CheckStatus, number> {
  const counts = {ok: 0, warn: 0, fail: 0, skip: 0}
  for (const check of checks) counts[check.status]++
  return counts
}

/** A detail of several lines (a plugin's stderr) in one: its first line and its last, which says most. */
function oneLine(text: string): string {
  const lines = text.split('\n')
  return lines.length === 1 ? text : `${lines[0]} ${lines.at(-1)}`
}

class ReportWriter {
  private readonly rows: string[][] = []
  private readonly statuses: (CheckStatus | undefined)[] = []

  constructor(private readonly symbols: StatusSymbols) {}

  row(status: CheckStatus | undefined, cells: string[]): void {
    this.rows.push(cells)
    this.statuses.push(status)
  }

  line(text: string): void {
    this.row(undefined, [text])
  }

  /** A check that ran: its detail (a plugin's stderr may add lines) and the hint under it. */
  check(result: CheckResult): void {
    if (result.status === 'skip') return
    const [first, ...more] = result.detail.split('\n')
    this.row(result.status, [this.symbols[result.status], result.id, first!])
    for (const line of more) this.row(undefined, ['', '', line])
    if (result.hint) this.row(undefined, ['', '', `hint: ${result.hint}`])
  }

  /** The checks that did not run, on one line: each needs a link that broke. */
  notChecked(checks: CheckResult[]): void {
    const skipped = checks.filter((check) => check.status === 'skip').map((check) => check.id)
    if (skipped.length === 0) return
    this.row('skip', [this.symbols.skip, `not checked (they need a link that broke): ${skipped.join(', ')}`])
  }

  notDone(notDone: NotDone[]): void {
    for (const {id, why} of notDone) this.row('skip', [this.symbols.skip, `not done: ${id} (${why})`])
  }

  done(): RenderedReport {
    return {cells: {rows: this.rows, padding: 2, minWidth: 0}, statuses: this.statuses}
  }
}
