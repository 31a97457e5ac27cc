// oclif flags built from a command's flag table (src/cli/flag-table.ts): the table is the one
// definition, this is how oclif's parser and help see it.
import {Flags, type Interfaces} from '@oclif/core'
import {parseDuration} from '../core/duration.js'
import {readInteger, type FlagSpec, type FlagTable, type FlagValue} from './flag-table.js'

export type OclifFlags<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K] extends {kind: 'boolean'}
    ? Interfaces.BooleanFlag<boolean>
    : // oclif leaves a repeatable flag that was not given undefined (a default of [] would count as
      // given for dependsOn), where the fast path reads it as [].
      T[K] extends {multiple: true}
      ? Interfaces.OptionFlag<string[] | undefined>
      : Interfaces.OptionFlag<FlagValue<T[K]>>
}

export function oclifFlags<T extends FlagTable>(table: T): OclifFlags<T> {
  const flags: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) flags[name] = oclifFlag(name, spec)
  return flags as OclifFlags<T>
}

function oclifFlag(name: string, spec: FlagSpec) {
  const common = {
    summary: spec.summary,
    char: spec.char as Interfaces.AlphabetLowercase | Interfaces.AlphabetUppercase | undefined,
    helpGroup: spec.helpGroup,
    exclusive: spec.exclusive ? [...spec.exclusive] : undefined,
    dependsOn: spec.dependsOn ? [...spec.dependsOn] : undefined,
    hidden: spec.hidden,
  }
  const flag = `--${name}`
  switch (spec.kind) {
    case 'boolean':
      return Flags.boolean({...common, default: false})
    case 'string':
      return spec.multiple
        ? Flags.string({...common, multiple: true})
        : Flags.string({
            ...common,
            default: spec.default,
            parse: async (input) => {
              spec.check?.(input)
              return input
            },
          })
    case 'option':
      return Flags.string({...common, options: [...spec.options], default: spec.default})
    case 'integer':
      // The fast path's rule, so both parsers accept and refuse the same values.
      return Flags.custom<number>({parse: async (input) => readInteger(flag, input, spec.min)})({
        ...common,
        helpValue: '<value>',
        default: spec.default,
      })
    case 'duration': {
      const shown = spec.default
      return Flags.custom<number>({parse: async (input) => parseDuration(input, flag)})({
        ...common,
        helpValue: '<duration>',
        default: shown === undefined ? undefined : parseDuration(shown, flag),
        defaultHelp: async () => shown,
      })
    }
  }
}
