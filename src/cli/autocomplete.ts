// The front of `autocomplete` and `autocomplete script`: @oclif/plugin-autocomplete's commands with
// cpcred's own setup for bash, zsh and fish (src/cli/completion-setup.ts). The plugin still builds
// the command and flag completion (the completion-scripts hook keeps cpcred's copies out of the
// cache); powershell stays entirely the plugin's.
import type {Command, Config} from '@oclif/core'
import {CpcredError} from '../core/errors.js'
import {isOwnShell, setupInstructions, setupLine} from './completion-setup.js'
import type {Wiring} from './wiring.js'

/** `autocomplete [SHELL] [-r]`. */
export async function runAutocomplete(
  wiring: Pick<Wiring, 'printer'>,
  config: Config,
  argv: string[],
  input: {shell?: string; refreshOnly: boolean},
): Promise<void> {
  const plugin = await pluginCommand(config, 'autocomplete')
  const shell = input.shell ?? config.shell
  if (!isOwnShell(shell)) return plugin.run(argv, config)
  await plugin.run(['--refresh-cache'], config)
  if (input.refreshOnly) return
  const scriptCommand = `${config.bin} autocomplete${config.topicSeparator}script ${shell}`
  wiring.printer.data(setupInstructions(shell, config.bin, scriptCommand))
}

/** `autocomplete script [SHELL]`: the line a shell's setup file gets. */
export async function runAutocompleteScript(
  wiring: Pick<Wiring, 'printer'>,
  config: Config,
  argv: string[],
  shell: string | undefined,
): Promise<void> {
  const chosen = shell ?? config.shell
  if (!isOwnShell(chosen)) return (await pluginCommand(config, 'autocomplete:script')).run(argv, config)
  wiring.printer.data(setupLine(chosen, config.bin, config.dataDir))
}

/** The plugin's command of that id, which cpcred's own of the same id stands in front of. */
async function pluginCommand(config: Config, id: string): Promise<Command.Class> {
  const plugin = config.plugins.get('@oclif/plugin-autocomplete')
  if (!plugin) {
    throw new CpcredError('this cpcred was installed without @oclif/plugin-autocomplete', {
      hint: 'Reinstall cpcred (npm install -g cpcred): the plugin is one of its dependencies.',
    })
  }
  return plugin.findCommand(id, {must: true})
}
