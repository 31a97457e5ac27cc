import {Args, Command} from '@oclif/core'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../../cli/flag-table.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {processWiring} from '../../cli/wiring.js'
import {UsageError} from '../../core/errors.js'
import {hubUseCommand} from '../../usecases/hub-choice.js'

const HUB_USE_FLAGS = {
  kubeconfig: {
    kind: 'string',
    summary:
      'The kubeconfig file that holds CONTEXT (default: KUBECONFIG, then ~/.kube/config, read on each use).',
  },
  unset: {kind: 'boolean', summary: "Forget the kept hub: kubectl's current context chooses again."},
} as const satisfies FlagTable
const HUB_USE_USAGE = usageLine('hub use', '(CONTEXT | --unset)')

export default class HubUse extends Command {
  static override summary = "Choose the hub cpcred reads, whatever kubectl's current context."
  static override description = `Kept in $XDG_CONFIG_HOME/cpcred/hub.json (~/.config/cpcred/hub.json). --kubeconfig/--context on a command line and CPCRED_HUB_KUBECONFIG/CPCRED_HUB_CONTEXT still win over it.`
  static override examples = [
    '<%= config.bin %> hub use hub-admin',
    '<%= config.bin %> hub use --kubeconfig ~/.kube/hub.yaml hub',
    '<%= config.bin %> hub use --unset',
  ]
  static override args = {context: Args.string({description: 'A context of the hub kubeconfig.'})}
  static override flags = oclifFlags(HUB_USE_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(HUB_USE_FLAGS, this.argv, HUB_USE_USAGE)
    const context = atMostOneOperand(positionals, HUB_USE_USAGE)
    if (flags.unset ? context !== undefined || flags.kubeconfig !== undefined : context === undefined)
      throw new UsageError(
        flags.unset ? '--unset takes no context or --kubeconfig' : 'a context is required',
        HUB_USE_USAGE,
      )
    const wiring = processWiring()
    const {printer} = wiring
    const saved = await wiring.savedHub()
    const used = await hubUseCommand(
      {saved, loadConfig: (selection) => wiring.hubConnector.loadConfig(selection)},
      {context, kubeconfig: flags.kubeconfig, unset: flags.unset, env: process.env, cwd: process.cwd()},
    )
    if (used.config) {
      printer.note(
        `The hub is now context "${used.config.context}" (${used.config.server}) of ${used.config.files.join(', ')}. ` +
          `cpcred keeps this choice (the context's name and the files' paths; the files stay where they are) in ${saved.file}.`,
      )
    } else printer.note(`Forgot the kept hub (${saved.file}): kubectl's current context chooses it again.`)
    for (const name of used.overriddenBy)
      printer.warn(`${name} is set in this environment and wins over the kept hub.`)
  }
}
