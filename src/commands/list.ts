import {Command} from '@oclif/core'
import {LIST_FLAGS, runList} from '../cli/list.js'
import {oclifFlags} from '../cli/oclif-flags.js'

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

  // The fast path (src/cli/list.ts) runs `list` without oclif; this runs the same code when oclif
  // is already loaded.
  async run(): Promise<void> {
    await runList(this.argv)
  }
}
