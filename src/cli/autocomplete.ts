// The front of `autocomplete` and `autocomplete script`: @oclif/plugin-autocomplete's commands with
// fish added. bash, zsh and powershell stay the plugin's; for fish the plugin builds its cache (the
// completion-scripts hook writes the fish script beside the others) and cpcred says how to load it.
import type {Command, Config} from '@oclif/core'
import {CpcredError} from '../core/errors.js'
import {fishInstructions, fishScriptPath, fishSetupScript} from './fish-completion.js'
import {wire} from './wiring.js'

/** `autocomplete [SHELL] [-r]`. */
export async function runAutocomplete(
  config: Config,
  argv: string[],
  input: {shell?: string; refreshOnly: boolean},
): Promise<void> {
  const plugin = await pluginCommand(config, 'autocomplete')
  if ((input.shell ?? config.shell) !== 'fish') return plugin.run(argv, config)
  await plugin.run(['--refresh-cache'], config)
  if (input.refreshOnly) return
  const scriptCommand = `${config.bin} autocomplete${config.topicSeparator}script fish`
  wire().printer.data(fishInstructions(config.bin, scriptCommand))
}

/** `autocomplete script [SHELL]`: the lines a shell's setup file gets. */
export async function runAutocompleteScript(
  config: Config,
  argv: string[],
  shell: string | undefined,
): Promise<void> {
  if ((shell ?? config.shell) !== 'fish')
    return (await pluginCommand(config, 'autocomplete:script')).run(argv, config)
  wire().printer.data(fishSetupScript(config.bin, fishScriptPath(config.cacheDir, config.bin)))
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
