// Linting an inventory: the per-profile rules (rules.ts), then what only the inventory shows, its
// duplicates by member id, explained by the one folding rule consumers apply
// (core/fleet/member-fold.ts: the oldest acts, none when the oldest tie). An inventory is the
// profiles of one namespace (KEP-4322), so the report is one section per namespace.
import {duplicatesOf, type MemberFold} from '../fleet/member-fold.js'
import {profileKey, type ClusterProfile} from '../profiles/cluster-profile.js'
import {inventoriesOf} from '../profiles/inventories.js'
import {checkProfile, findingOf, type ProfileContext} from './checks.js'
import {LINT_RULES, SEVERITIES, atOrAbove, type LintFinding, type Severity} from './rules.js'

export type SeverityCounts = Record<Severity, number>

/** A member id several profiles of one inventory carry: which acts, which are ignored, what to delete. */
export interface DuplicateExplanation {
  memberId: string
  /** NAMESPACE/NAME of each, oldest first. */
  profiles: string[]
  /** The oldest, which consumers act on; absent when the oldest tie. */
  acting?: string
  /** The oldest, created at the same time: consumers act on none of them. */
  tied: string[]
  /** Newer than the oldest: consumers ignore them. */
  ignored: string[]
  /** Why, in a sentence. */
  reason: string
  /** What the platform admin should delete so that one profile is left. */
  delete: string[]
}

export interface InventoryReport {
  /** The inventory: its namespace. */
  namespace: string
  /** How many profiles were linted in it. */
  profiles: number
  counts: SeverityCounts
  findings: LintFinding[]
  duplicates: DuplicateExplanation[]
}

export interface LintReport {
  profiles: number
  counts: SeverityCounts
  inventories: InventoryReport[]
}

/** What the inventory lint needs beyond the profiles: each namespace's legacy clusterset label. */
export interface InventoryContext {
  namespaceClustersets?: ReadonlyMap<string, {clusterset: string; label: string}>
  /**
   * checkProfile's findings already made for some profiles, by NAMESPACE/NAME, with the same
   * context (their namespace's label): a listing checks each page as it arrives.
   */
  checked?: ReadonlyMap<string, LintFinding[]>
}

const RULE_ORDER = new Map<string, number>(LINT_RULES.map((rule, index) => [rule.id, index]))
/** localeCompare's order, with the collator made once, not once per comparison of 10,000s. */
const byName = new Intl.Collator().compare

export function noCounts(): SeverityCounts {
  return {error: 0, 'will-break': 0, warning: 0}
}

/** Every rule on every profile; the profiles grouped into inventories by namespace. */
export function lintInventories(profiles: ClusterProfile[], context: InventoryContext = {}): LintReport {
  const inventories = inventoriesOf(profiles).map(({namespace, profiles: members}) =>
    lintInventory(
      namespace,
      members,
      {namespaceClusterset: context.namespaceClustersets?.get(namespace)},
      context.checked,
    ),
  )
  const counts = noCounts()
  for (const inventory of inventories)
    for (const severity of SEVERITIES) counts[severity] += inventory.counts[severity]
  return {profiles: profiles.length, counts, inventories}
}

function lintInventory(
  namespace: string,
  profiles: ClusterProfile[],
  context: ProfileContext,
  checked: ReadonlyMap<string, LintFinding[]> = new Map(),
): InventoryReport {
  const byKey = new Map(profiles.map((profile) => [profileKey(profile), profile]))
  const folds = duplicatesOf(profiles)
  const duplicates = new Map<string, LintFinding[]>()
  for (const fold of folds)
    for (const finding of duplicateFindings(fold, byKey)) {
      const key = `${finding.namespace}/${finding.profile}`
      duplicates.set(key, [...(duplicates.get(key) ?? []), finding])
    }
  // The findings by profile name, then in the rules' order. The profiles are sorted, not the
  // findings: a hub lists them sorted already, and a fleet has twice as many findings as profiles.
  const findings: LintFinding[] = []
  for (const profile of [...profiles].sort((a, b) => byName(a.metadata.name, b.metadata.name))) {
    const key = profileKey(profile)
    const own = checked.get(key) ?? checkProfile(profile, context)
    const more = duplicates.get(key)
    if (more === undefined) findings.push(...own)
    else findings.push(...[...own, ...more].sort((a, b) => RULE_ORDER.get(a.rule)! - RULE_ORDER.get(b.rule)!))
  }
  const counts = noCounts()
  for (const finding of findings) counts[finding.severity]++
  return {namespace, profiles: profiles.length, counts, findings, duplicates: folds.map(explain)}
}

