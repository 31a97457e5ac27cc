import {Args, Flags} from '@oclif/core'
import {runAutocomplete} from '../../cli/autocomplete.js'
import {FrontCommand} from '../../cli/front-command.js'

/** SHELL's values: the plugin's, and fish (src/cli/fish-completion.ts). */
export const SHELLS = ['zsh', 'bash', 'fish', 'powershell']

export default class Autocomplete extends FrontCommand {
  static override summary = 'Set up shell completion: print what to run for SHELL (default: your shell).'
  static override examples = [
    '<%= config.bin %> autocomplete',
    '<%= config.bin %> autocomplete bash',
    '<%= config.bin %> autocomplete zsh',
    '<%= config.bin %> autocomplete fish',
    '<%= config.bin %> autocomplete powershell',
    '<%= config.bin %> autocomplete --refresh-cache',
  ]
  static override args = {shell: Args.string({description: 'Shell type', options: SHELLS})}
  static override flags = {
    'refresh-cache': Flags.boolean({
      char: 'r',
      description: 'Rebuild the completion scripts (after an upgrade) without printing the instructions.',
    }),
  }

  override async run(): Promise<void> {
    const {args, flags} = await this.parse(Autocomplete)
    await this.ending(() =>
      runAutocomplete(this.wiring, this.config, this.argv, {
        shell: args.shell,
        refreshOnly: flags['refresh-cache'],
      }),
    )
  }
}
