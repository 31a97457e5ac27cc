// `cpcred list`: run from the fast-path bundle, like `credential` and `exec`; oclif alone took about
// 100 ms of a listing. src/commands/list.ts gives it help text.
import {ExitCode, QuietExit, UsageError} from '../core/errors.js'
import {PAGE_SIZE} from '../usecases/list-profiles.js'
import type {ListOutcome} from '../usecases/list.js'
import type {Wiring} from './wiring.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  ALL_NAMESPACES_FLAG,
  HUB_FLAGS,
  outputFlag,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  SELECTOR_FLAG,
  SHARD_FLAG,
} from './flags.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import {LIST_FORMATS, LIST_PRESENTERS} from './list-output.js'
import {placementInput, sayLeftOut} from './targets.js'

export const LIST_USAGE = usageLine('list', '')

/** The flags of `cpcred list`, read by this fast path and by the oclif class for help. */
export const LIST_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...SELECTOR_FLAG,
  ...SHARD_FLAG,
  ...PLACEMENT_FLAGS,
  healthy: {
    ...PLACEMENT_FLAGS.healthy,
    summary:
      'Only profiles whose ControlPlaneHealthy condition is True; the others are named on stderr as skipped, with why (stdout keeps the listing alone, with -o json|yaml too).',
  },
  'cluster-manager': {
    kind: 'string',
    summary: 'Only profiles managed by this cluster manager (spec.clusterManager.name).',
  },
  clusterset: {
    kind: 'string',
    summary:
      "Only profiles of this clusterset: their clusterset.k8s.io property, or their namespace's legacy label (removed from KEP-4322; a warning says when only the label selected them).",
  },
  usable: {kind: 'boolean', summary: 'Only profiles that a provider of your provider file can reach.'},
  // What list shows anyway; taken so that a selection written for exec, kubeconfig or sync lists too.
  all: {
    kind: 'boolean',
    summary: 'Every profile in the namespace (or in all namespaces with -A): what list shows without it too.',
  },
  'chunk-size': {
    kind: 'integer',
    summary: 'Return large lists in chunks of this many profiles.',
    default: PAGE_SIZE,
    min: 1,
  },
  ...outputFlag(LIST_FORMATS),
  watch: {
    kind: 'boolean',
    char: 'w',
    summary:
      'After the listing, print a row (or with -o json an object per line) for each change, until interrupted.',
  },
  ...PROVIDER_FLAGS,
} as const satisfies FlagTable

/** What the words of `cpcred list` ask for. */
export interface ListRequest {
  flags: FlagValues<typeof LIST_FLAGS>
  placement: string | undefined
  placementKey: string | undefined
  shard: ShardChoice
}

/** The words of `cpcred list` (and CPCRED_SHARD), read and checked without the hub. */
export function parseList(argv: string[], env: NodeJS.ProcessEnv = {}): ListRequest {
  const {flags, positionals} = parseFlags(LIST_FLAGS, argv, LIST_USAGE)
  if (positionals.length > 0) {
    throw new UsageError(
      `list takes no arguments, got ${positionals.map((arg) => JSON.stringify(arg)).join(' ')}`,
      'select with -n, -A and -l; to see one profile: cpcred describe NAME',
    )
  }
  const {placement, placementKey} = placementInput(flags, 0)
  const byPlacement = placement !== undefined || placementKey !== undefined
  if (byPlacement && flags.watch) {
    throw new UsageError(
      '--watch follows profiles, not PlacementDecisions',
      'list --placement without -w; to follow a fleet: cpcred list -l SELECTOR -w',
    )
  }
  return {flags, placement, placementKey, shard: chooseShard(flags.shard, true, env)}
}

export async function runList(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, placement, placementKey, ...request} = parseList(argv, wiring.env)
  const {listCommand} = await import('../usecases/list.js')
  const {printer} = wiring
  const shard = sayShard(request.shard, printer)
  const {hub, providers} = await wiring.session(flags)
  const namespace = flags['all-namespaces'] ? undefined : hub.config.namespace
  const view = await LIST_PRESENTERS[flags.output](printer, {
    namespace,
    selector: flags.selector,
    shard,
    watch: flags.watch,
  })
  const input = {
    namespace,
    labelSelector: flags.selector,
    clusterManager: flags['cluster-manager'],
    clusterset: flags.clusterset,
    readClustersets: view.readsClustersets,
    providers: providers.providers,
    usableOnly: flags.usable,
    pageSize: flags['chunk-size'],
    shard,
    healthyOnly: flags.healthy,
  }
  if (flags.watch) {
    const {followUntilInterrupted} = await import('./list-watch.js')
    await followUntilInterrupted(hub, input, view, wiring)
    return
  }
  let outcome: ListOutcome
  try {
    outcome = await listCommand(
      {hub, notices: wiring.notices},
      {...input, placement, placementKey, placementNamespace: hub.config.namespace},
    )
  } finally {
    await hub.close()
  }
  sayLeftOut(outcome, printer)
  view.all(outcome.listing)
  // A reference no profile answers to was said as a warning, and fails the listing.
  if (outcome.exitCode !== ExitCode.Success) throw new QuietExit(outcome.exitCode)
}
