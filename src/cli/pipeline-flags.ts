// The flags of the credential pipeline that the answer path (src/cli/answer.ts) reads too: after
// them the full path must run, because it explains itself or skips the cache. Plain data with
// nothing imported, so that dist/fast/answer.cjs stays small; src/cli/flags.ts shares them with
// every command that has them.
import type {FlagTable} from './flag-table.js'

export const VERBOSE_FLAG = {
  verbose: {kind: 'boolean', char: 'v', summary: 'Say what cpcred does (secrets are never printed).'},
} as const satisfies FlagTable

export const NO_CACHE_FLAG = {
  'no-cache': {
    kind: 'boolean',
    summary: 'Always run the plugin; neither read nor write the credential cache.',
  },
} as const satisfies FlagTable

/** Whether `arg` sets one of the table's flags (--name or -c, alone or with =value), by parseFlags' grammar. */
export function setsFlagOf(table: FlagTable, arg: string): boolean {
  const [written] = arg.split('=', 1)
  return Object.entries(table).some(
    ([name, spec]) => written === `--${name}` || (spec.char !== undefined && written === `-${spec.char}`),
  )
}
