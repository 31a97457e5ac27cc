// fish completion, which @oclif/plugin-autocomplete does not write: a script made from the commands
// oclif knows (their names and summaries), asking `cpcred __complete` (src/cli/complete.ts) for
// everything else, as the bash and zsh scripts do (src/hooks/completion-scripts.ts). The
// `autocomplete` commands (src/commands/autocomplete/) print how to load it (src/cli/completion-setup.ts).
import {COMPLETE_COMMAND} from './router.js'

/** A command or topic the shell offers, by its oclif id (`cache:clear`). */
export interface CompletionEntry {
  id: string
  summary: string
}

/** What oclif's Config says about its commands and topics (only what the script needs). */
export interface CommandsAndTopics {
  bin: string
  commands: {id: string; hidden?: boolean; aliases?: string[]; summary?: string; description?: string}[]
  topics: {name: string; hidden?: boolean; description?: string}[]
}

/** The visible commands (and their aliases), then the topics that hold them. */
export function completionEntries({bin, commands, topics}: CommandsAndTopics): CompletionEntry[] {
  const firstLine = (text: string | undefined) =>
    (text ?? '').split('\n')[0]!.replaceAll('<%= config.bin %>', bin).trim()
  const visible = commands.filter((command) => !command.hidden)
  return [
    ...visible.flatMap((command) => {
      const summary = firstLine(command.summary ?? command.description)
      return [command.id, ...(command.aliases ?? [])].map((id) => ({id, summary}))
    }),
    ...topics
      .filter((topic) => !topic.hidden)
      .map((topic) => ({id: topic.name, summary: firstLine(topic.description)})),
  ]
}

/** A fish single-quoted word: only `\` and `'` are special there. */
export function fishQuote(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
}

/**
 * The script. At TAB, `cpcred __complete` answers for the words before the cursor: candidates one per
 * line, or `:commands` (the next command or topic name, which the script knows by the words typed),
 * `:command N KUBECONFIG` (exec's command line from word N on: fish completes it as a line of its own,
 * with that KUBECONFIG) or
 * another directive (nothing). No file names but after exec's `--`, as in the bash script.
 */
export function fishCompletionScript(bin: string, entries: CompletionEntry[]): string {
  const name = bin.replace(/[^A-Za-z0-9_]/g, '_')
  const byParent = new Map<string, Map<string, string>>()
  for (const {id, summary} of entries) {
    const words = id.split(':')
    const parent = words.slice(0, -1).join(' ')
    const siblings = byParent.get(parent) ?? new Map<string, string>()
    byParent.set(parent, siblings)
    if (!siblings.has(words.at(-1)!)) siblings.set(words.at(-1)!, summary)
  }
  const cases = [...byParent]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([parent, words]) => {
      const pairs = [...words]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([word, summary]) => `${fishQuote(word)} ${fishQuote(summary.replace(/\s+/g, ' '))}`)
      return `                case ${fishQuote(parent)}\n                    printf '%s\\t%s\\n' ${pairs.join(' ')}`
    })
  return `# ${bin} completion for fish: commands, flags and profile names (NAMESPACE/NAME). Written by
# \`${bin} autocomplete\`; \`${bin} ${COMPLETE_COMMAND}\` says what the words typed so far ask for.
function __${name}_complete
    # The words before the cursor (expanded where this fish can), without the command's own name.
    set -l words (commandline -xpc 2>/dev/null; or commandline -opc)
    set -e words[1]
    # The word being typed, without an opening quote: profile names and flags need none.
    set -l current (string trim -l -c '\\'"' -- (commandline -ct))
    set -l answer (command ${bin} ${COMPLETE_COMMAND} $words "$current" 2>/dev/null)
    switch "$answer[1]"
        case ':commands'
            switch "$words"
${cases.join('\n')}
            end
        case ':command *'
            # The words from the command exec runs on: complete them as that command's own line,
            # with the target's KUBECONFIG (":command N KUBECONFIG").
            set -l directive (string split -m 2 ' ' -- $answer[1])
            set -lx KUBECONFIG $directive[3]
            set -l first (math $directive[2] + 1)
            set -l line
            if test $first -le (count $words)
                set line (string escape -- $words[$first..-1])
            end
            complete -C (string join ' ' -- $line (commandline -ct))
        case ':*'
        case '*'
            string join \\n -- $answer
    end
end
complete -c ${bin} -e
complete -c ${bin} -f -a '(__${name}_complete)'
`
}
