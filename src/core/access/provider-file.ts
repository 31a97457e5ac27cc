// The consumer's provider file (the upstream `--clusterprofile-provider-file` JSON of
// sigs.k8s.io/cluster-inventory-api/pkg/access) and the KEP-5339 flag form `name='command args'`.
// Only these two say which command may run: a profile never does (docs/design.md §5).
import {parse as parseShellWords, type ParseEntry} from 'shell-quote'
import {UsageError} from '../errors.js'
import {isRecord} from '../json.js'
import {locateJsonSyntaxError} from './json-position.js'
import {
  parseServiceAccountTokenBlock,
  SERVICE_ACCOUNT_TOKEN_FIELD,
  type ServiceAccountTokenBlock,
} from './service-account-token.js'
import {
  EXEC_API_V1,
  EXEC_API_VERSIONS,
  INTERACTIVE_MODES,
  type ExecApiVersion,
  type ExecConfig,
  type ExecEnvVar,
  type InteractiveMode,
} from './exec-config.js'

export const CLI_ARGS_POLICIES = ['', 'Ignore', 'Append'] as const
export type ProfileSourcedCLIArgsPolicy = (typeof CLI_ARGS_POLICIES)[number]

export const ENV_VARS_POLICIES = ['', 'Ignore', 'AppendIfNotExists', 'Replace'] as const
export type ProfileSourcedEnvVarsPolicy = (typeof ENV_VARS_POLICIES)[number]

/** The two profile-sourced policies: each field and the values it may take, read and checked alike. */
export const PROFILE_SOURCED_POLICIES = {
  profileSourcedCLIArgsPolicy: CLI_ARGS_POLICIES,
  profileSourcedEnvVarsPolicy: ENV_VARS_POLICIES,
} as const
export type PolicyField = keyof typeof PROFILE_SOURCED_POLICIES

export interface Provider {
  name: string
  execConfig: ExecConfig
  /** Absent or `''` means Ignore: a profile cannot add arguments unless the consumer opts in. */
  profileSourcedCLIArgsPolicy?: ProfileSourcedCLIArgsPolicy
  /** Absent or `''` means Ignore: a profile cannot add environment unless the consumer opts in. */
  profileSourcedEnvVarsPolicy?: ProfileSourcedEnvVarsPolicy
  /** cpcred's own: a hub-issued token handed to the plugin in a private file (service-account-token.ts). */
  serviceAccountToken?: ServiceAccountTokenBlock
  /** Set when the command named cpcred itself (plugin-commands.ts), now the command this cpcred runs by. */
  runsSelf?: true
}

export interface ProviderFile {
  providers: Provider[]
  /** Things that do not stop the file from working but that its author should hear about. */
  warnings: string[]
}

const PROVIDER_FIELDS = new Set([
  'name',
  'execConfig',
  'profileSourcedCLIArgsPolicy',
  'profileSourcedEnvVarsPolicy',
  SERVICE_ACCOUNT_TOKEN_FIELD,
])
const EXEC_CONFIG_FIELDS = new Set([
  'apiVersion',
  'command',
  'args',
  'env',
  'provideClusterInfo',
  'interactiveMode',
  'installHint',
])

const PROVIDER_FILE_HINT =
  'The provider file is JSON: {"providers": [{"name": "...", "execConfig": {"apiVersion": ' +
  `"${EXEC_API_V1}", "command": "/path/to/plugin"}}]}`

/**
 * Reads a provider file. Stricter than the upstream Go library, which takes whatever encoding/json
 * accepts: a mistake here would otherwise surface later as a plugin that runs with the wrong
 * arguments, or as "no provider in common" with no hint why.
 *
 * Unknown fields are warnings, not errors, so a file shared with a Go controller keeps working when
 * upstream adds a field; keys are matched exactly (encoding/json would also take `ExecConfig`).
 *
 * `interactiveMode` stays absent when the file omits it. client-go requires it for v1 and defaults
 * it to IfAvailable for v1beta1, but the upstream library ignores the file's value and always runs
 * plugins with Never; resolveAccess fills in that same Never, so a file written for a controller
 * never starts prompting under cpcred. An explicit value is kept (a person at a terminal may want
 * a browser or device-code login).
 */
