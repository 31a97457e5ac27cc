// `cpcred get [PROFILE...] -- TYPE[,TYPE...] [NAME...] [kubectl get flags]`: exec's grammar, the
// profiles and cpcred's flags before --, kubectl get's own words after it; one table across the
// fleet (core/get/table.ts), or the objects (-o json|yaml as one List, -o jsonl as each target
// answers, -o name). src/commands/get.ts gives it help text; docs/get.md says the rules.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {UsageError} from '../core/errors.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {kindPrefix} from '../core/get/discovery.js'
import {fleetList, nameLine, type KubeObject, type TargetFailure} from '../core/get/objects.js'
import {GET_OUTPUTS, readGetItems, type GetQuery} from '../core/get/query.js'
import {DEFAULT_NAMESPACE} from '../core/get/request.js'
import {mergeTables, sortKey, tableLines, type SortKey, type TargetAnswer} from '../core/get/table.js'
import {compareValues, valueAt} from '../core/get/jsonpath.js'
import {exportData, exportJsonLine} from '../core/text/export.js'
import {isRecord} from '../core/json.js'
import type {ReportRequest} from '../usecases/exec-many.js'
import type {GetOutcome} from '../usecases/get.js'
import {parseReportRequest} from './report-flag.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  IMPERSONATION_FLAGS,
  MIN_TARGETS_FLAG,
  outputFlag,
  PLACEMENT_FLAGS,
  pipelineInput,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  VERBOSE_FLAG,
} from './flags.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import {isSelecting} from './targets.js'
import type {Wiring} from './wiring.js'

export const GET_USAGE = usageLine('get', '[PROFILE...] -- TYPE[,TYPE...] [NAME...]')

const GET_EXAMPLE = 'e.g. cpcred get -A -l env=prod -- pods -n kube-system'

/** cpcred's flags of `cpcred get`, before --: which profiles, and how they are reached. */
export const GET_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PLACEMENT_FLAGS,
  ...PROVIDER_FLAGS,
  parallel: {kind: 'integer', summary: 'How many targets are asked at once.', default: 16, min: 1},
  timeout: {
    kind: 'duration',
    summary: 'Give up on a target that has not answered in this long; its row says so (exit 1).',
  },
  report: {
    kind: 'string',
    summary: 'Write a report when all targets have answered: junit=FILE or json=FILE (repeatable).',
    multiple: true,
    helpGroup: 'CI',
  },
  ...MIN_TARGETS_FLAG,
  ...IMPERSONATION_FLAGS,
  ...CREDENTIAL_RUN_FLAGS,
  ...VERBOSE_FLAG,
} as const satisfies FlagTable

/** kubectl get's flags that cpcred reads after --, spelled as kubectl spells them. */
export const KUBECTL_GET_FLAGS = {
  namespace: {kind: 'string', char: 'n', summary: 'The namespace on every target (default: "default").'},
  'all-namespaces': {kind: 'boolean', char: 'A', summary: 'Every namespace of every target.'},
  selector: {
    kind: 'string',
    char: 'l',
    summary: 'Label selector, as kubectl get -l.',
    check: (selector) => checkLabelSelector(selector),
  },
  'field-selector': {kind: 'string', summary: 'Field selector, as kubectl get --field-selector.'},
  ...outputFlag(['text', ...GET_OUTPUTS], "kubectl's table (text), wide, name, json, yaml or jsonl."),
  'no-headers': {kind: 'boolean', summary: 'No header line.'},
  'sort-by': {kind: 'string', summary: 'A column (AGE) or a JSONPath (.metadata.name) to sort the rows by.'},
} as const satisfies FlagTable

export type GetFlags = FlagValues<typeof GET_FLAGS>

/** What the words of `cpcred get` (and CPCRED_SHARD) ask for. */
export interface GetRequest {
  /** The profiles named. */
  names: string[]
  flags: GetFlags
  /** kubectl get's words after --. */
  query: GetQuery
  /** --sort-by, read. */
  sortBy?: SortKey
  reports: ReportRequest[]
  shard: ShardChoice
}

