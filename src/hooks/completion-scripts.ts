// After @oclif/plugin-autocomplete writes its completion scripts (commands and flags) into its
// cache, cpcred keeps its own copies in the data directory (src/cli/completion-setup.ts), where a
// cache clear does not reach them: the bash and zsh ones with a function that asks
// `cpcred __complete` (src/cli/complete.ts) for profile names and the rest, which answers from a
// local list in a few tens of milliseconds and renews the list in the background; and a fish
// script of cpcred's own, since the plugin does not know fish (src/cli/fish-completion.ts).
import type {Hook} from '@oclif/core'
import {completionScriptPath} from '../cli/completion-setup.js'
import {completionEntries, fishCompletionScript} from '../cli/fish-completion.js'
import {COMPLETE_COMMAND} from '../cli/router.js'

const MARK = '# cpcred: profile names'

const hook: Hook<'postrun'> = async function ({Command, config}) {
  if (Command.id !== 'autocomplete' && Command.id !== 'autocomplete:create') return
  const [{mkdir, readFile, writeFile}, path] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
  ])
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(file), {recursive: true})
    await writeFile(file, text)
  }
  const functions = path.join(config.cacheDir, 'autocomplete', 'functions')
  for (const [shell, built, addProfiles] of [
    ['bash', path.join(functions, 'bash', `${config.bin}.bash`), bashWithProfiles],
    ['zsh', path.join(functions, 'zsh', `_${config.bin}`), zshWithProfiles],
  ] as const) {
    const script = await readFile(built, 'utf8').catch(() => undefined)
    if (script === undefined) continue
    // An older cpcred patched the plugin's file in place.
    const own = script.includes(MARK) ? script : addProfiles(script, config.bin)
    await write(completionScriptPath(config.dataDir, shell, config.bin), own)
  }
  await write(
    completionScriptPath(config.dataDir, 'fish', config.bin),
    fishCompletionScript(config.bin, completionEntries(config)),
  )
}

export default hook

/** oclif's flag lookup: a sed whose pattern is every word typed, so a profile's `/` broke it. */
const OCLIF_FLAG_LOOKUP =
  'opts=$(printf "%s " "${commands[@]}" | grep "${normalizedCommand}" | sed -n "s/^${normalizedCommand} //p")'
/** The same lookup as a plain string comparison: no word is read as a pattern. */
const FLAG_LOOKUP = `while IFS= read -r line; do [[ "$line" == "$normalizedCommand "* ]] && opts="\${line#"$normalizedCommand "}"; done <<< "$commands"`

export function bashWithProfiles(script: string, bin: string): string {
  return script.replace(OCLIF_FLAG_LOOKUP, FLAG_LOOKUP) + bashProfileCompletion(bin)
}

/**
 * The zsh script completes every command's operands as files ("*: :_files"); for the commands that
 * take profiles `cpcred __complete` answers instead, and files stay the answer where it has none.
 * After exec's `--` the rest of the line is completed as a command line of its own (_normal).
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
  local -a answer topic
  local -i separator=\${@[(I)--]}
  topic=("\${(@)@[separator+1,-1]}")
  answer=(\${(f)"$(${bin} ${COMPLETE_COMMAND} "\${(@)topic}" "\${(@)words[1,CURRENT]}" 2>/dev/null)"})
  if [[ \${answer[1]} == ':command '* ]]; then
    # The words from the command exec runs on: complete them as that command's own line, with the
    # target's KUBECONFIG (":command N KUBECONFIG").
    local rest=\${answer[1]#:command }
    local -x KUBECONFIG=\${rest#* }
    local -i skip=$(( \${rest%% *} - \${#topic} ))
    shift skip words
    (( CURRENT -= skip ))
    _normal
  elif (( \${#answer} )) && [[ \${answer[1]} != :* ]]; then
    compadd "\${(@)@[1,separator-1]}" -a answer
  else
    _files "\${(@)@[1,separator-1]}"
  fi
}
`
  // After the #compdef line, before the functions that use it.
  return [lines[0], helper, ...lines.slice(1)].join('\n')
}

/**
 * The function bash calls at TAB: \`cpcred __complete\` says what the words ask for (flags of the
 * command after any other words, a flag's values, profile names), hands the command names to
 * oclif's function, and after exec's \`--\` leaves the rest to bash: the command's own completion
 * where bash-completion is loaded (_command_offset), else command names and then files.
 */
export function bashProfileCompletion(bin: string): string {
  const name = bin.replace(/[^A-Za-z0-9_]/g, '_')
  return `
${MARK} (NAMESPACE/NAME), flags and values for the commands; the shell's own completion after exec's --.
_${name}_complete_profiles()
{
  # IFS stays the shell's: the command's own completion after -- runs in this function, and
  # cobra's (kubectl's) joins its words with IFS before it evals them.
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local -a answer
  mapfile -t answer < <(${bin} ${COMPLETE_COMMAND} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  case "\${answer[0]}" in
    :commands) _${name}_autocomplete ;;
    ":command "*)
      # ":command N KUBECONFIG": the command's words start at N, its completion asks the target.
      local rest="\${answer[0]#:command }"
      local -i offset=$(( \${rest%% *} + 1 ))
      local -x KUBECONFIG="\${rest#* }"
      if declare -F _command_offset >/dev/null; then
        _command_offset "$offset"
      elif (( COMP_CWORD == offset )); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
      else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      ;;
    :*) COMPREPLY=() ;;
    *) mapfile -t COMPREPLY < <(compgen -W "\${answer[*]}" -- "$cur") ;;
  esac
}
complete -F _${name}_complete_profiles ${bin}
`
}