export function parseProviderFile(text: string, source: string): ProviderFile {
  const document = parseJson(text.replace(/^\uFEFF/, ''), source)
  if (!isRecord(document)) {
    throw new UsageError(
      `${source}: the provider file must be a JSON object with a "providers" list`,
      PROVIDER_FILE_HINT,
    )
  }
  const warnings: string[] = []
  for (const key of Object.keys(document)) {
    if (key !== 'providers') warnings.push(`${source}: unknown field "${key}" is ignored`)
  }
  const list = document.providers
  if (list === undefined || list === null) {
    warnings.push(`${source}: lists no providers, so no profile can be reached with it`)
    return {providers: [], warnings}
  }
  if (!Array.isArray(list)) {
    throw new UsageError(
      `${source}: "providers" must be a list, not ${describeJsonType(list)}`,
      PROVIDER_FILE_HINT,
    )
  }

  const providers = list.map((entry, index) =>
    parseProviderEntry(entry, `${source}: providers[${index}]`, warnings),
  )
  const firstIndexByName = new Map<string, number>()
  providers.forEach((provider, index) => {
    const earlier = firstIndexByName.get(provider.name)
    if (earlier !== undefined) {
      throw new UsageError(
        `${source}: providers[${index}] repeats the name "${provider.name}" of providers[${earlier}]`,
        'Each provider name may appear once; remove or rename one of them.',
      )
    }
    firstIndexByName.set(provider.name, index)
  })
  if (providers.length === 0)
    warnings.push(`${source}: lists no providers, so no profile can be reached with it`)
  return {providers, warnings}
}

function parseProviderEntry(entry: unknown, at: string, warnings: string[]): Provider {
  if (!isRecord(entry)) throw new UsageError(`${at}: must be an object, not ${describeJsonType(entry)}`)
  const name = entry.name
  if (typeof name !== 'string' || name.trim() === '') {
    throw new UsageError(`${at}: "name" must be a non-empty string (the provider name profiles offer)`)
  }
  const where = `${at} ("${name}")`
  for (const key of Object.keys(entry)) {
    if (!PROVIDER_FIELDS.has(key)) warnings.push(`${where}: unknown field "${key}" is ignored`)
  }

  const provider: Provider = {
    name,
    execConfig: parseExecConfig(entry.execConfig, `${where}: execConfig`, warnings),
  }
  for (const field of Object.keys(PROFILE_SOURCED_POLICIES) as PolicyField[]) {
    const policy = parsePolicy(entry[field], PROFILE_SOURCED_POLICIES[field], where, field)
    if (policy !== undefined) Object.assign(provider, {[field]: policy})
  }
  const block = parseServiceAccountTokenBlock(
    entry[SERVICE_ACCOUNT_TOKEN_FIELD],
    where,
    warnings,
    (provider.execConfig.env ?? []).map((variable) => variable.name),
  )
  if (block !== undefined) provider.serviceAccountToken = block
  return provider
}

function parsePolicy<Policy extends string>(
  value: unknown,
  allowed: readonly Policy[],
  where: string,
  field: string,
): Policy | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as Policy
  throw new UsageError(
    `${where}: ${field} ${JSON.stringify(value)} is not one of ${allowed.map((policy) => `"${policy}"`).join(', ')}`,
    'Leave it out (or use "Ignore") unless you want profiles to change how this plugin runs.',
  )
}

