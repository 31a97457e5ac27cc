// Shell completion: what the words typed so far ask for. Pure: the commands' flags come from the
// oclif manifest, the profiles from a local cache, and the shell scripts only carry out the answer.

/** A command's flags as the oclif manifest records them. */
export interface ManifestCommand {
  hidden?: boolean
  summary?: string
  flags: Record<
    string,
    {type: 'boolean' | 'option'; char?: string; hidden?: boolean; allowNo?: boolean; options?: string[]}
  >
}

/** Commands whose operands are profiles (NAME or NAMESPACE/NAME). */
const PROFILE_COMMANDS = new Set([
  'describe',
  'whoami',
  'credential',
  'kubeconfig',
  'exec',
  'get',
  'cache:clear',
  'doctor',
  'lint',
])

/** Commands whose words after `--` are a command line of their own. */
const COMMAND_RUNNERS = new Set(['exec'])

/**
 * Commands whose words after `--` are kubectl get's: the first is a resource type, offered from the
 * kept discovery of the selected targets; the others are not completed.
 */
const RESOURCE_WORDS = new Set(['get'])

export type HubFlags = {kubeconfig?: string; context?: string; namespace?: string}

/**
 * The profiles a line runs on and the flags that find them and their provider, as `cpcred
 * kubeconfig` takes them: exec's one target, whose kubeconfig the command after `--` is completed
 * with; get's targets, whose servers' kept discovery gives the types after `--`.
 */
export interface TargetArgs {
  profiles: string[]
  flags: string[]
}

/** exec's flags that `cpcred kubeconfig` needs to write the same target's kubeconfig. */
const TARGET_FLAGS = new Set(['kubeconfig', 'context', 'namespace', 'provider-file', 'access-provider'])
/** exec's flags that select more than the profiles named: then there is no one target. */
const SELECTING_FLAGS = new Set(['selector', 'all', 'placement', 'placement-key'])
/** get's flags that choose its targets besides TARGET_FLAGS, passed to `cpcred kubeconfig` as well. */
const GET_SELECTION_FLAGS = new Set([
  ...SELECTING_FLAGS,
  'all-namespaces',
  'healthy',
  'shard',
  'no-dedupe',
  'api-version',
])

export type CompletionRequest =
  /** No cpcred command yet: the command and topic names (oclif's script knows them). */
  | {kind: 'commands'}
  /** Words to offer as they are (flags of the command, the values a flag allows). */
  | {kind: 'words'; words: string[]}
  /** Profile names of the hub the words select, starting with `prefix`. */
  | {kind: 'profiles'; hub: HubFlags; prefix: string}
  /**
   * After exec's `--`: the shell's own completion of the command line that starts at word `offset`
   * (an index into the words given), as `sudo` or `xargs` complete theirs.
   */
  | {kind: 'command'; offset: number; target?: TargetArgs}
  /**
   * The first word after get's `--`: the resource types the selected targets serve, as their kept
   * discovery says (none without targets), starting with `prefix`.
   */
  | {kind: 'types'; prefix: string; targets?: TargetArgs}
  /** Nothing cpcred knows of. */
  | {kind: 'none'}

/**
 * `words` are the words after `cpcred`, the last being the one under the cursor (maybe empty).
 */
export function completionRequest(
  words: string[],
  commands: Record<string, ManifestCommand>,
): CompletionRequest {
  const current = words.at(-1) ?? ''
  const before = words.slice(0, -1)
  let id: string | undefined
  let start = 0
  // The command is the longest run of leading words naming one (`cache clear`).
  for (let length = Math.min(before.length, 3); length > 0; length--) {
    const candidate = before.slice(0, length).join(':')
    if (commands[candidate]) {
      id = candidate
      start = length
      break
    }
  }
  if (!id) return {kind: 'commands'}
  const flags = commands[id]!.flags
  const flagNamed = (word: string): string | undefined =>
    word.startsWith('--')
      ? word.slice(2)
      : Object.entries(flags).find(([, flag]) => flag.char !== undefined && word === `-${flag.char}`)?.[0]
  const takesValue = (word: string): string | undefined => {
    const name = flagNamed(word)
    return name && flags[name]?.type === 'option' ? name : undefined
  }

  const hub: HubFlags = {}
  const operands: string[] = []
  const targetFlags: string[] = []
  const selectionFlags: string[] = []
  let selecting = false
  for (let index = start; index < before.length; index++) {
    const word = before[index]!
    if (word === '--') {
      if (COMMAND_RUNNERS.has(id)) {
        const one = operands.length === 1 && !selecting
        return {
          kind: 'command',
          offset: index + 1,
          ...(one ? {target: {profiles: [operands[0]!], flags: targetFlags}} : {}),
        }
      }
      if (RESOURCE_WORDS.has(id)) {
        // Only the type, the first word after `--`; kubectl get's flags and names are not offered.
        if (index !== before.length - 1 || current.startsWith('-')) return {kind: 'none'}
        const chosen = operands.length > 0 || selecting
        return {
          kind: 'types',
          prefix: current,
          ...(chosen ? {targets: {profiles: operands, flags: [...targetFlags, ...selectionFlags]}} : {}),
        }
      }
      // Elsewhere `--` only ends the flags: what follows are operands.
      return PROFILE_COMMANDS.has(id) ? {kind: 'profiles', hub, prefix: current} : {kind: 'none'}
    }
    if (!word.startsWith('-') || word === '-') {
      operands.push(word)
      continue
    }
    const [flagWord, inline] = word.split(/=(.*)/s, 2) as [string, string | undefined]
    const name = flagNamed(flagWord)
    let value = inline
    if (value === undefined && takesValue(flagWord)) {
      // The value is the next word; when that is the word being typed, offer what the flag allows.
      if (index === before.length - 1)
        return {kind: 'words', words: startingWith(flags[name!]!.options ?? [], current)}
      value = before[++index]
    }
    if (name === 'kubeconfig' || name === 'context' || name === 'namespace') hub[name] = value
    if (name !== undefined && TARGET_FLAGS.has(name) && value !== undefined)
      targetFlags.push(`--${name}=${value}`)
    if (name !== undefined && SELECTING_FLAGS.has(name)) selecting = true
    if (name !== undefined && GET_SELECTION_FLAGS.has(name))
      selectionFlags.push(value === undefined ? `--${name}` : `--${name}=${value}`)
  }
  if (current.startsWith('-')) return {kind: 'words', words: startingWith(flagWords(flags), current)}
  return PROFILE_COMMANDS.has(id) ? {kind: 'profiles', hub, prefix: current} : {kind: 'none'}
}

