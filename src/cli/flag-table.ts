// A command's flags, declared once as plain data (as kubectl's genericclioptions and oclif's static
// `flags`): the oclif class builds its flags from the table (src/cli/oclif-flags.ts) and the fast
// path, which must not load oclif, parses with parseFlags below from the same table. Both read
// values by the same rules: defaults, whole numbers with a minimum, a fixed set of options, durations,
// flags that exclude or need each other. The words are read by kubectl's grammar (parseFlags below).
import {distance} from 'fastest-levenshtein'
import {parseDuration} from '../core/duration.js'
import {UsageError} from '../core/errors.js'

interface CommonSpec {
  /** One line of help, as oclif shows it. */
  summary: string
  /** A one-letter alias (-n). */
  char?: string
  /** The help section it is listed under (HUB, PROVIDERS, …). */
  helpGroup?: string
  /** Flags that cannot be used together with this one. */
  exclusive?: readonly string[]
  /** Flags this one needs. */
  dependsOn?: readonly string[]
  hidden?: boolean
}

export type FlagSpec = CommonSpec &
  (
    | {kind: 'boolean'}
    | {
        kind: 'string'
        multiple?: boolean
        default?: string
        /** A rule the value given must keep: throws a UsageError that says what is wrong. */
        check?: (value: string) => void
      }
    | {
        kind: 'option'
        options: readonly string[]
        default?: string
        /** Words read as one of the options, not shown in help: old names that scripts still use. */
        aliases?: Readonly<Record<string, string>>
      }
    | {kind: 'integer'; min?: number; default?: number}
    /** Written like 90s, 5m or 1h30m; read as milliseconds. */
    | {kind: 'duration'; default?: string}
  )

export type FlagTable = Readonly<Record<string, FlagSpec>>

type ValueOf<S> = S extends {kind: 'integer' | 'duration'}
  ? number
  : S extends {kind: 'option'; options: readonly (infer O)[]}
    ? O
    : string

/** The value a flag has after parsing: booleans are always set, flags with a default too. */
export type FlagValue<S> = S extends {kind: 'boolean'}
  ? boolean
  : S extends {multiple: true}
    ? string[]
    : S extends {default: string | number}
      ? ValueOf<S>
      : ValueOf<S> | undefined

export type FlagValues<T extends FlagTable> = {-readonly [K in keyof T]: FlagValue<T[K]>}

/** Each flag's shape (takes a value, one-letter alias, repeatable): what oclif's help must agree with. */
export function flagShapes(table: FlagTable) {
  const options: Record<string, {type: 'string' | 'boolean'; short?: string; multiple?: boolean}> = {}
  for (const [name, spec] of Object.entries(table)) {
    options[name] = {
      type: spec.kind === 'boolean' ? 'boolean' : 'string',
      ...(spec.char ? {short: spec.char} : {}),
      ...(spec.kind === 'string' && spec.multiple ? {multiple: true} : {}),
    }
  }
  return options
}

export interface ParsedArgs<T extends FlagTable> {
  flags: FlagValues<T>
  positionals: string[]
}

/**
 * The parser of every command's flags, by kubectl's (pflag's) grammar: `--name value`, `--name=value`,
 * `-n value`, `-n=value`, `-nvalue`, booleans grouped (`-Aq`) or written `--all=false`; a flag that
 * takes a value takes the next word whatever it is (`--parallel -3` is a bad number, not a flag);
 * `--` ends the flags. An unknown flag is a usage error that names the nearest one in the table.
 * `usage` is shown with any mistake.
 */
export function parseFlags<T extends FlagTable>(table: T, argv: string[], usage: string): ParsedArgs<T> {
  const byChar = new Map(
    Object.entries(table)
      .filter(([, spec]) => spec.char)
      .map(([name, spec]) => [spec.char!, name]),
  )
  const raw: Record<string, string | boolean | string[]> = {}
  const positionals: string[] = []
  const set = (name: string, value: string | boolean) => {
    const spec = table[name]!
    if (spec.kind === 'string' && spec.multiple)
      raw[name] = [...((raw[name] as string[]) ?? []), value as string]
    else raw[name] = value
  }
  /** The value of a flag that takes one: given inline, or the next word. */
  const valueOf = (shown: string, inline: string | undefined, index: number): [string, number] => {
    if (inline !== undefined) return [inline, index]
    if (index + 1 >= argv.length) throw new UsageError(`flag needs an argument: ${shown}`, usage)
    return [argv[index + 1]!, index + 1]
  }
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!
    if (word === '--') {
      positionals.push(...argv.slice(index + 1))
      break
    }
    if (word.startsWith('--')) {
      const [name, inline] = splitOnce(word.slice(2))
      const spec = table[name]
      if (!spec) throw unknownFlag(`--${name}`, table, usage)
      if (spec.kind === 'boolean') set(name, readBoolean(`--${name}`, inline, usage))
      else {
        const [value, at] = valueOf(`--${name}`, inline, index)
        index = at
        set(name, value)
      }
      continue
    }
    if (word.startsWith('-') && word.length > 1) {
      // A group of one-letter flags; the first that takes a value takes the rest of the word.
      for (let at = 1; at < word.length; at++) {
        const char = word[at]!
        const name = byChar.get(char)
        if (!name) throw unknownFlag(`-${char}`, table, usage, word)
        const spec = table[name]!
        if (spec.kind === 'boolean') {
          if (word[at + 1] === '=') {
            set(name, readBoolean(`-${char}`, word.slice(at + 2), usage))
            break
          }
          set(name, true)
          continue
        }
        const rest = word.slice(at + 1)
        const [value, next] = valueOf(`-${char}`, rest === '' ? undefined : rest.replace(/^=/, ''), index)
        index = next
        set(name, value)
        break
      }
      continue
    }
    positionals.push(word)
  }
  return {flags: readFlagValues(table, raw, usage), positionals}
}

