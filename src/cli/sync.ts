// `cpcred sync`: its flags, the selection they make, and how its outcome is shown
// (src/commands/sync.ts gives it help text).
import path from 'node:path'
import type {HubPort} from '../usecases/ports.js'
import type {KubeconfigFiles} from '../usecases/ports.js'
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {describeChange, type SyncChange} from '../core/kubeconfig/sync.js'
import {describeFold} from '../core/fleet/member-fold.js'
import {exportJson, exportJsonLine} from '../core/text/export.js'
import {untilInterrupted} from './interrupt.js'
import {parseFlags, usageLine, type FlagTable} from './flag-table.js'
import {
  HUB_FLAGS,
  KUBECONFIG_ENTRY_FLAGS,
  MIN_TARGETS_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
} from './flags.js'
import {isSelecting, placementInput, sayLeftOut} from './targets.js'
import {kubeconfigRequest} from './kubeconfig-request.js'
import {wire} from './wiring.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import {ExitCode, QuietExit, UsageError} from '../core/errors.js'
import {defaultMergeTarget} from '../usecases/write-kubeconfig.js'
import {chosenShard} from './shard.js'
import type {ListProfilesInput} from '../usecases/list-profiles.js'
import type {SyncOutcome, SyncRequest} from '../usecases/sync-kubeconfig.js'

type Output = 'text' | 'json'

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
  output: {kind: 'option', char: 'o', summary: 'Summary format.', options: ['text', 'json'], default: 'text'},
} as const satisfies FlagTable

const SYNC_USAGE = usageLine('sync', '')

/** `cpcred sync`: one pass, or --watch until interrupted. */
export async function runSync(argv: string[]): Promise<void> {
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
  const byPlacement = placement.placement !== undefined || placement.placementKey !== undefined
  if (flags.watch && (byPlacement || placement.healthy)) {
    throw new UsageError(
      '--watch follows -l and --all; it does not follow PlacementDecisions or health yet',
      'run sync --placement (or --healthy) again when the decisions change, e.g. from the scheduler or a timer',
    )
  }
  if (flags['output-file'] === '-') {
    throw new UsageError(
      'sync keeps a file in step, and - (stdout) is not one',
      'for a kubeconfig on stdout: cpcred kubeconfig -l SELECTOR (or --all)',
    )
  }
  const wiring = wire()
  const {printer} = wiring
  const [{hub, providers}, kubeconfigFiles] = await Promise.all([
    wiring.session(flags),
    wiring.kubeconfigFiles(),
  ])
  const request = {
    ...kubeconfigRequest(flags, hub, providers),
    file: flags['output-file'] ? path.resolve(flags['output-file']) : defaultMergeTarget(),
    dryRun: flags['dry-run'],
    setCurrent: flags['set-current'],
    noDedupe: flags['no-dedupe'],
  }
  const selection = syncSelection(flags, hub)
  if (flags.watch) {
    await watchAndSync(hub, kubeconfigFiles, request, selection, printer, flags.output)
    return
  }
  const {listProfiles} = await import('../usecases/list-profiles.js')
  const {syncKubeconfig} = await import('../usecases/sync-kubeconfig.js')
  let failed = false
  try {
    let profiles: ClusterProfile[]
    let unread: Map<string, string> | undefined
    if (byPlacement || placement.healthy) {
      const {selectFleet} = await import('../usecases/find-profiles.js')
      const chosen = await selectFleet(hub, {
        refs: [],
        selector: flags.selector,
        all: flags.all,
        namespace: hub.config.namespace,
        allNamespaces: flags['all-namespaces'],
        shard: selection.shard,
        ...placement,
      })
      if (sayLeftOut(chosen, printer)) failed = true
      profiles = chosen.profiles
      unread = new Map(chosen.unresolved.map(({profile, error}) => [profile, error]))
    } else profiles = (await listProfiles(hub, selection)).profiles
    const scope = {
      namespace: selection.namespace,
      selector: selection.labelSelector,
      shard: selection.shard,
    }
    // Before anything is pruned: a selector that matches nothing would empty the file.
    checkMinTargets(profiles.length, flags['min-targets'], scope)
    if (profiles.length === 0) printer.note(noProfilesNote(scope))
    renderSyncOutcome(
      await syncKubeconfig(kubeconfigFiles, {...request, profiles, unread}),
      request,
      printer,
      flags.output,
    )
  } finally {
    await hub.close()
  }
  // A reference no profile answers to keeps its entry, and fails the run: never a silent drop.
  if (failed) throw new QuietExit(ExitCode.Failure)
}

export type SyncSelection = Pick<ListProfilesInput, 'namespace' | 'labelSelector' | 'shard'>

