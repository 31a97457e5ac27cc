import {FrontCommand} from '../../cli/front-command.js'
import {HUB_SHOW_FLAGS} from '../../cli/hub.js'
import {oclifFlags} from '../../cli/oclif-flags.js'

export default class Hub extends FrontCommand {
  static override summary = 'Show the hub cpcred reads and what chose it.'
  static override description = `cpcred keeps its hub apart from kubectl's current context, so switching kubectl to a target does not move it. The first of these chooses: --kubeconfig/--context; CPCRED_HUB_KUBECONFIG/CPCRED_HUB_CONTEXT; the hub kept by 'cpcred hub use'; kubectl's current context, or, when that is a context cpcred wrote, the hub it names.`
  static override examples = ['<%= config.bin %> hub', '<%= config.bin %> hub use hub-admin']
  static override flags = oclifFlags(HUB_SHOW_FLAGS)
}