/** `--name` (and `--no-name`) of every flag shown in help, then `-c` for those with a letter. */
function flagWords(flags: ManifestCommand['flags']): string[] {
  const visible = Object.entries(flags).filter(([, flag]) => !flag.hidden)
  return [
    ...visible.flatMap(([name, flag]) => (flag.allowNo ? [`--${name}`, `--no-${name}`] : [`--${name}`])),
    '--help',
    ...visible.flatMap(([, flag]) => (flag.char ? [`-${flag.char}`] : [])),
  ]
}

function startingWith(words: string[], prefix: string): string[] {
  return words.filter((word) => word.startsWith(prefix))
}

/** The profiles to offer: every NAMESPACE/NAME, and bare names of the selected namespace, that start with the prefix. */
export function profileCandidates(keys: string[], namespace: string, prefix: string): string[] {
  const names = keys
    .filter((key) => key.startsWith(`${namespace}/`))
    .map((key) => key.slice(namespace.length + 1))
  return [...new Set([...names, ...keys])].filter((candidate) => candidate.startsWith(prefix)).sort()
}

/**
 * What `cpcred __complete` prints: candidates one per line, or one directive line starting with
 * `:` (no candidate can: profile names are DNS labels, resource types DNS subdomains, flags start
 * with `-`) for the shell script:
 * `:commands`, or `:command N KUBECONFIG` (complete the words from N on as a command line of its
 * own, with that KUBECONFIG).
 */
export function completionOutput(
  request: CompletionRequest,
  candidates: () => string[],
  kubeconfig = '',
): string {
  switch (request.kind) {
    case 'commands':
      return ':commands\n'
    case 'command':
      // The rest of the line is the KUBECONFIG the command's own completion runs with.
      return `:command ${request.offset} ${kubeconfig}\n`
    case 'words':
      return request.words.map((word) => `${word}\n`).join('')
    case 'profiles':
    case 'types':
      return candidates()
        .map((profile) => `${profile}\n`)
        .join('')
    case 'none':
      return ''
  }
}

/**
 * The command and topic names that may follow the words typed (`cache` → `clear`), starting with
 * the word under the cursor, each with its summary: what oclif's bash function and the fish script
 * know by themselves, for a client that asks for everything (kubectl's plugin completion).
 */
export function commandCandidates(
  words: string[],
  commands: Record<string, ManifestCommand>,
): {word: string; summary: string}[] {
  const current = words.at(-1) ?? ''
  const before = words.slice(0, -1)
  const found = new Map<string, string>()
  for (const [id, command] of Object.entries(commands)) {
    const parts = id.split(':')
    if (command.hidden || parts.length <= before.length) continue
    if (before.some((word, index) => parts[index] !== word)) continue
    const word = parts[before.length]!
    // A topic's own summary is not in the manifest: its word alone is offered.
    const summary = parts.length === before.length + 1 ? (command.summary ?? '').split('\n')[0]! : ''
    if (word.startsWith(current) && !found.get(word)) found.set(word, summary)
  }
  return [...found].sort(([a], [b]) => a.localeCompare(b)).map(([word, summary]) => ({word, summary}))
}

/** cobra's ShellCompDirective values that kubectl reads from a plugin's completion. */
export const COBRA_DEFAULT = 0
export const COBRA_NO_FILES = 4

/**
 * kubectl's plugin completion protocol (cobra's `__complete`): candidates one per line (a tab before
 * a description), then `:DIRECTIVE`. Files are offered nowhere cpcred knows the answer.
 */
export function cobraOutput(
  candidates: {word: string; summary?: string}[],
  directive = COBRA_NO_FILES,
): string {
  const lines = candidates.map(({word, summary}) =>
    summary ? `${word}\t${summary.replace(/\s+/g, ' ')}` : word,
  )
  return [...lines, `:${directive}`].map((line) => `${line}\n`).join('')
}
