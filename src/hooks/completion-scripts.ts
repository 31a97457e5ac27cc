// After @oclif/plugin-autocomplete writes its completion scripts (commands and flags), add profile
// names to the bash one: a function that asks `cpcred __complete` (src/cli/complete.ts), which
// answers from a local list in a few tens of milliseconds and renews the list in the background.
import type {Hook} from '@oclif/core'
import {COMPLETE_COMMAND} from '../cli/complete-command.js'

const MARK = '# cpcred: profile names'

const hook: Hook<'postrun'> = async function ({Command, config}) {
  if (Command.id !== 'autocomplete' && Command.id !== 'autocomplete:create') return
  const [{appendFile, readFile}, path] = await Promise.all([import('node:fs/promises'), import('node:path')])
  const file = path.join(config.cacheDir, 'autocomplete', 'functions', 'bash', `${config.bin}.bash`)
  const script = await readFile(file, 'utf8').catch(() => undefined)
  if (script === undefined || script.includes(MARK)) return
  await appendFile(file, bashProfileCompletion(config.bin))
}

export default hook

export function bashProfileCompletion(bin: string): string {
  const name = bin.replace(/[^A-Za-z0-9_]/g, '_')
  return `
${MARK} (NAMESPACE/NAME) for the commands that take them, after the commands and flags above.
_${name}_complete_profiles()
{
  _${name}_autocomplete
  local cur="\${COMP_WORDS[COMP_CWORD]}" IFS=$'\\n'
  [[ "$cur" == -* ]] && return
  COMPREPLY+=($(compgen -W "$(${bin} ${COMPLETE_COMMAND} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$cur"))
}
complete -F _${name}_complete_profiles ${bin}
`
}
