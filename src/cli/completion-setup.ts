// Where cpcred keeps its completion scripts and what `autocomplete` tells a user to do with them.
// The scripts live in the data directory ($XDG_DATA_HOME/cpcred/completion), not in the cache that
// @oclif/plugin-autocomplete builds them in: clearing a cache must not take completion away. The
// line a shell's rc file gets sources the script, and rebuilds it first when it is missing.
import path from 'node:path'
import {fishQuote} from './fish-completion.js'

/** The shells cpcred sets up itself; powershell stays the plugin's. */
export const OWN_SHELLS = ['bash', 'zsh', 'fish'] as const
export type OwnShell = (typeof OWN_SHELLS)[number]

export const isOwnShell = (shell: string | undefined): shell is OwnShell =>
  (OWN_SHELLS as readonly string[]).includes(shell ?? '')

/** The completion script of each shell, as the shell looks for it (zsh by its function's name). */
export function completionScriptPath(dataDir: string, shell: OwnShell, bin: string): string {
  const file = {bash: `${bin}.bash`, zsh: `_${bin}`, fish: `${bin}.fish`}[shell]
  return path.join(dataDir, 'completion', shell, file)
}

/** A single-quoted word for sh, bash and zsh. */
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`

/**
 * What `autocomplete script SHELL` prints: one line for the shell's rc file (a completions file in
 * fish) that loads the script, running `BIN autocomplete --refresh-cache` first if it is missing
 * (a new data directory, an upgrade that moved it), quietly: a shell must start even without cpcred.
 */
export function setupLine(shell: OwnShell, bin: string, dataDir: string): string {
  const script = completionScriptPath(dataDir, shell, bin)
  const rebuild = `${bin} autocomplete --refresh-cache >/dev/null 2>&1`
  switch (shell) {
    case 'bash':
      return `{ [ -f ${quote(script)} ] || ${rebuild}; [ -f ${quote(script)} ] && . ${quote(script)}; } # ${bin} autocomplete setup\n`
    case 'zsh':
      return `{ [ -f ${quote(script)} ] || ${rebuild}; fpath=(${quote(path.dirname(script))} $fpath); autoload -Uz compinit; compinit; } # ${bin} autocomplete setup\n`
    case 'fish':
      return `test -f ${fishQuote(script)}; or ${rebuild}; test -f ${fishQuote(script)}; and source ${fishQuote(script)} # ${bin} autocomplete setup\n`
  }
}

/**
 * What `autocomplete SHELL` prints. bash and zsh get a command that adds the setup line to the rc
 * file once, on a line of its own, whether or not the file ends with a newline; fish gets a
 * completions file of its own, which fish loads the first time it completes the command.
 */
export function setupInstructions(shell: OwnShell, bin: string, scriptCommand: string): string {
  const rc = shell === 'bash' ? '~/.bashrc' : '~/.zshrc'
  const add =
    shell === 'fish'
      ? `mkdir -p $__fish_config_dir/completions; ${scriptCommand} > $__fish_config_dir/completions/${bin}.fish`
      : `line=$(${scriptCommand}) && { grep -qxF -- "$line" ${rc} 2>/dev/null || { [ -z "$(tail -c1 ${rc} 2>/dev/null)" ] || echo; printf '%s\\n' "$line"; } >> ${rc}; }`
  const where =
    shell === 'fish'
      ? `That file loads ${bin}'s completion script, kept in ${bin}'s data directory.`
      : `The line loads ${bin}'s completion script, kept in ${bin}'s data directory; run the command again\n  at will: the line is added once.${shell === 'bash' ? ' A login shell reads ~/.bash_profile: add it there if that\n  does not read ~/.bashrc.' : ''}`
  const tab = shell === 'bash' ? '<TAB><TAB>' : '<TAB>'
  const start = shell === 'fish' ? 'Start a new fish' : `Start a new shell (or: source ${rc})`
  return `${bin} completion for ${shell}

1) Run:

  ${add}

  ${where}

2) ${start}, then:

  ${bin} ${tab}                        # commands
  ${bin} describe --${tab}             # flags
  ${bin} describe ${tab}               # profile names (NAMESPACE/NAME)
  ${bin} exec NS/NAME -- kubectl ${tab}  # the command's own completion, against that cluster
${shell === 'bash' ? `\n  After exec's --, the command's own completion needs bash-completion (else command names, then files).\n` : ''}
After an upgrade, \`${bin} autocomplete --refresh-cache\` updates the script.
`
}
