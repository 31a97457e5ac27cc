import {Args, Command} from '@oclif/core'
import {runAutocompleteScript} from '../../cli/autocomplete.js'
import {processWiring} from '../../cli/wiring.js'
import {SHELLS} from './index.js'

export default class AutocompleteScript extends Command {
  static override summary = "The line that loads cpcred's completion in SHELL's setup file."
  static override hidden = true
  static override args = {shell: Args.string({description: 'Shell type', options: SHELLS})}

  async run(): Promise<void> {
    const {args} = await this.parse(AutocompleteScript)
    await runAutocompleteScript(processWiring(), this.config, this.argv, args.shell)
  }
}
