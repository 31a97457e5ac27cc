// `cpcred sync`: its flags, the selection they make, and how its outcome is shown
// (src/commands/sync.ts gives it help text).
import path from 'node:path'
import type {HubPort} from '../usecases/ports.js'
import {SYNC_FORMATS, SYNC_PRESENTERS, type SyncPresenter} from './sync-output.js'
import {untilInterrupted} from './interrupt.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  HUB_FLAGS,
  KUBECONFIG_ENTRY_FLAGS,
  MIN_TARGETS_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  outputFlag,
} from './flags.js'
import {healthSkips, isSelecting, placementInput} from './targets.js'
import {kubeconfigRequest} from './kubeconfig-request.js'
import type {Wiring} from './wiring.js'
import {ExitCode, QuietExit, UsageError} from '../core/errors.js'
import {defaultMergeTarget} from '../usecases/write-kubeconfig.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import type {FleetFollowInput} from '../usecases/follow-fleet.js'
import type {SyncOutcome, SyncWatchInput, SyncWatchPorts, WatchedPass} from '../usecases/sync-kubeconfig.js'

export const SYNC_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PLACEMENT_FLAGS,
  ...PROVIDER_FLAGS,
  ...KUBECONFIG_ENTRY_FLAGS,
  ...MIN_TARGETS_FLAG,
  'output-file': {
    kind: 'string',
    summary: 'The kubeconfig to keep in step (default: the first KUBECONFIG file, else ~/.kube/config).',
  },
  'set-current': {kind: 'boolean', summary: 'Make the first selected profile the current context.'},
  'dry-run': {
    kind: 'boolean',
    summary: 'Print the plan (+ add, ~ update, - prune, ! skip) and change nothing.',
  },
  watch: {
    kind: 'boolean',
    char: 'w',
    summary: 'Keep following the hub (watch API) and apply each change, until interrupted.',
    exclusive: ['dry-run'],
  },
  ...outputFlag(SYNC_FORMATS, 'Summary format.'),
} as const satisfies FlagTable

const SYNC_USAGE = usageLine('sync', '')

/** What the words of `cpcred sync` ask for. */
export interface SyncRequest {
  flags: FlagValues<typeof SYNC_FLAGS>
  placement: ReturnType<typeof placementInput>
  shard: ShardChoice
}

/** The words of `cpcred sync` (and CPCRED_SHARD), read and checked without the hub or a file. */
export function parseSync(argv: string[], env: NodeJS.ProcessEnv = {}): SyncRequest {
  const {flags, positionals} = parseFlags(SYNC_FLAGS, argv, SYNC_USAGE)
  if (positionals.length > 0) {
    throw new UsageError(
      `sync takes no arguments, got ${positionals.map((arg) => JSON.stringify(arg)).join(' ')}`,
      'select with -n, -A, -l, --all or --placement',
    )
  }
  if (!isSelecting(flags)) {
    throw new UsageError(
      'say which profiles to keep in step',
      'use --all (every profile in the namespace, or in all namespaces with -A), -l SELECTOR or --placement NAME',
    )
  }
  const placement = placementInput(flags, 0)
  if (flags['output-file'] === '-') {
    throw new UsageError(
      'sync keeps a file in step, and - (stdout) is not one',
      'for a kubeconfig on stdout: cpcred kubeconfig -l SELECTOR (or --all)',
    )
  }
  return {flags, placement, shard: chooseShard(flags.shard, true, env)}
}

/** `cpcred sync`: one pass, or --watch until interrupted. */
export async function runSync(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, placement, ...request} = parseSync(argv, wiring.env)
  const {printer} = wiring
  const [{hub, providers}, files, preferences] = await Promise.all([
    wiring.session(flags),
    wiring.kubeconfigFiles(),
    wiring.kubectlPreferences(),
  ])
  const kubectl = {preferences, kuberc: flags.kuberc}
  const pass = {
    ...kubeconfigRequest(flags, hub, providers),
    providers: providers.required(),
    file: flags['output-file'] ? path.resolve(flags['output-file']) : defaultMergeTarget(),
    dryRun: flags['dry-run'],
    setCurrent: flags['set-current'],
    noDedupe: flags['no-dedupe'],
  }
  const selection: FleetFollowInput = {
    namespace: hub.config.namespace,
    allNamespaces: flags['all-namespaces'],
    selector: flags.selector,
    shard: sayShard(request.shard, printer),
    ...placement,
  }
  if (flags.watch) {
    await watchAndSync({hub, files, kubectl}, {selection, pass}, wiring, SYNC_PRESENTERS[flags.output])
    return
  }
  const {syncCommand} = await import('../usecases/sync-kubeconfig.js')
  let outcome: SyncOutcome
  try {
    outcome = await syncCommand(
      {hub, files, kubectl},
      {selection: {...selection, all: flags.all}, minTargets: flags['min-targets'], pass},
    )
  } finally {
    await hub.close()
  }
  for (const line of healthSkips(outcome.healthSkipped)) printer.note(line)
  if (outcome.noProfiles !== undefined) printer.note(outcome.noProfiles)
  if (outcome.error !== undefined) throw outcome.error
  if (outcome.pass) SYNC_PRESENTERS[flags.output].pass(outcome.pass, pass, printer)
  if (outcome.exitCode !== ExitCode.Success) throw new QuietExit(outcome.exitCode)
}

/**
 * `--watch`: runs until SIGINT or SIGTERM, which end it cleanly (exit 0) once the pass under way
 * has finished writing. One line per change (one JSON object per line with -o json); what the
 * selection left out is said when it changes.
 */
async function watchAndSync(
  ports: Pick<SyncWatchPorts, 'hub' | 'files' | 'kubectl'> & {hub: HubPort},
  input: Omit<SyncWatchInput, 'signal'>,
  wiring: Pick<Wiring, 'printer' | 'interrupts' | 'heap'>,
  presenter: SyncPresenter,
): Promise<void> {
  const {syncWatchCommand} = await import('../usecases/sync-kubeconfig.js')
  const {printer} = wiring
  const {hub} = ports
  const {selection} = input
  // It keeps the selection and its kubeconfig for hours, and each pass leaves garbage behind.
  const heap = await wiring.heap()
  heap.keepNearLive()
  const followed =
    selection.placement !== undefined
      ? `PlacementDecision "${selection.placement}" and the ClusterProfiles`
      : selection.placementKey !== undefined
        ? `the PlacementDecisions of placement-key "${selection.placementKey}" and the ClusterProfiles`
        : 'ClusterProfiles'
  const showPass = ({first, outcome, healthSkipped, changes}: WatchedPass) => {
    if (first) {
      // Past the first pass, the one the user waits for, memory counts for more than speed.
      heap.keepSmall()
      for (const line of healthSkips(healthSkipped)) printer.note(line)
      presenter.pass(outcome, input.pass, printer)
      presenter.watching(followed, hub.config.server, printer)
      return
    }
    const stamp = new Date().toISOString()
    for (const line of healthSkips(healthSkipped)) printer.note(`${stamp} ${line}`)
    for (const change of changes) presenter.change(change, stamp, printer)
    if (outcome.currentContextPruned !== undefined)
      printer.warn(
        `the current context "${outcome.currentContextPruned}" was pruned; no context is current now`,
      )
  }
  try {
    await untilInterrupted(wiring, (signal) =>
      syncWatchCommand(
        {...ports, onPass: showPass, onProblem: (message) => printer.warn(message)},
        {...input, signal},
      ),
    )
  } finally {
    await hub.close()
  }
}