const MEMBER_FIELD = 'metadata.labels["multicluster.x-k8s.io/inventory-member-id"]'

function duplicateFindings(fold: MemberFold, byKey: Map<string, ClusterProfile>): LintFinding[] {
  const explanation = explain(fold)
  const created = fold.oldestCreated ?? 'at an unknown time'
  const findings: LintFinding[] = []
  const profileOf = (key: string) => byKey.get(key)!
  if (fold.kept !== undefined) {
    findings.push(
      findingOf(profileOf(fold.kept), 'member-id-duplicate', {
        field: MEMBER_FIELD,
        found: `acts for member cluster "${fold.memberId}" as the oldest (created ${created}); ${fold.folded.join(', ')} ${fold.folded.length === 1 ? 'is' : 'are'} ignored`,
        fix: `delete ${explanation.delete.join(', ')}, or give ${fold.folded.length === 1 ? 'it' : 'them'} the member id of the cluster ${fold.folded.length === 1 ? 'it stands' : 'they stand'} for`,
      }),
    )
  }
  for (const tied of fold.tied) {
    const others = fold.tied.filter((other) => other !== tied)
    findings.push(
      findingOf(profileOf(tied), 'member-id-duplicate-tie', {
        field: MEMBER_FIELD,
        found: `member cluster "${fold.memberId}": the oldest, ${fold.tied.join(' and ')}, were created at the same time (${created}), so consumers act on none of them`,
        fix: `keep one and delete the others (e.g. delete ${others.join(', ')})`,
      }),
    )
  }
  const oldest = fold.kept ?? fold.tied.join(' and ')
  for (const folded of fold.folded) {
    findings.push(
      findingOf(profileOf(folded), 'member-id-duplicate', {
        field: MEMBER_FIELD,
        found: `ignored: ${oldest}, older (created ${created}), stands for member cluster "${fold.memberId}"`,
        fix: `delete ${folded}, or give it the member id of the cluster it stands for`,
      }),
    )
  }
  return findings
}

/** Which profile acts for a member id and why, which are ignored, and what to delete. */
export function explain(fold: MemberFold): DuplicateExplanation {
  const created = fold.oldestCreated ?? 'at an unknown time'
  const reason =
    fold.kept !== undefined
      ? `${fold.kept} is the oldest (created ${created}): consumers act on it and ignore the newer ${fold.folded.join(', ')}`
      : `the oldest, ${fold.tied.join(' and ')}, were created at the same time (${created}): consumers act on none of them${fold.folded.length ? ` and ignore the newer ${fold.folded.join(', ')}` : ''}`
  return {
    memberId: fold.memberId,
    profiles: fold.profiles,
    ...(fold.kept !== undefined ? {acting: fold.kept} : {}),
    tied: fold.tied,
    ignored: fold.folded,
    reason,
    // Keeping the oldest changes nothing for consumers; with a tie, keeping the first named is a choice.
    delete: fold.kept !== undefined ? fold.folded : [...fold.tied.slice(1), ...fold.folded],
  }
}

/** Whether findings at or above `failOn` remain: lint's exit 1. */
export function failsAt(report: LintReport, failOn: Severity): boolean {
  return SEVERITIES.some((severity) => atOrAbove(severity, failOn) && report.counts[severity] > 0)
}
