// `cpcred version` (and `cpcred --version`, `-v`): what this copy is and what it runs with, for bug
// reports and for checking an install.
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {DOCUMENT_OUTPUT_FLAG} from './flags.js'
import type {Wiring} from './wiring.js'

export const VERSION_FLAGS = {
  ...DOCUMENT_OUTPUT_FLAG,
} as const satisfies FlagTable

export const VERSION_USAGE = usageLine('version', '')

/** The words that ask for the version instead of naming a command. */
export const VERSION_WORDS = ['--version', '-v']

/** What the words of `cpcred version` ask for. */
export interface VersionRequest {
  flags: FlagValues<typeof VERSION_FLAGS>
}

/** The words of `cpcred version`; other words are let be, as they always were. */
export function parseVersion(argv: string[], _env: NodeJS.ProcessEnv = {}): VersionRequest {
  const {flags} = parseFlags(VERSION_FLAGS, argv, VERSION_USAGE)
  return {flags}
}

export async function runVersion(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags} = parseVersion(argv, wiring.env)
  const info = await wiring.buildInfo()
  const {printer} = wiring
  if (flags.output !== 'text') {
    printer.data(await (await import('../core/text/export.js')).exportData(info, flags.output))
    return
  }
  const kubectl = info.kubectl.version
    ? `${info.kubectl.version} (${info.kubectl.path})`
    : `${info.kubectl.problem}${info.kubectl.path ? ` (${info.kubectl.path})` : ''}`
  printer.cells({
    rows: [
      ['cpcred', info.version],
      ['commit', info.commit],
      ['built', info.buildDate],
      ['node', info.node],
      ['kubectl', kubectl],
      ['docs', info.docs ?? `none beside ${info.packageDir}`],
    ],
    padding: 2,
    minWidth: 0,
  })
}
