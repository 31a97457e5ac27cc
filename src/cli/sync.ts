// `cpcred sync`: its flags, the selection they make, and how its outcome is shown
// (src/commands/sync.ts gives it help text).
import path from 'node:path'
import type {HubPort} from '../usecases/ports.js'
import type {KubeconfigFiles} from '../usecases/ports.js'
import type {Printer} from '../adapters/printer.js'
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
  outputFlag,
} from './flags.js'
import {healthSkips, isSelecting, placementInput} from './targets.js'
import {kubeconfigRequest} from './kubeconfig-request.js'
import {processWiring} from './wiring.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import {ExitCode, QuietExit, UsageError} from '../core/errors.js'
import {defaultMergeTarget, type KubectlCheck} from '../usecases/write-kubeconfig.js'
import {chosenShard} from './shard.js'
import type {FleetFollowInput} from '../usecases/follow-fleet.js'
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
  ...outputFlag(['text', 'json'], 'Summary format.'),
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
  if (flags['output-file'] === '-') {
    throw new UsageError(
      'sync keeps a file in step, and - (stdout) is not one',
      'for a kubeconfig on stdout: cpcred kubeconfig -l SELECTOR (or --all)',
    )
  }
  const wiring = processWiring()
  const {printer} = wiring
  const [{hub, providers}, kubeconfigFiles, preferences] = await Promise.all([
    wiring.session(flags),
    wiring.kubeconfigFiles(),
    wiring.kubectlPreferences(),
  ])
  const kubectl = {preferences, kuberc: flags.kuberc}
  const request = {
    ...kubeconfigRequest(flags, hub, providers),
    file: flags['output-file'] ? path.resolve(flags['output-file']) : defaultMergeTarget(),
    dryRun: flags['dry-run'],
    setCurrent: flags['set-current'],
    noDedupe: flags['no-dedupe'],
  }
  const selection: FleetFollowInput = {
    namespace: hub.config.namespace,
    allNamespaces: flags['all-namespaces'],
    selector: flags.selector,
    shard: chosenShard(flags.shard, true),
    ...placement,
  }
  if (flags.watch) {
    await watchAndSync(hub, kubeconfigFiles, request, selection, printer, flags.output, kubectl)
    return
  }
  const {selectFleet} = await import('../usecases/find-profiles.js')
  const {syncKubeconfig} = await import('../usecases/sync-kubeconfig.js')
  let failed: boolean
  try {
    const chosen = await selectFleet(hub, {refs: [], all: flags.all, ...selection})
    for (const line of healthSkips(chosen)) printer.note(line)
    // A reference no profile answers to is a skip in the plan, and fails the run.
    failed = chosen.unresolved.length > 0
    const {profiles} = chosen
    const unread = new Map(chosen.unresolved.map(({profile, error}) => [profile, error]))
    const scope = {
      namespace: flags['all-namespaces'] ? undefined : selection.namespace,
      selector: selection.selector,
      shard: selection.shard,
    }
    // Before anything is pruned: a selector that matches nothing would empty the file.
    checkMinTargets(profiles.length, flags['min-targets'], scope)
    if (profiles.length === 0) printer.note(noProfilesNote(scope))
    renderSyncOutcome(
      await syncKubeconfig(kubeconfigFiles, {...request, profiles, unread}, kubectl),
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

/** The plan on stdout for --dry-run (it is what was asked for), else a summary on stderr. */
export function renderSyncOutcome(
  outcome: SyncOutcome,
  request: Pick<SyncRequest, 'file' | 'dryRun'>,
  printer: Printer,
  output: Output,
): void {
  for (const warning of outcome.warnings) printer.warn(warning)
  for (const note of outcome.notes) printer.note(note)
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
 * has finished writing. One line per change (one JSON object per line with -o json); what the
 * selection left out is said when it changes.
 */
export async function watchAndSync(
  hub: HubPort,
  files: KubeconfigFiles,
  request: Omit<SyncRequest, 'profiles' | 'unread'>,
  selection: FleetFollowInput,
  printer: Printer,
  output: Output,
  kubectl?: KubectlCheck,
): Promise<void> {
  const {watchAndSync: follow} = await import('../usecases/sync-kubeconfig.js')
  // A profile skipped on every pass (a name clash, an unhealthy or unread one) is said again only
  // when what is said of it changes.
  let saidBefore = new Set<string>()
  const sayNew = (lines: string[], say: (line: string) => void) => {
    for (const line of lines) if (!saidBefore.has(line)) say(line)
  }
  const followed =
    selection.placement !== undefined
      ? `PlacementDecision "${selection.placement}" and the ClusterProfiles`
      : selection.placementKey !== undefined
        ? `the PlacementDecisions of placement-key "${selection.placementKey}" and the ClusterProfiles`
        : 'ClusterProfiles'
  try {
    await untilInterrupted(printer, (signal) =>
      follow(
        hub,
        files,
        request,
        selection,
        {signal},
        {
          onOutcome(outcome, first, chosen) {
            const leftOut = healthSkips(chosen)
            const lines = outcome.changes.map(describeChange)
            const skips = lines.filter((_, index) => outcome.changes[index]!.action === 'skip')
            if (first) {
              saidBefore = new Set([...skips, ...leftOut])
              for (const line of leftOut) printer.note(line)
              renderSyncOutcome(outcome, request, printer, output)
              if (output === 'text')
                printer.note(`watching ${followed} on ${hub.config.server} (Ctrl-C to stop)`)
              return
            }
            const stamp = new Date().toISOString()
            sayNew(leftOut, (line) => printer.note(`${stamp} ${line}`))
            outcome.changes.forEach((change, index) => {
              if (change.action === 'skip' && saidBefore.has(lines[index]!)) return
              if (output === 'json') printer.data(exportJsonLine({time: stamp, ...change}))
              else printer.note(`${stamp} ${describeChange(change)}`)
            })
            saidBefore = new Set([...skips, ...leftOut])
            if (outcome.currentContextPruned !== undefined)
              printer.warn(
                `the current context "${outcome.currentContextPruned}" was pruned; no context is current now`,
              )
          },
          onProblem: (message) => printer.warn(message),
        },
        kubectl,
      ),
    )
  } finally {
    await hub.close()
  }
}