/** The words of `cpcred get` (and CPCRED_SHARD), read and checked without the hub. */
export function parseGet(argv: string[], env: NodeJS.ProcessEnv = {}): GetRequest {
  const separator = argv.indexOf('--')
  if (separator === -1)
    throw new UsageError("kubectl get's words go after --", `${GET_USAGE}\n${GET_EXAMPLE}`)
  const {flags, positionals} = parseFlags(GET_FLAGS, argv.slice(0, separator), GET_USAGE)
  const after = parseFlags(KUBECTL_GET_FLAGS, argv.slice(separator + 1), GET_USAGE)
  const items = readGetItems(after.positionals, GET_USAGE)
  const kubectl = after.flags
  if (kubectl['all-namespaces'] && items.some((item) => item.name !== undefined))
    throw new UsageError('a resource cannot be retrieved by name across all namespaces', GET_USAGE)
  if (flags.timeout === 0)
    throw new UsageError(
      '--timeout 0s would give up on every target at once',
      'give a duration such as 30s or 2m',
    )
  const sortBy = kubectl['sort-by'] === undefined ? undefined : sortKey(kubectl['sort-by'])
  const reports = flags.report.map(parseReportRequest)
  return {
    names: positionals,
    flags,
    query: {
      items,
      namespace: kubectl.namespace,
      allNamespaces: kubectl['all-namespaces'],
      selector: kubectl.selector,
      fieldSelector: kubectl['field-selector'],
      output: kubectl.output === 'text' ? undefined : kubectl.output,
      noHeaders: kubectl['no-headers'],
      sortBy: kubectl['sort-by'],
    },
    sortBy,
    reports,
    shard: chooseShard(flags.shard, isSelecting(flags), env),
  }
}

/** Runs get; 0 when every target answered, else 1 (exec's rule for many targets). */
export async function runGet(wiring: Wiring, argv: string[]): Promise<number> {
  const request = parseGet(argv, wiring.env)
  const {flags, query} = request
  const {printer} = wiring
  const shard = sayShard(request.shard, printer)
  const {getCommand} = await import('../usecases/get.js')
  let recent: ReturnType<typeof wiring.recentProfiles> | undefined
  const recentProfiles = () => (recent ??= wiring.recentProfiles(hubSelection(flags), flags['api-version']))
  const streamed = query.output === 'jsonl'
  const outcome = await getCommand(
    {
      recentProfiles,
      providers: wiring.providers,
      plugins: wiring.plugins,
      store: (onProblem) => wiring.credentialStore(onProblem),
      answers: (store) => wiring.answers(store),
      federation: () => wiring.federation(async () => (await recentProfiles()).hubConfig()),
      notices: wiring.notices,
      targets: {
        openHub: async () =>
          wiring.targetHub(await (await recentProfiles()).hubConfig(), flags['api-version']),
        get pick() {
          return printer.interactive
            ? async (profiles: ClusterProfile[], message: string) =>
                (await wiring.picker()).pickProfiles(profiles, message, {
                  reachable: await wiring.reachability(pipelineInput(flags).providers),
                })
            : undefined
        },
        notices: wiring.notices,
      },
      apis: wiring.targetApis,
      discovery: wiring.discoveryCache(),
      now: () => performance.now(),
      date: () => new Date(),
      onObjects: streamed
        ? (_cluster, objects) => {
            for (const object of objects) printer.data(exportJsonLine(object))
          }
        : undefined,
      reportPorts: () => wiring.fanOutPorts(),
    },
    {
      targets: {
        names: request.names,
        selector: flags.selector,
        all: flags.all,
        allNamespaces: flags['all-namespaces'],
        shard,
        minTargets: flags['min-targets'],
        placement: flags.placement,
        placementKey: flags['placement-key'],
        healthy: flags.healthy,
        noDedupe: flags['no-dedupe'],
      },
      query,
      sortBy: request.sortBy,
      parallel: flags.parallel,
      timeoutMs: flags.timeout,
      reports: request.reports,
      as: flags.as,
      asGroups: flags['as-group'],
      stdinIsTTY: printer.stdinIsTTY,
      ...pipelineInput(flags),
    },
  )
  await render(printer, query, request.sortBy, outcome)
  return outcome.exitCode
}

type GetPrinter = Wiring['printer']

