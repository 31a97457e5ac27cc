// After @oclif/plugin-autocomplete writes its completion scripts (commands and flags), add profile
// names to the bash and zsh ones: a function that asks `cpcred __complete` (src/cli/complete.ts),
// which answers from a local list in a few tens of milliseconds and renews the list in the background.
import type {Hook} from '@oclif/core'
import {COMPLETE_COMMAND} from '../cli/complete-command.js'

const MARK = '# cpcred: profile names'

const hook: Hook<'postrun'> = async function ({Command, config}) {
  if (Command.id !== 'autocomplete' && Command.id !== 'autocomplete:create') return
  const [{readFile, writeFile}, path] = await Promise.all([import('node:fs/promises'), import('node:path')])
  const functions = path.join(config.cacheDir, 'autocomplete', 'functions')
  for (const [file, addProfiles] of [
    [path.join(functions, 'bash', `${config.bin}.bash`), bashWithProfiles],
    [path.join(functions, 'zsh', `_${config.bin}`), zshWithProfiles],
  ] as const) {
    const script = await readFile(file, 'utf8').catch(() => undefined)
    if (script === undefined || script.includes(MARK)) continue
    await writeFile(file, addProfiles(script, config.bin))
  }
}

export default hook

function bashWithProfiles(script: string, bin: string): string {
  return script + bashProfileCompletion(bin)
}

/**
 * The zsh script completes every command's operands as files ("*: :_files"); for the commands that
 * take profiles `cpcred __complete` answers instead, and files stay the answer where it has none.
 * A topic's function (`_cpcred_cache`) sees the words after the topic, so it passes the topic on.
 */
export function zshWithProfiles(script: string, bin: string): string {
  const name = bin.replace(/[^A-Za-z0-9_]/g, '_')
  let topic: string[] = []
  const lines = script.split('\n').map((line) => {
    const start = new RegExp(`^_${name}(?:_(\\w+))?\\(\\) \\{`).exec(line)
    if (start) topic = start[1] ? start[1].split('_') : []
    return line.replaceAll(
      '"*: :_files"',
      `"*: :_${name}_profiles --${topic.map((word) => ` ${word}`).join('')}"`,
    )
  })
  const helper = `
${MARK} (NAMESPACE/NAME) for the commands that take them; files where there are none.
_${name}_profiles()
{
  # _arguments passes its compadd options, then (after --) the topic's words, if any.
  local -a profiles
  local -i separator=\${@[(I)--]}
  profiles=(\${(f)"$(${bin} ${COMPLETE_COMMAND} "\${(@)@[separator+1,-1]}" "\${(@)words[1,CURRENT]}" 2>/dev/null)"})
  if (( \${#profiles} )); then compadd "\${(@)@[1,separator-1]}" -a profiles; else _files "\${(@)@[1,separator-1]}"; fi
}
`
  // After the #compdef line, before the functions that use it.
  return [lines[0], helper, ...lines.slice(1)].join('\n')
}

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
