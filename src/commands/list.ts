import {Command} from '@oclif/core'
import {processPrinter} from '../adapters/printer.js'
import {renderProfiles} from '../core/profile-view.js'
import type {FlagTable} from '../cli/flag-table.js'
import {ALL_NAMESPACES_FLAG, HUB_FLAGS, OUTPUT_FLAG, PROVIDER_FLAGS, SELECTOR_FLAG} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {openSession} from '../cli/session.js'
import {listProfiles, PAGE_SIZE} from '../usecases/list-profiles.js'

const LIST_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...SELECTOR_FLAG,
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
  ]
  static override flags = oclifFlags(LIST_FLAGS)

  async run(): Promise<void> {
    const {flags} = await this.parse(List)
    const printer = processPrinter()
    const {hub, providers} = await openSession(flags, printer)
    const namespace = flags['all-namespaces'] ? undefined : hub.config.namespace
    const result = await listProfiles(hub, {
      namespace,
      labelSelector: flags.selector,
      clusterManager: flags['cluster-manager'],
      clusterset: flags.clusterset,
      readClustersets: flags.output === 'wide',
      providers: providers.providers,
      usableOnly: flags.usable,
      pageSize: flags['chunk-size'],
      onRestart: (reason) => printer.warn(reason),
    })
    if (result.profiles.length === 0 && ['table', 'wide', 'name'].includes(flags.output)) {
      printer.note(
        namespace ? `No ClusterProfiles found in ${namespace} namespace.` : 'No ClusterProfiles found.',
      )
      return
    }
    const output = renderProfiles(result.profiles, {
      output: flags.output,
      allNamespaces: namespace === undefined,
      now: new Date(),
      chosenProvider: (profile) => result.chosen(profile)?.provider,
      chosenServer: (profile) => result.chosen(profile)?.server,
      clustersetOf: (ns) => result.clustersets?.get(ns),
    })
    if (typeof output === 'string') {
      printer.data(output)
      return
    }
    const chalk = await printer.paint()
    const healthy = output.rows[0]!.indexOf('HEALTHY')
    printer.cells(output, {
      style: (cell, column, row) =>
        row === 0 || column !== healthy
          ? cell
          : cell === 'True'
            ? chalk.green(cell)
            : cell === 'False'
              ? chalk.red(cell)
              : cell,
    })
  }
}
