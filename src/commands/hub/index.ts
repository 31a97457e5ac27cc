import {Command} from '@oclif/core'
import {HUB_FLAGS, hubSelection} from '../../cli/flags.js'
import {parseFlags, usageLine, type FlagTable} from '../../cli/flag-table.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {processWiring} from '../../cli/wiring.js'
import {hubCommand} from '../../usecases/hub-choice.js'

const HUB_SHOW_FLAGS = {
  kubeconfig: HUB_FLAGS.kubeconfig,
  context: HUB_FLAGS.context,
} as const satisfies FlagTable
const HUB_SHOW_USAGE = usageLine('hub', '')

export default class Hub extends Command {
  static override summary = 'Show the hub cpcred reads and what chose it.'
  static override description = `cpcred keeps its hub apart from kubectl's current context, so switching kubectl to a target does not move it. The first of these chooses: --kubeconfig/--context; CPCRED_HUB_KUBECONFIG/CPCRED_HUB_CONTEXT; the hub kept by 'cpcred hub use'; kubectl's current context, or, when that is a context cpcred wrote, the hub it names.`
  static override examples = ['<%= config.bin %> hub', '<%= config.bin %> hub use hub-admin']
  static override flags = oclifFlags(HUB_SHOW_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(HUB_SHOW_FLAGS, this.argv, HUB_SHOW_USAGE)
    if (positionals.length > 0) {
      const {UsageError} = await import('../../core/errors.js')
      throw new UsageError(
        `unexpected argument "${positionals[0]}"`,
        `${HUB_SHOW_USAGE}; to choose the hub: cpcred hub use CONTEXT`,
      )
    }
    const wiring = processWiring()
    const {config, chain} = await hubCommand(
      {saved: await wiring.savedHub(), loadConfig: (selection) => wiring.hubConnector.loadConfig(selection)},
      {selection: hubSelection(flags), env: process.env},
    )
    const where = config.inCluster
      ? 'in-cluster config'
      : `context "${config.context}" of ${config.files.join(', ')}`
    wiring.printer.text(
      [
        `${where}, server ${config.server}, namespace "${config.namespace}"`,
        `chosen by ${config.inCluster ? 'the in-cluster config' : (config.chosenBy ?? "kubectl's current context")}; the layers, first wins:`,
        ...chain.map((line, index) => `  ${index + 1}. ${line}`),
        '',
      ].join('\n'),
    )
  }
}