/** What sync keeps in step (it always selects with -l or --all). */
export function syncSelection(
  flags: {'all-namespaces': boolean; selector?: string; shard?: string},
  hub: HubPort,
): SyncSelection {
  return {
    namespace: flags['all-namespaces'] ? undefined : hub.config.namespace,
    labelSelector: flags.selector,
    shard: chosenShard(flags.shard, true),
  }
}

/** The plan on stdout for --dry-run (it is what was asked for), else a summary on stderr. */
export function renderSyncOutcome(
  outcome: SyncOutcome,
  request: Pick<SyncRequest, 'file' | 'dryRun'>,
  printer: Printer,
  output: Output,
): void {
  for (const warning of outcome.warnings) printer.warn(warning)
  if (output === 'text') for (const fold of outcome.folds) printer.note(describeFold(fold))
  if (output === 'json') {
    printer.data(exportJson(outcomeData(outcome, request)))
    return
  }
  for (const change of outcome.changes) {
    if (request.dryRun) printer.text(`${describeChange(change)}\n`)
    else printer.note(describeChange(change))
  }
  if (outcome.currentContextPruned !== undefined) {
    printer.note(
      `the current context "${outcome.currentContextPruned}" was pruned, so no context is current now; choose one with: kubectl config use-context NAME`,
    )
  }
  printer.note(summary(outcome, request))
}

function summary(outcome: SyncOutcome, request: Pick<SyncRequest, 'file' | 'dryRun'>): string {
  const counts = (['add', 'update', 'prune', 'skip'] as const).map((action) => {
    const count = outcome.changes.filter((change) => change.action === action).length
    return `${count} ${{add: 'added', update: 'updated', prune: 'pruned', skip: 'skipped'}[action]}`
  })
  if (request.dryRun) return `dry run, ${request.file} not changed: ${counts.join(', ')}`
  if (outcome.wrote) return `Wrote ${request.file}: ${counts.join(', ')}`
  return `${request.file} is in step with the inventory${outcome.changes.length ? ` (${counts.at(-1)})` : ''}`
}

function outcomeData(outcome: SyncOutcome, request: Pick<SyncRequest, 'file' | 'dryRun'>) {
  return {
    file: request.file,
    dryRun: request.dryRun,
    changed: outcome.changed,
    wrote: outcome.wrote,
    changes: outcome.changes.map((change: SyncChange) => ({...change, name: change.name || undefined})),
    ...(outcome.folds.length ? {folds: outcome.folds} : {}),
    ...(outcome.currentContextPruned === undefined
      ? {}
      : {currentContextPruned: outcome.currentContextPruned}),
  }
}

/**
 * `--watch`: runs until SIGINT or SIGTERM, which end it cleanly (exit 0) once the pass under way
 * has finished writing. One line per change (one JSON object per line with -o json).
 */
export async function watchAndSync(
  hub: HubPort,
  files: KubeconfigFiles,
  request: Omit<SyncRequest, 'profiles'>,
  selection: SyncSelection,
  printer: Printer,
  output: Output,
): Promise<void> {
  const {watchAndSync: follow} = await import('../usecases/sync-kubeconfig.js')
  // A profile skipped for a name clash is skipped on every pass: say it again only when it changes.
  let skippedBefore = new Set<string>()
  try {
    await untilInterrupted(printer, (signal) =>
      follow(
        hub,
        files,
        request,
        {...selection, signal},
        {
          onOutcome(outcome, first) {
            if (first) {
              skippedBefore = new Set(
                outcome.changes.filter((change) => change.action === 'skip').map(describeChange),
              )
              renderSyncOutcome(outcome, request, printer, output)
              if (output === 'text')
                printer.note(`watching ClusterProfiles on ${hub.config.server} (Ctrl-C to stop)`)
              return
            }
            const lines = outcome.changes.map(describeChange)
            const skipped = new Set(lines.filter((_, index) => outcome.changes[index]!.action === 'skip'))
            const fresh = outcome.changes.filter(
              (change, index) => change.action !== 'skip' || !skippedBefore.has(lines[index]!),
            )
            skippedBefore = skipped
            for (const change of fresh) {
              if (output === 'json') printer.data(exportJsonLine({time: new Date().toISOString(), ...change}))
              else printer.note(`${new Date().toISOString()} ${describeChange(change)}`)
            }
            if (outcome.currentContextPruned !== undefined)
              printer.warn(
                `the current context "${outcome.currentContextPruned}" was pruned; no context is current now`,
              )
          },
          onProblem: (message) => printer.warn(message),
        },
      ),
    )
  } finally {
    await hub.close()
  }
}
