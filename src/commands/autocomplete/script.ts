import {Args} from '@oclif/core'
import {runAutocompleteScript} from '../../cli/autocomplete.js'
import {FrontCommand} from '../../cli/front-command.js'
import {SHELLS} from './index.js'

export default class AutocompleteScript extends FrontCommand {
  static override summary = "The line that loads cpcred's completion in SHELL's setup file."
  static override hidden = true
  static override args = {shell: Args.string({description: 'Shell type', options: SHELLS})}

  override async run(): Promise<void> {
    const {args} = await this.parse(AutocompleteScript)
    await this.ending(() => runAutocompleteScript(this.wiring, this.config, this.argv, args.shell))
  }
}
