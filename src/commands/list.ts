import {FrontCommand} from '../cli/front-command.js'
import {LIST_FLAGS} from '../cli/list.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class List extends FrontCommand {
  static override hiddenAliases = ['ls']
  static override summary = 'List the ClusterProfiles on the hub and how each cluster can be reached.'
  static override description = `The PROVIDERS column marks with * the provider your provider file would use. Each namespace is an inventory (KEP-4322): with -A the table's rows are grouped by namespace, and when it spans several, one line on stderr names them; -o json|yaml|name print the data alone.`
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list -A -o wide',
    '<%= config.bin %> list -n fleet -l env=prod -o json',
    '<%= config.bin %> list -A --usable --clusterset prod',
    '<%= config.bin %> list -A -w',
  ]
  static override flags = oclifFlags(LIST_FLAGS)
}
