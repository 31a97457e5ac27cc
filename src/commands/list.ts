import {Command} from '@oclif/core'
import {processPrinter} from '../adapters/printer.js'
import {followUntilInterrupted} from '../cli/list-watch.js'
import {listPrinter} from '../cli/list-output.js'
import type {FlagTable} from '../cli/flag-table.js'
import {
  ALL_NAMESPACES_FLAG,
  HUB_FLAGS,
  OUTPUT_FLAG,
  PROVIDER_FLAGS,
  SELECTOR_FLAG,
  SHARD_FLAG,
} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {openSession} from '../cli/session.js'
import {chosenShard} from '../cli/shard.js'
import {listProfiles, PAGE_SIZE} from '../usecases/list-profiles.js'

const LIST_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...SELECTOR_FLAG,
  ...SHARD_FLAG,
  'cluster-manager': {
    kind: 'string',
    summary: 'Only profiles managed by this cluster manager (spec.clusterManager.name).',
  },
  clusterset: {kind: 'string', summary: 'Only profiles in namespaces of this clusterset.'},
  usable: {kind: 'boolean', summary: 'Only profiles that a provider of your provider file can reach.'},
  'chunk-size': {
    kind: 'integer',
    summary: 'Return large lists in chunks of this many profiles.',
    default: PAGE_SIZE,
    min: 1,
  },
  ...OUTPUT_FLAG,
  watch: {
    kind: 'boolean',
    char: 'w',
    summary:
      'After the listing, print a row (or with -o json an object per line) for each change, until interrupted.',
  },
  ...PROVIDER_FLAGS,
} as const satisfies FlagTable

export default class List extends Command {
  static override hiddenAliases = ['ls']
  static override summary = 'List the ClusterProfiles on the hub and how each cluster can be reached.'
  static override description = `The PROVIDERS column marks with * the provider your provider file would use.`
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list -A -o wide',
    '<%= config.bin %> list -n fleet -l env=prod -o json',
    '<%= config.bin %> list -A --usable --clusterset prod',
    '<%= config.bin %> list -A -w',
  ]
  static override flags = oclifFlags(LIST_FLAGS)

  async run(): Promise<void> {
    const {flags} = await this.parse(List)
    const shard = chosenShard(flags.shard, true)
    const printer = processPrinter()
    const {hub, providers} = await openSession(flags, printer)
    const namespace = flags['all-namespaces'] ? undefined : hub.config.namespace
    const input = {
      namespace,
      labelSelector: flags.selector,
      clusterManager: flags['cluster-manager'],
      clusterset: flags.clusterset,
      readClustersets: flags.output === 'wide',
      providers: providers.providers,
      usableOnly: flags.usable,
      pageSize: flags['chunk-size'],
      shard,
    }
    const view = await listPrinter(printer, {output: flags.output, namespace, watch: flags.watch})
    if (flags.watch) {
      await followUntilInterrupted(hub, input, view, printer)
      return
    }
    view.all(await listProfiles(hub, {...input, onRestart: (reason) => printer.warn(reason)}))
  }
}
