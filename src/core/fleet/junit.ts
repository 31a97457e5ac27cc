// A fan-out as JUnit XML, the format CI systems (GitHub reporters, GitLab, Jenkins) show test by
// test: one test case per target, the namespace as its class. It follows junit-10.xsd (the Jenkins
// xunit schema those reporters accept); no hostname, which the core does not know. Messages and output come from remote clusters: every string is made
// printable with the project's visible escapes (a raw ESC or CR would still act on a terminal that
// shows the file) and then entity-escaped, never wrapped in CDATA, so no output can end an element
// early or carry a character XML 1.0 cannot hold.
import {ExitCode} from '../errors.js'
import {
  REPORT_LAST_LINES,
  outcomeOf,
  splitProfile,
  type FanOutReport,
  type TargetReport,
  type TargetResult,
} from './fan-out-report.js'
import {humanDuration} from '../text/format.js'
import {printable, printableLines} from '../text/printable.js'

/** JUnit XML valid against the common junit-10.xsd (the Jenkins/Ant schema used by GitHub/GitLab reporters). */
export function renderJUnit(report: FanOutReport): string {
  return renderJUnitSuite({
    name: `cpcred ${report.command ?? 'exec'} ${report.program}`,
    durationMs: report.durationMs,
    startedAt: report.startedAt,
    cases: report.targets.map(targetCase),
  })
}

/** One test case: passed, or with a failure, an error or a skip, and what it wrote. */
export interface JUnitCase {
  classname: string
  name: string
  durationMs?: number
  failure?: {message: string; type: string; /** Lines shown in the element. */ body?: string}
  error?: {message: string; type: string}
  skipped?: {message: string}
  systemOut?: string
}

export interface JUnitSuite {
  name: string
  durationMs: number
  startedAt: Date
  cases: JUnitCase[]
}

/** A suite of test cases as JUnit XML (exec's targets, lint's profiles and rules). */
export function renderJUnitSuite(input: JUnitSuite): string {
  const suite = {
    name: input.name,
    tests: input.cases.length,
    failures: input.cases.filter((entry) => entry.failure).length,
    errors: input.cases.filter((entry) => entry.error).length,
  }
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({...suite, time: seconds(input.durationMs)})}>`,
    `  <testsuite${attributes({
      ...suite,
      skipped: input.cases.filter((entry) => entry.skipped).length,
      time: seconds(input.durationMs),
      timestamp: timestamp(input.startedAt),
    })}>`,
    ...input.cases.flatMap(caseLines),
    '  </testsuite>',
    '</testsuites>',
  ]
  return `${lines.join('\n')}\n`
}

function caseLines(entry: JUnitCase): string[] {
  const open = `    <testcase${attributes({classname: entry.classname, name: entry.name, time: seconds(entry.durationMs ?? 0)})}`
  const children: string[] = []
  if (entry.failure) {
    const failure = attributes({message: entry.failure.message, type: entry.failure.type}, ['message'])
    children.push(
      entry.failure.body === undefined
        ? `      <failure${failure}/>`
        : `      <failure${failure}>${text(entry.failure.body)}</failure>`,
    )
  }
  if (entry.error) children.push(`      <error${attributes(entry.error, ['message'])}/>`)
  if (entry.skipped) children.push(`      <skipped${attributes(entry.skipped, ['message'])}/>`)
  if (entry.systemOut !== undefined && entry.systemOut !== '')
    children.push(`      <system-out>${text(entry.systemOut)}</system-out>`)
  return children.length === 0 ? [`${open}/>`] : [`${open}>`, ...children, '    </testcase>']
}

function targetCase({result, output}: TargetReport): JUnitCase {
  const {namespace, name} = splitProfile(result.profile)
  const entry: JUnitCase = {
    classname: namespace,
    name,
    durationMs: result.durationMs,
    systemOut: output?.text(),
  }
  switch (outcomeOf(result)) {
    case 'passed':
      break
    case 'failed': {
      const last = output?.last(REPORT_LAST_LINES) ?? []
      entry.failure = {
        message: messageOf(result) ?? failureMessage(result),
        type: failureType(result),
        ...(last.length === 0 ? {} : {body: last.join('\n')}),
      }
      break
    }
    case 'error':
      entry.error = {
        message: messageOf(result) ?? `could not start (exit code ${result.exitCode})`,
        type: exitCodeClass(result.exitCode),
      }
      break
    case 'skipped':
      entry.skipped = {message: messageOf(result) ?? 'not started'}
      break
  }
  return entry
}

/** The error and what to do about it, the hint on a line of its own. */
function messageOf(result: TargetResult): string | undefined {
  if (result.error === undefined) return undefined
  return result.hint ? `${result.error}\n${result.hint}` : result.error
}

function failureType(result: TargetResult): string {
  if (result.timedOut) return 'timeout'
  if (result.signal !== undefined) return 'signal'
  return 'exit-code'
}

function failureMessage(result: TargetResult): string {
  if (result.timedOut) return `timed out after ${humanDuration(result.durationMs)}`
  if (result.signal !== undefined) return `killed by ${result.signal}`
  return `exit code ${result.exitCode}`
}

/** The ExitCode name of cpcred's exit code for a target that never started, in kebab case. */
function exitCodeClass(exitCode: number): string {
  const entry = Object.entries(ExitCode).find(([, code]) => code === exitCode)
  if (!entry) return `exit-code-${exitCode}`
  return entry[0].replace(/[a-z](?=[A-Z])/g, (letter) => `${letter}-`).toLowerCase()
}

/**
 * Seconds with 3 decimals, as junit-10.xsd's SUREFIRE_TIME allows (no sign, no exponent). Rounded to
 * whole milliseconds first, like the JSON report, so both show the same duration.
 */
function seconds(milliseconds: number): string {
  return (Number.isFinite(milliseconds) && milliseconds > 0 ? Math.round(milliseconds) / 1000 : 0).toFixed(3)
}

/** Ant's timestamp: ISO 8601 without a time zone; this one is UTC. */
function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19)
}

/** `multiline`: the attributes whose newlines are kept (messages); the others are one line. */
function attributes(values: Record<string, string | number>, multiline: readonly string[] = []): string {
  return Object.entries(values)
    .map(
      ([key, value]) =>
        ` ${key}="${multiline.includes(key) ? lines(String(value)) : attribute(String(value))}"`,
    )
    .join('')
}

/** One line: newlines and tabs shown as \n and \t too (a parser would fold them into spaces). */
function attribute(value: string): string {
  return escapeMarkup(xmlChars(printable(value)))
}

/**
 * Lines in an attribute, each made printable: a newline as the reference &#10;, which a parser
 * gives back as a newline (a raw one it would fold into a space).
 */
function lines(value: string): string {
  return text(value).replace(/\n/g, '&#10;')
}

/** Lines kept, each made printable. */
function text(value: string): string {
  return escapeMarkup(xmlChars(printableLines(value)))
}

/**
 * What printable leaves that XML 1.0 cannot carry: lone surrogates (in a u regex a surrogate range
 * matches only unpaired ones) and U+FFFE/U+FFFF, shown as \uXXXX like printable's escapes.
 */
function xmlChars(value: string): string {
  return value.replace(
    /[\uD800-\uDFFF\uFFFE\uFFFF]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (char) => MARKUP[char]!)
}

const MARKUP: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}