async function render(
  printer: GetPrinter,
  query: GetQuery,
  sortBy: SortKey | undefined,
  outcome: GetOutcome,
) {
  const failures: TargetFailure[] = outcome.failures.map(({cluster, error, exitCode}) => ({
    cluster,
    message: error,
    exitCode,
  }))
  switch (query.output) {
    case 'jsonl':
      // The objects went out as each target answered; what failed is said on stderr.
      for (const section of outcome.sections)
        for (const answer of section.answers)
          if (answer.error !== undefined) printer.error(`${answer.cluster}: ${answer.error}`)
      for (const failure of failures) printer.error(`${failure.cluster}: ${failure.message}`)
      return
    case 'json':
    case 'yaml': {
      const items: KubeObject[] = []
      for (const section of outcome.sections) {
        const objects = section.answers.flatMap((answer) => answer.objects ?? [])
        items.push(...sortObjects(objects, sortBy))
        for (const answer of section.answers)
          if (answer.error !== undefined)
            failures.push({cluster: answer.cluster, message: answer.error, exitCode: 1})
      }
      printer.data(await exportData(fleetList(items, failures), query.output))
      return
    }
    case 'name': {
      const lines: string[] = []
      for (const section of outcome.sections) {
        const {resource} = section
        for (const answer of section.answers) {
          if (answer.error !== undefined)
            failures.push({cluster: answer.cluster, message: answer.error, exitCode: 1})
          for (const row of answer.table?.rows ?? []) {
            const name = valueAt(row.object, ['metadata', 'name'])
            if (resource && typeof name === 'string') lines.push(nameLine(answer.cluster, resource, name))
          }
        }
      }
      if (lines.length > 0) printer.text(`${lines.join('\n')}\n`)
      for (const failure of failures) printer.error(`${failure.cluster}: ${failure.message}`)
      return
    }
    default:
      renderTables(printer, query, sortBy, outcome)
  }
}

/** The merged table of each resource, a blank line between them; the targets that failed as a whole after the last. */
function renderTables(
  printer: GetPrinter,
  query: GetQuery,
  sortBy: SortKey | undefined,
  outcome: GetOutcome,
) {
  const several = outcome.sections.length > 1
  const tables: string[][][] = []
  for (const section of outcome.sections) {
    const {resource} = section
    const answers: TargetAnswer[] = section.answers.map((answer) =>
      answer.error !== undefined || !answer.table
        ? {cluster: answer.cluster, error: answer.error ?? 'no table'}
        : {cluster: answer.cluster, table: answer.table},
    )
    const merged = mergeTables(answers, {
      wide: query.output === 'wide',
      withNamespace: query.allNamespaces && resource?.namespaced === true,
      kindPrefix: several && resource ? kindPrefix(resource) : undefined,
      sortBy,
    })
    const lines = tableLines(merged, query.noHeaders)
    if (lines.length > 0) tables.push(lines)
  }
  const failed = outcome.failures.map(({cluster, error}) => [cluster, `<error: ${error}>`])
  if (failed.length > 0) {
    if (tables.length > 0) tables[tables.length - 1]!.push(...failed)
    else tables.push(failed)
  }
  tables.forEach((rows, index) => {
    if (index > 0) printer.text('\n')
    printer.cells({rows, padding: 3, minWidth: 6})
  })
  if (tables.length === 0) {
    const namespaced = outcome.sections.some((section) => section.resource?.namespaced)
    printer.note(
      namespaced && !query.allNamespaces
        ? `No resources found in ${query.namespace ?? DEFAULT_NAMESPACE} namespace.`
        : 'No resources found',
    )
  }
}

/** -o json|yaml with --sort-by: the objects by the JSONPath (a column sorts only a table). */
function sortObjects(objects: KubeObject[], sortBy: SortKey | undefined): KubeObject[] {
  if (!sortBy || !('path' in sortBy)) return objects
  const path = sortBy.path
  return objects
    .map((object, index) => ({object, index, value: isRecord(object) ? valueAt(object, path) : undefined}))
    .sort((a, b) => compareValues(a.value, b.value) || a.index - b.index)
    .map(({object}) => object)
}
