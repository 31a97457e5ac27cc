// kubectl's credential-plugin policy (kubectl ≥ 1.35, kuberc `kubectl.config.k8s.io/v1beta1`
// Preference): where kubectl finds its kuberc, what the file's two fields say, whether kubectl would
// run a given exec command, and exactly what to add when it would not. The rules are kubectl
// v1.37's: pkg/kuberc (LoadKuberc, DefaultGetPreferences, decodePreference), pkg/config/v1beta1
// (`name` is the deprecated spelling of `command`) and client-go's plugin/pkg/client/auth/exec
// (ValidatePluginPolicy, checkAllowlistLocked). Pure: the adapter reads the file and looks commands
// up in PATH as Go's exec.LookPath does (src/adapters/kuberc.ts).
import path from 'node:path'
import {UsageError} from '../errors.js'
import type {KubeconfigDocument} from './document.js'
import {isRecord} from '../json.js'

export const KUBERC_GROUP = 'kubectl.config.k8s.io'
export type PluginPolicyType = 'AllowAll' | 'DenyAll' | 'Allowlist'

/** Where kubectl reads its preferences, or why it reads none. */
export type KubercLocation =
  | {kind: 'off'; why: string}
  /** explicit: named by --kuberc or KUBERC, so a missing or unreadable file fails every kubectl command. */
  | {kind: 'file'; file: string; explicit: boolean}

/**
 * As kubectl finds it: KUBECTL_KUBERC=false turns kuberc off (and the --kuberc flag with it);
 * KUBERC=off turns it off too, and refuses --kuberc; --kuberc wins, then $KUBERC, then
 * ~/.kube/kuberc. `kubercFlag` is what the user gives kubectl's --kuberc.
 */
export function locateKuberc(
  kubercFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): KubercLocation {
  if (env.KUBECTL_KUBERC?.toLowerCase() === 'false') return {kind: 'off', why: 'KUBECTL_KUBERC=false'}
  if (env.KUBERC === 'off') {
    if (kubercFlag) {
      throw new UsageError(
        '--kuberc and KUBERC=off cannot be used together (kubectl refuses them too)',
        'unset KUBERC, or leave out --kuberc',
      )
    }
    return {kind: 'off', why: 'KUBERC=off'}
  }
  const recommended = path.join(home, '.kube', 'kuberc')
  const flagged = kubercFlag || recommended
  // kubectl lets $KUBERC override a --kuberc that names the default file, too.
  if (flagged === recommended && env.KUBERC) return {kind: 'file', file: env.KUBERC, explicit: true}
  return {kind: 'file', file: flagged, explicit: Boolean(kubercFlag)}
}

/** What kubectl applies to every exec plugin it would start. */
export type KubectlPolicy =
  | {
      kind: 'policy'
      policy: PluginPolicyType
      /** The allowlist's commands (an entry's deprecated `name` as its command). */
      allowlist: string[]
      /** The kuberc it comes from, or undefined with none (then AllowAll). */
      file?: string
      /** Why no file applies: KUBERC=off, missing, ignored (for people). */
      why?: string
    }
  /** kubectl fails every command with this kuberc (it refuses to start, not only the plugin). */
  | {kind: 'broken'; file: string; why: string}

/** The file's text, undefined when it does not exist; `error` when it could not be read. */
export interface KubercReading {
  location: KubercLocation
  text?: string
  error?: string
}