function parseExecConfig(value: unknown, at: string, warnings: string[]): ExecConfig {
  if (value === undefined || value === null) {
    throw new UsageError(
      `${at} is required: it says which plugin to run for this provider`,
      PROVIDER_FILE_HINT,
    )
  }
  if (!isRecord(value)) throw new UsageError(`${at}: must be an object, not ${describeJsonType(value)}`)
  for (const key of Object.keys(value)) {
    if (!EXEC_CONFIG_FIELDS.has(key)) warnings.push(`${at}: unknown field "${key}" is ignored`)
  }

  const {apiVersion, command, args, env, provideClusterInfo, interactiveMode, installHint} = value
  if (typeof apiVersion !== 'string' || !(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) {
    const got = apiVersion === undefined ? 'is missing' : `is ${JSON.stringify(apiVersion)}`
    throw new UsageError(
      `${at}.apiVersion ${got}: must be one of ${EXEC_API_VERSIONS.join(', ')}`,
      'Use the ExecCredential version the plugin speaks (see its documentation); most speak v1.',
    )
  }
  if (typeof command !== 'string' || command.trim() === '') {
    throw new UsageError(`${at}.command must be a non-empty string (the plugin executable)`)
  }
  const execConfig: ExecConfig = {apiVersion: apiVersion as ExecApiVersion, command}

  if (args !== undefined && args !== null) {
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      throw new UsageError(`${at}.args must be a list of strings, like ["--flag", "value"]`)
    }
    execConfig.args = [...args]
  }
  if (env !== undefined && env !== null) execConfig.env = parseEnv(env, `${at}.env`)
  if (provideClusterInfo !== undefined && provideClusterInfo !== null) {
    if (typeof provideClusterInfo !== 'boolean')
      throw new UsageError(`${at}.provideClusterInfo must be true or false`)
    execConfig.provideClusterInfo = provideClusterInfo
  }
  // client-go reads "" as "not set", so an empty string is not an error here either.
  if (interactiveMode !== undefined && interactiveMode !== null && interactiveMode !== '') {
    if (
      typeof interactiveMode !== 'string' ||
      !(INTERACTIVE_MODES as readonly string[]).includes(interactiveMode)
    ) {
      throw new UsageError(
        `${at}.interactiveMode ${JSON.stringify(interactiveMode)} is not one of ${INTERACTIVE_MODES.join(', ')}`,
      )
    }
    execConfig.interactiveMode = interactiveMode as InteractiveMode
  }
  if (installHint !== undefined && installHint !== null) {
    if (typeof installHint !== 'string') throw new UsageError(`${at}.installHint must be a string`)
    execConfig.installHint = installHint
  }
  return execConfig
}

function parseEnv(value: unknown, at: string): ExecEnvVar[] {
  if (!Array.isArray(value)) {
    throw new UsageError(
      `${at} must be a list of {"name": ..., "value": ...} objects, not ${describeJsonType(value)}`,
    )
  }
  return value.map((entry, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string' || typeof entry.value !== 'string') {
      throw new UsageError(`${at}[${index}] must be {"name": "<string>", "value": "<string>"}`)
    }
    if (entry.name === '' || entry.name.includes('=')) {
      throw new UsageError(`${at}[${index}].name ${JSON.stringify(entry.name)} is not a usable variable name`)
    }
    return {name: entry.name, value: entry.value}
  })
}

/**
 * Reads one `--access-provider` value (KEP-5339 calls it --clusterprofile-access-provider), KEP-5339's flag form of a provider:
 * `google='/usr/bin/gke-gcloud-auth-plugin --flag1 v1'`. The quoted part is a command line, split
 * the way a shell splits words; `name="…"`, `name=/single/word` and an unquoted command line work too.
 *
 * The KEP gives the flag only a name, an executable and its arguments, and the upstream library
 * does not implement it, so the rest is cpcred's choice: apiVersion v1 (the GA version of the
 * exec credential API), provideClusterInfo true (plugins written for ClusterProfiles, such as
 * the upstream secretreader, read the cluster and the `client.authentication.k8s.io/exec` extension
 * from it, and none of it is secret), and no profile-sourced args or env (the Ignore default).
 * Whoever needs other settings writes a provider file.
 */
