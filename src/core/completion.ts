// Shell completion of profile names: what the words typed so far ask for. Pure: the commands' flags
// come from the oclif manifest, the profiles from a local cache.

/** A command's flags as the oclif manifest records them. */
export interface ManifestCommand {
  flags: Record<string, {type: 'boolean' | 'option'; char?: string}>
}

/** Commands whose operands are profiles (NAME or NAMESPACE/NAME). */
const PROFILE_COMMANDS = new Set([
  'describe',
  'whoami',
  'credential',
  'kubeconfig',
  'exec',
  'cache:clear',
  'doctor',
])

export interface ProfileCompletion {
  /** The hub as the words select it. */
  hub: {kubeconfig?: string; context?: string; namespace?: string}
  /** What is typed of the profile so far. */
  prefix: string
}

/**
 * `words` are the words after `cpcred`, the last being the one under the cursor (maybe empty).
 * Returns what to complete when that word is a profile operand, else undefined.
 */
export function profileCompletion(
  words: string[],
  commands: Record<string, ManifestCommand>,
): ProfileCompletion | undefined {
  const current = words.at(-1) ?? ''
  const before = words.slice(0, -1)
  let id: string | undefined
  let rest: string[] = []
  // The command is the longest run of leading words naming one (`cache clear`).
  for (let length = Math.min(before.length, 3); length > 0; length--) {
    const candidate = before.slice(0, length).join(':')
    if (commands[candidate]) {
      id = candidate
      rest = before.slice(length)
      break
    }
  }
  if (!id || !PROFILE_COMMANDS.has(id) || current.startsWith('-')) return undefined
  const flags = commands[id]!.flags
  const takesValue = (word: string): string | undefined => {
    if (word.includes('=')) return undefined
    const name = word.startsWith('--')
      ? word.slice(2)
      : Object.entries(flags).find(([, flag]) => word === `-${flag.char}`)?.[0]
    return name && flags[name]?.type === 'option' ? name : undefined
  }
  const hub: ProfileCompletion['hub'] = {}
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index]!
    // After `--` come the words of the command exec runs.
    if (word === '--') return undefined
    if (!word.startsWith('-')) continue
    const [flagWord, inline] = word.split(/=(.*)/s, 2) as [string, string | undefined]
    const name = flagWord.startsWith('--') ? flagWord.slice(2) : takesValue(flagWord)
    let value = inline
    if (value === undefined && takesValue(flagWord)) {
      // The value is the next word; when that is the word being typed, it is not a profile.
      if (index === rest.length - 1) return undefined
      value = rest[++index]
    }
    if (name === 'kubeconfig' || name === 'context' || name === 'namespace') hub[name] = value
  }
  return {hub, prefix: current}
}

/** The profiles to offer: every NAMESPACE/NAME, and bare names of the selected namespace, that start with the prefix. */
export function profileCandidates(keys: string[], namespace: string, prefix: string): string[] {
  const names = keys
    .filter((key) => key.startsWith(`${namespace}/`))
    .map((key) => key.slice(namespace.length + 1))
  return [...new Set([...names, ...keys])].filter((candidate) => candidate.startsWith(prefix)).sort()
}
