// `cpcred lint`: an inventory checked against KEP-4322 and cluster-inventory-api's v1alpha2 and
// conformance rules (src/core/lint/rules.ts), for a platform admin at a terminal or in CI.
import type {Printer} from '../adapters/printer.js'
import {UsageError} from '../core/errors.js'
import {SEVERITIES, type LintFinding, type Severity} from '../core/lint/rules.js'
import {failsAt, type InventoryReport, type SeverityCounts} from '../core/lint/lint.js'
import type {ReportRequest} from '../usecases/exec-many.js'
import {parseProfileRef, type ProfileRef} from '../usecases/profile-ref.js'
import type {LintOutcome} from '../usecases/lint.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {ALL_NAMESPACES_FLAG, DOCUMENT_OUTPUT_FLAG, HUB_FLAGS, SELECTOR_FLAG, hubSelection} from './flags.js'
import {present} from './present.js'
import {parseReportRequest} from './report-flag.js'
import {runFront} from './run-to-exit.js'
import type {Wiring} from './wiring.js'

export const LINT_USAGE = usageLine('lint', '[PROFILE...]')

/** The flags of `cpcred lint`. */
export const LINT_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...SELECTOR_FLAG,
  ...DOCUMENT_OUTPUT_FLAG,
  'fail-on': {
    kind: 'option',
    summary: 'Exit 1 when a finding of this severity or a higher one remains (error > will-break > warning).',
    options: SEVERITIES,
    default: 'error',
    helpGroup: 'CI',
  },
  report: {
    kind: 'string',
    summary:
      'Write a report: junit=FILE (a test case per profile and rule, failing at --fail-on) or json=FILE (as -o json) (repeatable).',
    multiple: true,
    helpGroup: 'CI',
  },
} as const satisfies FlagTable

/** What the words of `cpcred lint` ask for. */
export interface LintRequest {
  flags: FlagValues<typeof LINT_FLAGS>
  refs: ProfileRef[]
  failOn: Severity
  reports: ReportRequest[]
}

/** The words of `cpcred lint`, read and checked without the hub. */
export function parseLint(argv: string[], _env: NodeJS.ProcessEnv = {}): LintRequest {
  const {flags, positionals} = parseFlags(LINT_FLAGS, argv, LINT_USAGE)
  const refs = positionals.map(parseProfileRef)
  if (refs.length > 0 && flags.selector !== undefined) {
    throw new UsageError(
      'lint takes profile names or -l, not both',
      'name the profiles, or select them with -l (in -n NAMESPACE, or everywhere with -A)',
    )
  }
  return {
    flags,
    refs,
    failOn: flags['fail-on'],
    reports: flags.report.map(parseReportRequest),
  }
}

/**
 * dist/fast/lint.cjs's entry (the router's): a CI job lints 10,000 profiles as fast as it lists them,
 * without oclif's start, which cost lint more than its rules did.
 */
export function run(argv: string[]): void {
  runFront(runLint, argv)
}

export async function runLint(wiring: Wiring, argv: string[]): Promise<number> {
  const {flags, refs, failOn, reports} = parseLint(argv, wiring.env)
  const [{lintCommand}, reportFiles, hub] = await Promise.all([
    import('../usecases/lint.js'),
    wiring.reportFiles(),
    wiring.openHub(hubSelection(flags)),
  ])
  const {printer} = wiring
  let outcome: LintOutcome
  try {
    outcome = await lintCommand(
      {
        hub,
        reports: reportFiles,
        error: (message, hint) => printer.error(message, hint),
        now: () => new Date(),
      },
      {
        refs,
        namespace: hub.config.namespace,
        allNamespaces: flags['all-namespaces'],
        selector: flags.selector,
        failOn,
        reports,
      },
    )
  } finally {
    await hub.close()
  }
  const {lintData} = await import('../usecases/lint.js')
  await present(printer, flags.output, outcome, {
    text: (result) => printLint(result, printer),
    data: (result) => lintData(result.report, result.failOn),
  })
  return outcome.exitCode
}

/** The report for people: a section per inventory (namespace), a finding per profile and rule. */
export function printLint(outcome: LintOutcome, printer: Pick<Printer, 'text'>): void {
  const {report, failOn} = outcome
  const lines: string[] = []
  for (const inventory of report.inventories) lines.push(...inventoryLines(inventory), '')
  const inventories = `${report.inventories.length} ${report.inventories.length === 1 ? 'inventory' : 'inventories'}`
  lines.push(
    report.profiles === 0
      ? 'no profiles to lint'
      : `${plural(report.profiles, 'profile')} in ${inventories}: ${countsText(report.counts)}; ${
          failsAt(report, failOn) ? `failing at --fail-on ${failOn}` : `passing at --fail-on ${failOn}`
        }`,
  )
  printer.text(`${lines.join('\n')}\n`)
}

function inventoryLines(inventory: InventoryReport): string[] {
  const lines = [
    `inventory ${inventory.namespace} (namespace ${inventory.namespace}): ${plural(inventory.profiles, 'profile')}, ${countsText(inventory.counts)}`,
  ]
  const rules = rulesOf(inventory.findings)
  for (const finding of inventory.findings) {
    lines.push(
      `  ${finding.profile}  ${finding.severity}  ${finding.rule}  ${finding.field}: ${finding.found}`,
    )
    if (rules.get(finding.rule)!.fix === undefined) lines.push(`      fix: ${finding.fix}`)
  }
  // What to do and why, once per rule: a fleet breaks one rule on thousands of profiles.
  if (rules.size > 0) lines.push('  by rule:')
  for (const [rule, {count, fix, source}] of rules) {
    lines.push(
      `    ${rule} (${plural(count, 'finding')})`,
      `      fix:    ${fix ?? 'as said for each profile above'}`,
      `      source: ${source}`,
    )
  }
  if (inventory.duplicates.length > 0) lines.push('  duplicates by inventory-member-id:')
  for (const duplicate of inventory.duplicates) {
    lines.push(`    member cluster "${duplicate.memberId}": ${duplicate.reason}`)
    if (duplicate.delete.length > 0) lines.push(`      delete: ${duplicate.delete.join(', ')}`)
  }
  return lines
}

interface RuleSummary {
  count: number
  /** The fix every finding of the rule shares; undefined when it differs from profile to profile. */
  fix: string | undefined
  source: string
}

/** The rules `findings` break, in the order first seen. */
function rulesOf(findings: LintFinding[]): Map<string, RuleSummary> {
  const rules = new Map<string, RuleSummary>()
  for (const {rule, fix, source} of findings) {
    const summary = rules.get(rule)
    if (!summary) rules.set(rule, {count: 1, fix, source})
    else {
      summary.count++
      if (summary.fix !== fix) summary.fix = undefined
    }
  }
  return rules
}

function countsText(counts: SeverityCounts): string {
  return SEVERITIES.map((severity) => plural(counts[severity], severity)).join(', ')
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 || word === 'will-break' ? '' : 's'}`
}