/** `parse` is a YAML parser of every document in the text (the adapter's is js-yaml's loadAll). */
export function kubectlPolicy(reading: KubercReading, parse: (text: string) => unknown[]): KubectlPolicy {
  const {location} = reading
  if (location.kind === 'off') return {kind: 'policy', policy: 'AllowAll', allowlist: [], why: location.why}
  const {file, explicit} = location
  const ignored = (why: string): KubectlPolicy =>
    explicit ? {kind: 'broken', file, why} : {kind: 'policy', policy: 'AllowAll', allowlist: [], why}
  if (reading.error !== undefined) return ignored(`cannot read ${file}: ${reading.error}`)
  if (reading.text === undefined) return ignored(`${file} does not exist`)
  let documents: unknown[]
  try {
    documents = parse(reading.text)
  } catch (error) {
    return ignored(`${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  const candidates = documents.filter((document) => document !== null && document !== undefined)
  const preference = candidates.map(preferenceOf).find((found) => found !== undefined)
  if (candidates.length === 0) return {kind: 'policy', policy: 'AllowAll', allowlist: [], file}
  if (preference === undefined) return ignored(`no valid ${KUBERC_GROUP} Preference in ${file}`)
  if ('error' in preference) return ignored(`${file}: ${preference.error}`)
  const invalid = policyError(preference)
  // kubectl validates the policy after loading, explicit file or not, and then fails every command.
  if (invalid !== undefined) return {kind: 'broken', file, why: `${file}: ${invalid}`}
  return {
    kind: 'policy',
    policy: (preference.policy || 'AllowAll') as PluginPolicyType,
    allowlist: (preference.allowlist ?? []).map((entry) => entry.command),
    file,
  }
}

interface Preference {
  policy: string
  allowlist?: {command: string}[]
}

/** The first document kubectl decodes as a Preference; undefined when it is not one. */
function preferenceOf(document: unknown): Preference | {error: string} | undefined {
  if (!isRecord(document)) return undefined
  const apiVersion = document.apiVersion
  if (document.kind !== 'Preference' || typeof apiVersion !== 'string') return undefined
  if (apiVersion === `${KUBERC_GROUP}/v1alpha1`) return {policy: ''}
  if (apiVersion !== `${KUBERC_GROUP}/v1beta1`) return undefined
  const policy = document.credentialPluginPolicy ?? ''
  if (typeof policy !== 'string') return {error: 'credentialPluginPolicy must be a string'}
  const list = document.credentialPluginAllowlist
  if (list === undefined || list === null) return {policy}
  if (!Array.isArray(list)) return {error: 'credentialPluginAllowlist must be a list'}
  const allowlist: {command: string}[] = []
  for (const entry of list) {
    if (!isRecord(entry)) return {error: 'each credentialPluginAllowlist entry must be a mapping'}
    const command = typeof entry.command === 'string' ? entry.command : ''
    const name = typeof entry.name === 'string' ? entry.name : ''
    if (command && name && command !== name) {
      return {error: 'an allowlist entry has both `name` and `command`, with different values'}
    }
    allowlist.push({command: command || name})
  }
  return {policy, allowlist}
}

/** client-go's ValidatePluginPolicy, in its words. */
function policyError({policy, allowlist}: Preference): string | undefined {
  switch (policy) {
    case '':
    case 'AllowAll':
    case 'DenyAll':
      return allowlist === undefined
        ? undefined
        : `credentialPluginAllowlist is set, but credentialPluginPolicy is "${policy || 'AllowAll'}" (only Allowlist takes one)`
    case 'Allowlist': {
      if (allowlist === undefined)
        return 'credentialPluginPolicy is Allowlist, but credentialPluginAllowlist is unspecified'
      if (allowlist.length === 0) {
        return 'credentialPluginPolicy is Allowlist, but credentialPluginAllowlist is empty; use DenyAll instead'
      }
      const index = allowlist.findIndex(({command}) => command === '')
      if (index >= 0) return `credentialPluginAllowlist entry #${index + 1} is empty`
      const unclean = allowlist.find(({command}) => goClean(command) !== command)
      if (unclean) return `credentialPluginAllowlist entry "${unclean.command}" is not a normalized path`
      return undefined
    }
    default:
      return `unknown credentialPluginPolicy "${policy}" (AllowAll, DenyAll or Allowlist)`
  }
}

/** Go's exec.LookPath as kubectl sees it: the path it would run, undefined when it cannot. */
export type LookPath = (command: string) => string | undefined

export type CommandVerdict = {allowed: true; why: string} | {allowed: false; why: string}

/** Whether kubectl runs `command` (as a kubeconfig's user.exec.command says it) under `policy`. */
export function judgeCommand(policy: KubectlPolicy, command: string, lookPath: LookPath): CommandVerdict {
  if (policy.kind === 'broken') return {allowed: false, why: `kubectl refuses every command: ${policy.why}`}
  const where = policy.file === undefined ? `(${policy.why ?? 'no kuberc'})` : `in ${policy.file}`
  switch (policy.policy) {
    case 'AllowAll':
      return {allowed: true, why: `credential plugins are allowed ${where}`}
    case 'DenyAll':
      return {allowed: false, why: `credentialPluginPolicy is DenyAll ${where}`}
    case 'Allowlist':
      break
  }
  const listed = new Set(policy.allowlist)
  const cleaned = goClean(command)
  const allowed = {allowed: true, why: `${cleaned} is on the credentialPluginAllowlist ${where}`} as const
  if (listed.has(cleaned)) return allowed
  const resolved = lookPath(cleaned)
  if (resolved !== undefined && listed.has(resolved)) return allowed
  const unlisted = `it is not on the credentialPluginAllowlist ${where}`
  if (resolved === undefined)
    return {allowed: false, why: `${unlisted}, and kubectl cannot find it to compare`}
  // Entries of the same base name are looked up and compared by the path they resolve to.
  const sameFile = policy.allowlist.some(
    (entry) => path.basename(entry) === path.basename(resolved) && lookPath(entry) === resolved,
  )
  if (sameFile) return allowed
  return {
    allowed: false,
    why: resolved === cleaned ? unlisted : `${unlisted} (nor is ${resolved}, where kubectl finds it)`,
  }
}

