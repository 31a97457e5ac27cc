import {Command, Flags} from '@oclif/core'
import {Hub} from '../adapters/hub.js'
import {paint, processTerminal} from '../adapters/terminal.js'
import {renderProfiles} from '../core/profile-view.js'
import {allNamespacesFlag, hubFlags, outputFlag, selectorFlag} from '../cli/flags.js'
import {listProfiles} from '../usecases/list-profiles.js'

export default class List extends Command {
  static override aliases = ['ls']
  static override summary = 'List the ClusterProfiles on the hub and how each cluster can be reached.'
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list -A -o wide',
    '<%= config.bin %> list -n fleet -l env=prod -o json',
  ]
  static override flags = {
    ...hubFlags,
    'all-namespaces': allNamespacesFlag,
    selector: selectorFlag,
    'cluster-manager': Flags.string({summary: 'Only profiles managed by this cluster manager.'}),
    clusterset: Flags.string({summary: 'Only profiles in namespaces of this clusterset.'}),
    output: outputFlag,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(List)
    const terminal = processTerminal()
    const hub = await Hub.connect(flags)
    const namespace = flags['all-namespaces'] ? undefined : hub.config.namespace
    const {profiles, clustersets} = await listProfiles(hub, {
      namespace,
      labelSelector: flags.selector,
      clusterManager: flags['cluster-manager'],
      clusterset: flags.clusterset,
      onRestart: (reason) => terminal.err(`warning: ${reason}\n`),
    })
    if (profiles.length === 0 && ['table', 'wide', 'name'].includes(flags.output)) {
      terminal.err(
        namespace ? `No ClusterProfiles found in ${namespace} namespace.\n` : 'No ClusterProfiles found.\n',
      )
      return
    }
    const chalk = await paint(terminal)
    terminal.out(
      renderProfiles(profiles, {
        output: flags.output,
        allNamespaces: namespace === undefined,
        now: new Date(),
        clustersetOf: (ns) => clustersets?.get(ns),
        style: (cell, column, isHeader) =>
          isHeader || column !== 'HEALTHY'
            ? cell
            : cell === 'True'
              ? chalk.green(cell)
              : cell === 'False'
                ? chalk.red(cell)
                : cell,
      }),
    )
  }
}
