import {Command} from '@oclif/core'
import path from 'node:path'
import {kubeconfigFiles} from '../adapters/kubeconfig-files.js'
import {processPrinter} from '../adapters/printer.js'
import {parseFlags, usageLine, type FlagTable} from '../cli/flag-table.js'
import {
  HUB_FLAGS,
  KUBECONFIG_ENTRY_FLAGS,
  MIN_TARGETS_FLAG,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
} from '../cli/flags.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import {kubeconfigRequest} from '../cli/kubeconfig-request.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {openSession} from '../cli/session.js'
import {renderSyncOutcome, syncSelection, watchAndSync} from '../cli/sync.js'
import {UsageError} from '../core/errors.js'
import {defaultMergeTarget} from '../usecases/write-kubeconfig.js'

const SYNC_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
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

export default class Sync extends Command {
  static override summary =
    'Keep a kubeconfig in step with the inventory: add, update and prune what cpcred wrote.'
  static override description = `Adds a context, cluster and user for every selected profile a provider of your provider file can reach, updates those whose profile changed (server, CA, extensions, provider), and prunes those whose profile is gone, no longer selected or no longer reachable.

Only entries cpcred wrote for this hub are touched: cpcred marks each one with a kubeconfig extension naming the hub and the profile. An entry you wrote is never changed, even under the same name: sync says so and skips that profile. The current context is changed only with --set-current; if it is pruned, sync says so and leaves it unset.

The file is written once, atomically, under the same lock as 'cpcred kubeconfig --merge', through symlinks, keeping its mode; and not at all when nothing changed. --watch keeps following the hub with the watch API and applies each change within moments, surviving watch expiry, dropped connections and hub restarts.`
  static override examples = [
    '<%= config.bin %> sync -A --all --dry-run',
    '<%= config.bin %> sync -n fleet-prod -l env=prod',
    '<%= config.bin %> sync -A --all --mode cpcred --output-file ~/.kube/fleet --watch',
    '<%= config.bin %> sync -A --all -o json',
  ]
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(SYNC_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(SYNC_FLAGS, this.argv, SYNC_USAGE)
    if (positionals.length > 0) {
      throw new UsageError(
        `sync takes no arguments, got ${positionals.map((arg) => JSON.stringify(arg)).join(' ')}`,
        'select with -n, -A, -l and --all',
      )
    }
    if (!flags.all && flags.selector === undefined) {
      throw new UsageError(
        'say which profiles to keep in step',
        'use --all (every profile in the namespace, or in all namespaces with -A) or -l SELECTOR',
      )
    }
    if (flags['output-file'] === '-') {
      throw new UsageError(
        'sync keeps a file in step, and - (stdout) is not one',
        'for a kubeconfig on stdout: cpcred kubeconfig -l SELECTOR (or --all)',
      )
    }
    const printer = processPrinter()
    const {hub, providers} = await openSession(flags, printer)
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
    try {
      const {profiles} = await listProfiles(hub, selection)
      const scope = {
        namespace: selection.namespace,
        selector: selection.labelSelector,
        shard: selection.shard,
      }
      // Before anything is pruned: a selector that matches nothing would empty the file.
      checkMinTargets(profiles.length, flags['min-targets'], scope)
      if (profiles.length === 0) printer.note(noProfilesNote(scope))
      renderSyncOutcome(
        await syncKubeconfig(kubeconfigFiles, {...request, profiles}),
        request,
        printer,
        flags.output,
      )
    } finally {
      await hub.client.close()
    }
  }
}
