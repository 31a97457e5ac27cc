import {Args} from '@oclif/core'
import {FrontCommand} from '../../cli/front-command.js'
import {HUB_USE_FLAGS} from '../../cli/hub.js'
import {oclifFlags} from '../../cli/oclif-flags.js'

export default class HubUse extends FrontCommand {
  static override summary = "Choose the hub cpcred reads, whatever kubectl's current context."
  static override description = `Kept in $XDG_CONFIG_HOME/cpcred/hub.json (~/.config/cpcred/hub.json). --kubeconfig/--context on a command line and CPCRED_HUB_KUBECONFIG/CPCRED_HUB_CONTEXT still win over it.`
  static override examples = [
    '<%= config.bin %> hub use hub-admin',
    '<%= config.bin %> hub use --kubeconfig ~/.kube/hub.yaml hub',
    '<%= config.bin %> hub use --unset',
  ]
  static override args = {context: Args.string({description: 'A context of the hub kubeconfig.'})}
  static override flags = oclifFlags(HUB_USE_FLAGS)
}