export function parseAccessProviderFlag(value: string): Provider {
  const at = `--access-provider ${JSON.stringify(value)}`
  const hint = `Write it as name='/path/to/plugin --flag value', for example google='/usr/bin/gke-gcloud-auth-plugin'.`
  const equals = value.indexOf('=')
  if (equals < 0) throw new UsageError(`${at}: expected name=command`, hint)
  const name = value.slice(0, equals).trim()
  if (name === '' || /[\s'"]/.test(name)) {
    throw new UsageError(`${at}: the provider name before "=" must be a non-empty word`, hint)
  }
  const commandLine = value.slice(equals + 1).trim()
  let words = splitCommandLine(commandLine, at)
  // KEP form: the whole value is one quoted word that holds the command line.
  if (words.length === 1 && /^['"]/.test(commandLine)) words = splitCommandLine(words[0] as string, at)
  const [command, ...args] = words
  if (command === undefined || command === '') throw new UsageError(`${at}: no command after "="`, hint)
  if (command.startsWith('~')) {
    throw new UsageError(`${at}: "~" is not expanded here; write the plugin's full path`, hint)
  }
  return {name, execConfig: {apiVersion: EXEC_API_V1, command, args, provideClusterInfo: true}}
}

/**
 * Shell-style word splitting, and nothing more: the flag gives argv, not a script, so operators,
 * globs, comments and `$VAR` (which shell-quote would quietly replace with nothing) are refused
 * rather than guessed at.
 */
function splitCommandLine(commandLine: string, at: string): string[] {
  checkQuoting(commandLine, at)
  let entries: Array<ParseEntry | {variable: string}>
  try {
    entries = parseShellWords(commandLine, (variable) => ({variable}))
  } catch (error) {
    throw new UsageError(`${at}: cannot split the command: ${(error as Error).message}`)
  }
  const quoteIt =
    'Put the command in single quotes, and single-quote any argument that holds such characters.'
  return entries.map((entry) => {
    if (typeof entry === 'string') return entry
    if ('variable' in entry) {
      const what =
        entry.variable === '' ? 'a "$" substitution' : `"$${entry.variable}" (an environment variable)`
      throw new UsageError(`${at}: ${what} is not expanded here; no shell reads this value`, quoteIt)
    }
    if ('comment' in entry) {
      throw new UsageError(`${at}: "#" starts a shell comment, which a command line cannot have`, quoteIt)
    }
    if (entry.op === 'glob') {
      throw new UsageError(`${at}: "${entry.pattern}" is a glob pattern; no shell expands it here`, quoteIt)
    }
    throw new UsageError(
      `${at}: "${entry.op}" is a shell operator; the value is one command, not a script`,
      quoteIt,
    )
  })
}

/**
 * What shell-quote lets through silently: it drops an unclosed quote and keeps backticks as text,
 * so `"a b` would become the words `a`, `b` and a backticked command a literal argument.
 */
function checkQuoting(commandLine: string, at: string): void {
  let quote: string | undefined
  for (let index = 0; index < commandLine.length; index++) {
    const char = commandLine[index]
    if (quote === "'") {
      if (char === "'") quote = undefined
    } else if (char === '\\') {
      index++
      if (index >= commandLine.length) throw new UsageError(`${at}: ends with a lone backslash`)
    } else if (char === '`') {
      throw new UsageError(`${at}: backticks would be command substitution, which is not run here`)
    } else if (quote === '"') {
      if (char === '"') quote = undefined
    } else if (char === "'" || char === '"') {
      quote = char
    }
  }
  if (quote) throw new UsageError(`${at}: the ${quote} quote is never closed`)
}

/**
 * The providers to use: the file's, with a flag replacing the file entry of the same name in place
 * (so the file's order, which decides matching, is kept) and new names appended in flag order.
 */
export function mergeProviders(fromFile: Provider[], fromFlags: Provider[]): Provider[] {
  const merged = [...fromFile]
  for (const flagProvider of fromFlags) {
    const index = merged.findIndex((provider) => provider.name === flagProvider.name)
    if (index >= 0) merged[index] = flagProvider
    else merged.push(flagProvider)
  }
  return merged
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Not the parser's message: Node 20's has no position and quotes the file, which may hold env values.
    const {line, column, problem} = locateJsonSyntaxError(text)
    throw new UsageError(
      `${source}: invalid JSON at line ${line}, column ${column}: ${problem}`,
      PROVIDER_FILE_HINT,
    )
  }
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  return `the ${typeof value} ${JSON.stringify(value)}`
}
