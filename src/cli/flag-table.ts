// A command's flags, declared once as plain data (as kubectl's genericclioptions and oclif's static
// `flags`): the oclif class builds its flags from the table (src/cli/oclif-flags.ts) and the fast
// path, which must not load oclif, parses with node:util parseArgs from the same table. Both read
// values by the same rules: defaults, whole numbers with a minimum, a fixed set of options, durations,
// flags that exclude or need each other.
import {parseArgs} from 'node:util'
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
    | {kind: 'string'; multiple?: boolean; default?: string}
    | {kind: 'option'; options: readonly string[]; default?: string}
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

/** The options node:util parseArgs takes for a table. */
export function parseArgsOptions(table: FlagTable) {
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
 * The fast path's parser: strict (an unknown flag is a usage error), positionals allowed, every
 * value read and checked by the table. `usage` is shown with any mistake.
 */
export function parseFlags<T extends FlagTable>(table: T, argv: string[], usage: string): ParsedArgs<T> {
  let parsed
  try {
    parsed = parseArgs({args: argv, options: parseArgsOptions(table), strict: true, allowPositionals: true})
  } catch (error) {
    // Its messages run to three lines; the first says it all.
    throw new UsageError((error as Error).message.split('\n')[0]!, usage)
  }
  return {flags: readFlagValues(table, parsed.values, usage), positionals: parsed.positionals}
}

/** Checks and converts raw parseArgs values by the table (exported for the agreement test). */
export function readFlagValues<T extends FlagTable>(
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
      return spec.multiple
        ? ((given as string[] | undefined) ?? [])
        : ((given as string | undefined) ?? spec.default)
    case 'option': {
      const value = (given as string | undefined) ?? spec.default
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