function splitOnce(text: string): [string, string | undefined] {
  const equals = text.indexOf('=')
  return equals === -1 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)]
}

function readBoolean(shown: string, inline: string | undefined, usage: string): boolean {
  if (inline === undefined || inline === 'true') return true
  if (inline === 'false') return false
  throw new UsageError(`${shown}=${JSON.stringify(inline)}: a yes/no flag is true or false`, usage)
}

/** kubectl's "unknown flag", with the nearest flag of the command when one is close. */
function unknownFlag(shown: string, table: FlagTable, usage: string, word = shown): UsageError {
  // One-letter typos have no useful neighbour; a long one's is within a third of its length.
  const typed = shown.startsWith('--') ? shown.slice(2) : undefined
  const nearest =
    typed === undefined
      ? undefined
      : Object.entries(table)
          .filter(([, spec]) => !spec.hidden)
          .map(([name]) => ({flag: `--${name}`, score: distance(typed, name)}))
          .filter(({score}) => score <= Math.max(2, Math.floor(typed.length / 3)))
          .sort((a, b) => a.score - b.score)[0]
  const what = shown.startsWith('--')
    ? `unknown flag: ${shown}`
    : `unknown shorthand flag: ${shown} in ${word}`
  return new UsageError(nearest ? `${what} (did you mean ${nearest.flag}?)` : what, usage)
}

/** Checks and converts raw values by the table. */
function readFlagValues<T extends FlagTable>(
  table: T,
  raw: Record<string, string | boolean | (string | boolean)[] | undefined>,
  usage?: string,
): FlagValues<T> {
  const values: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    const given = raw[name]
    for (const other of spec.exclusive ?? []) {
      if (given !== undefined && raw[other] !== undefined)
        throw new UsageError(`--${name} and --${other} cannot be used together`, usage)
    }
    for (const needed of spec.dependsOn ?? []) {
      if (given !== undefined && raw[needed] === undefined)
        throw new UsageError(`--${name} needs --${needed}`, usage)
    }
    values[name] = readValue(name, spec, given)
  }
  return values as FlagValues<T>
}

function readValue(name: string, spec: FlagSpec, given: unknown): unknown {
  const flag = `--${name}`
  switch (spec.kind) {
    case 'boolean':
      return given === true
    case 'string':
      if (spec.multiple) return (given as string[] | undefined) ?? []
      if (given !== undefined) spec.check?.(given as string)
      return (given as string | undefined) ?? spec.default
    case 'option': {
      const written = (given as string | undefined) ?? spec.default
      const value =
        written !== undefined && spec.aliases && Object.hasOwn(spec.aliases, written)
          ? spec.aliases[written]
          : written
      if (value !== undefined && !spec.options.includes(value))
        throw new UsageError(`${flag} ${JSON.stringify(value)} is not one of ${spec.options.join(', ')}`)
      return value
    }
    case 'integer':
      return given === undefined ? spec.default : readInteger(flag, given as string, spec.min)
    case 'duration': {
      const value = (given as string | undefined) ?? spec.default
      return value === undefined ? undefined : parseDuration(value, flag)
    }
  }
}

/** A whole number, at least `min`: the same rule oclif's integer flags apply. */
export function readInteger(flag: string, text: string, min?: number): number {
  const value = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || (min !== undefined && value < min)) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)} is not a whole number${min === undefined ? '' : ` of ${min} or more`}`,
    )
  }
  return value
}

/** The usage line the fast path shows with a mistake; the flags are in `cpcred COMMAND --help`. */
export function usageLine(command: string, operands: string): string {
  return `usage: cpcred ${command}${operands ? ` ${operands}` : ''} [flags]\nSee 'cpcred ${command} --help' for the flags.`
}

/** The one operand a command takes (a PROFILE), if given; more than one is a usage error. */
export function atMostOneOperand(positionals: string[], usage: string): string | undefined {
  if (positionals.length > 1) {
    throw new UsageError(
      `one profile at a time, got ${positionals.length}: ${positionals.map((arg) => JSON.stringify(arg)).join(' ')}`,
      usage,
    )
  }
  return positionals[0]
}
