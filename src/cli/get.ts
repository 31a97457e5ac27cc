// `cpcred get [PROFILE...] -- TYPE[,TYPE...] [NAME...] [kubectl get flags]`: exec's grammar, the
// profiles and cpcred's flags before --, kubectl get's own words after it; one table across the
// fleet (core/get/table.ts), or the objects (-o json|yaml as one List, -o jsonl as each target
// answers, -o name). src/commands/get.ts gives it help text; docs/get.md says the rules.
import {UsageError} from '../core/errors.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {readGetItems, type GetItem, type GetQuery} from '../core/get/query.js'
import {sortKey, type SortKey} from '../core/get/table.js'
import {GET_FORMATS, GET_PRESENTERS, type GetFormat} from './get-output.js'
import type {ReportRequest} from '../usecases/exec-many.js'
import {parseReportRequest} from './report-flag.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
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
import {runFront} from './run-to-exit.js'
import type {Wiring} from './wiring.js'
import {targetRunPorts, targetSelection} from './target-run.js'

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
  ...outputFlag(GET_FORMATS, "kubectl's table (text), wide, name, json, yaml or jsonl."),
  'no-headers': {kind: 'boolean', summary: 'No header line.'},
  'sort-by': {kind: 'string', summary: 'A column (AGE) or a JSONPath (.metadata.name) to sort the rows by.'},
  watch: {
    kind: 'boolean',
    char: 'w',
    summary:
      'After the first table, print a row (-o name a name, -o jsonl an object) per change on every target, until interrupted.',
  },
} as const satisfies FlagTable

export type GetFlags = FlagValues<typeof GET_FLAGS>

/** What the words of `cpcred get` (and CPCRED_SHARD) ask for. */
export interface GetRequest {
  /** The profiles named. */
  names: string[]
  flags: GetFlags
  /** kubectl get's words after --. */
  query: GetQuery
  /** -o: how the outcome is shown (cli/get-output.ts). */
  format: GetFormat
  /** --sort-by, read. */
  sortBy?: SortKey
  reports: ReportRequest[]
  shard: ShardChoice
  /** --watch: the first answer, then each change. */
  watch: boolean
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
  if (kubectl.watch) checkWatch(items, kubectl.output, flags.report.length > 0)
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
      shape: GET_PRESENTERS[kubectl.output].shape,
      noHeaders: kubectl['no-headers'],
      sortBy: kubectl['sort-by'],
    },
    format: kubectl.output,
    sortBy,
    reports,
    shard: chooseShard(flags.shard, isSelecting(flags), env),
    watch: kubectl.watch,
  }
}

/** --watch follows one type's list in a format shown a change at a time, as kubectl get -w does. */
function checkWatch(items: GetItem[], format: GetFormat, reports: boolean): void {
  const types = new Set(items.map((item) => item.resource))
  if (types.size > 1)
    throw new UsageError(
      `--watch follows one resource type, got ${[...types].join(', ')}`,
      'watch each type in a cpcred get of its own',
    )
  if (items.some((item) => item.name !== undefined))
    throw new UsageError(
      '--watch follows a list, not objects named',
      'select with -l or --field-selector (e.g. --field-selector metadata.name=NAME)',
    )
  if (!GET_PRESENTERS[format].watch)
    throw new UsageError(
      `--watch does not print -o ${format}`,
      `--watch prints ${GET_FORMATS.filter((each) => GET_PRESENTERS[each].watch)
        .map((each) => (each === 'text' ? 'the table' : `-o ${each}`))
        .join(', ')}`,
    )
  if (reports)
    throw new UsageError('--watch does not end, so it writes no --report', 'drop --report or --watch')
}

/**
 * dist/fast/get.cjs's entry (the router sends `get` here): no oclif on the way, whose start cost a
 * warm one-target get more than the rest of its run.
 */
export function run(argv: string[]): void {
  runFront(runGet, argv)
}

/** Runs get; 0 when every target answered, else 1 (exec's rule for many targets). */
export async function runGet(wiring: Wiring, argv: string[]): Promise<number> {
  const request = parseGet(argv, wiring.env)
  const {flags, query} = request
  const {printer} = wiring
  const shard = sayShard(request.shard, printer)
  const presenter = GET_PRESENTERS[request.format]
  const ports = {
    ...targetRunPorts(wiring, flags),
    apis: wiring.targetApis,
    discovery: wiring.discoveryCache(),
    now: () => performance.now(),
    date: () => new Date(),
    onObjects: presenter.streamed?.(printer),
    reportPorts: () => wiring.fanOutPorts(),
  }
  const input = {
    targets: targetSelection(request.names, flags, shard),
    query,
    sortBy: request.sortBy,
    parallel: flags.parallel,
    timeoutMs: flags.timeout,
    reports: request.reports,
    as: flags.as,
    asGroups: flags['as-group'],
    stdinIsTTY: printer.stdinIsTTY,
    ...pipelineInput(flags),
  }
  const view = {query, sortBy: request.sortBy}
  if (request.watch) {
    const [{getWatchCommand}, {untilInterrupted}] = await Promise.all([
      import('../usecases/get-watch.js'),
      import('./interrupt.js'),
    ])
    const watchView = presenter.watch!(printer, view)
    return untilInterrupted(wiring, (signal) =>
      getWatchCommand({...ports, view: watchView}, {...input, signal}),
    )
  }
  const {getCommand} = await import('../usecases/get.js')
  const outcome = await getCommand(ports, input)
  await presenter.show(printer, outcome, view)
  return outcome.exitCode
}