/** Go's filepath.Clean, which client-go applies to the command before comparing. */
function goClean(command: string): string {
  if (command === '') return '.'
  const normal = path.normalize(command)
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal
}

/** What to change in the kuberc so that kubectl runs `commands` (refused under `policy`). */
export function allowAdvice(policy: KubectlPolicy, commands: string[]): string {
  if (policy.kind === 'broken') {
    return `fix ${policy.file}, or move it aside: kubectl runs nothing while it is invalid`
  }
  const file = policy.file ?? '~/.kube/kuberc'
  const added = commands.map(goClean).filter((command) => !policy.allowlist.includes(command))
  const entries = [...policy.allowlist, ...added]
  const lines = added.map((command) => `  - command: ${JSON.stringify(command)}`)
  const yaml =
    policy.policy === 'Allowlist'
      ? `add to credentialPluginAllowlist in ${file}:\n${lines.join('\n')}`
      : `in ${file}, replace credentialPluginPolicy: ${policy.policy} with:\n` +
        `credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n${entries.map((command) => `  - command: ${JSON.stringify(command)}`).join('\n')}`
  const command = kubercSetCommand(file, entries)
  // `kubectl kuberc set` replaces the whole allowlist, so the command names every entry.
  return command === undefined ? yaml : `${yaml}\nor run (it rewrites the list with every entry): ${command}`
}

/** The same advice on one line (doctor's hint): the entries in YAML's flow style. */
export function allowAdviceLine(policy: KubectlPolicy, commands: string[]): string {
  if (policy.kind === 'broken') return allowAdvice(policy, commands)
  const file = policy.file ?? '~/.kube/kuberc'
  const added = commands.map(goClean).filter((command) => !policy.allowlist.includes(command))
  const entries = [...policy.allowlist, ...added]
  const flow = (list: string[]) => list.map((command) => `{command: ${JSON.stringify(command)}}`).join(', ')
  const change =
    policy.policy === 'Allowlist'
      ? `add ${flow(added)} to credentialPluginAllowlist in ${file}`
      : `in ${file}, set credentialPluginPolicy: Allowlist and credentialPluginAllowlist: [${flow(entries)}]`
  const command = kubercSetCommand(file, entries)
  return command === undefined ? change : `${change}, or run: ${command}`
}

/** kubectl v1.37's command for it; undefined when an entry cannot pass through it (it splits on ","). */
export function kubercSetCommand(file: string, commands: string[]): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (commands.some((command) => command.includes(',') || /[\x00-\x1f\x7f]/.test(command))) return undefined
  return [
    'kubectl kuberc set',
    `--kuberc ${shellWord(file)}`,
    '--section credentialplugin --policy Allowlist',
    ...commands.map((command) => `--allowlist-entry ${shellWord(`command=${command}`)}`),
  ].join(' ')
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/** The distinct exec commands of a kubeconfig's users, in the order they first appear. */
export function execCommands(document: KubeconfigDocument): string[] {
  return [...new Set(document.users.flatMap(({user}) => (user.exec ? [user.exec.command] : [])))]
}

/**
 * For stderr after a kubeconfig is written: one warning per command kubectl would refuse (or one
 * for a kuberc that makes kubectl fail outright), saying what to add. Empty when all would run.
 */
export function refusalWarnings(policy: KubectlPolicy, commands: string[], lookPath: LookPath): string[] {
  if (commands.length === 0) return []
  if (policy.kind === 'broken') {
    return [
      `kubectl will refuse every command, these entries' too: ${policy.why}. To run them, ${allowAdvice(policy, [])}`,
    ]
  }
  const refused = commands.flatMap((command) => {
    const verdict = judgeCommand(policy, command, lookPath)
    return verdict.allowed ? [] : [{command, why: verdict.why}]
  })
  return refused.map(
    ({command, why}) =>
      `kubectl will refuse to run ${command}, the exec command of the entries just written: ${why}. ` +
      `To allow it, ${allowAdvice(policy, [command])}`,
  )
}
