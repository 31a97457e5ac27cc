// `cpcred lint`: the profiles selected as every fan-out selects them (names, -l, or all of the
// namespace or of every namespace with -A), checked against upstream's rules (core/lint/), grouped
// into inventories by namespace; the reports CI reads; exit 1 when findings at or above --fail-on
// remain.
import {ExitCode, isCpcredError} from '../core/errors.js'
import {renderJUnitSuite, type JUnitCase} from '../core/fleet/junit.js'
import {lintInventories, failsAt, type LintReport} from '../core/lint/lint.js'
import {checkProfile} from '../core/lint/checks.js'
import {LINT_RULES, atOrAbove, type LintFinding, type Severity} from '../core/lint/rules.js'
import {exportData} from '../core/text/export.js'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {inventoryOf} from '../core/profiles/inventories.js'
import {selectProfiles, type ProfileRef} from './find-profiles.js'
import type {ReportRequest} from './exec-many.js'
import type {ProfileFinder, ProfileRepository, ReportFiles} from './ports.js'
import path from 'node:path'

export interface LintPorts {
  hub: ProfileFinder & Pick<ProfileRepository, 'clustersetOf'>
  reports: ReportFiles
  /** A report that could not be written is said, and fails the run. */
  error(message: string, hint: string): void
  /** The wall clock: when the JUnit report says the run started, and how long it took. */
  now(): Date
}

export interface LintInput {
  refs: ProfileRef[]
  /** The namespace a bare name and an empty selection look in (-n or the context's). */
  namespace: string
  /** -A: every namespace. */
  allNamespaces: boolean
  selector?: string
  failOn: Severity
  reports: ReportRequest[]
}

export interface LintOutcome {
  report: LintReport
  failOn: Severity
  exitCode: ExitCode
}

export async function lintCommand(ports: LintPorts, input: LintInput): Promise<LintOutcome> {
  const startedAt = ports.now()
  // A wrong report path fails before the hub is read, as exec's does.
  for (const {file} of input.reports) ports.reports.makeDirectory(path.dirname(file))
  const early = pageChecks(ports)
  const profiles = await selectProfiles(ports.hub, {
    refs: input.refs,
    namespace: input.namespace,
    allNamespaces: input.allNamespaces,
    selector: input.selector,
    // No names and no selector: the whole namespace (or every namespace), as list shows it.
    all: input.refs.length === 0 && input.selector === undefined,
    onPage: early.check,
  })
  const report = lintInventories(profiles, await early.settle(profiles))
  let exitCode: ExitCode = failsAt(report, input.failOn) ? ExitCode.Failure : ExitCode.Success
  const durationMs = ports.now().getTime() - startedAt.getTime()
  for (const request of input.reports) {
    try {
      const content =
        request.kind === 'junit'
          ? renderJUnitSuite({
              name: 'cpcred lint',
              durationMs,
              startedAt,
              cases: junitCases(report, profiles, input.failOn),
            })
          : await exportData(lintData(report, input.failOn), 'json')
      await ports.reports.writeReport(request.file, content)
    } catch (error) {
      if (!isCpcredError(error) && !(error instanceof Error && 'code' in error)) throw error
      ports.error(
        `could not write the ${request.kind} report ${request.file}: ${error.message}`,
        'check the path given to --report',
      )
      exitCode = ExitCode.Failure
    }
  }
  return {report, failOn: input.failOn, exitCode}
}

type ClustersetLabel = {clusterset: string; label: string}

/**
 * The per-profile rules run on each page of a listing as it arrives, while the hub reads the next
 * (what only the whole inventory shows, duplicates, waits for the end): on 10,000 profiles the
 * rules' time then hides under the hub's. Each namespace's legacy clusterset label (KEP-4322 no
 * longer defines it) is read once, when its first profile is seen; one that cannot be read counts as
 * unlabelled, so a consumer allowed to read profiles alone still lints.
 */
function pageChecks(ports: LintPorts) {
  const labels = new Map<string, Promise<ClustersetLabel | undefined>>()
  const labelOf = (namespace: string) => {
    let label = labels.get(namespace)
    if (label === undefined) {
      label = ports.hub.clustersetOf(namespace).catch(() => undefined)
      labels.set(namespace, label)
    }
    return label
  }
  /** The labels of the namespaces of `profiles`, those that have one. */
  const labelsOf = async (profiles: ClusterProfile[]) => {
    const namespaces = [...new Set(profiles.map(inventoryOf))]
    const read = await Promise.all(namespaces.map(async (namespace) => [namespace, await labelOf(namespace)]))
    return new Map(read.filter((entry): entry is [string, ClustersetLabel] => entry[1] !== undefined))
  }
  const checked = new Map<string, LintFinding[]>()
  let pages: Promise<void> = Promise.resolve()
  return {
    check(profiles: ClusterProfile[]): void {
      const labelled = labelsOf(profiles)
      pages = pages.then(async () => {
        const namespaceClustersets = await labelled
        for (const profile of profiles) {
          const namespaceClusterset = namespaceClustersets.get(inventoryOf(profile))
          checked.set(profileKey(profile), checkProfile(profile, {namespaceClusterset}))
        }
      })
    },
    /** The pages' checks done, and the label of every namespace linted (named profiles' too). */
    async settle(profiles: ClusterProfile[]) {
      await pages
      return {namespaceClustersets: await labelsOf(profiles), checked}
    },
  }
}

/** What -o json|yaml and --report json=FILE show. */
export function lintData(report: LintReport, failOn: Severity) {
  return {
    failOn,
    profiles: report.profiles,
    counts: report.counts,
    inventories: report.inventories,
  }
}

/**
 * A test case per profile and rule, the inventory (namespace) as its class: a finding at or above
 * --fail-on fails it; one below passes with the finding as its output.
 */
function junitCases(report: LintReport, profiles: ClusterProfile[], failOn: Severity): JUnitCase[] {
  const findings = new Map<string, LintFinding>()
  for (const inventory of report.inventories)
    for (const finding of inventory.findings)
      findings.set(`${finding.namespace}/${finding.profile}\u0000${finding.rule}`, finding)
  const sorted = [...profiles].sort(
    (a, b) =>
      (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  )
  return sorted.flatMap((profile) =>
    LINT_RULES.map((rule): JUnitCase => {
      const namespace = profile.metadata.namespace ?? ''
      const finding = findings.get(`${namespace}/${profile.metadata.name}\u0000${rule.id}`)
      const entry: JUnitCase = {classname: namespace, name: `${profile.metadata.name} ${rule.id}`}
      if (finding === undefined) return entry
      const message = `${finding.field}: ${finding.found}\n${finding.fix}`
      if (atOrAbove(finding.severity, failOn))
        return {...entry, failure: {message, type: finding.severity, body: `source: ${finding.source}`}}
      return {...entry, systemOut: `${finding.severity}: ${message}\nsource: ${finding.source}`}
    }),
  )
}
