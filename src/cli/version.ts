// `cpcred version` (and `cpcred --version`, `-v`): what this copy is and what it runs with, for bug
// reports and for checking an install.
import {parseFlags, usageLine, type FlagTable} from './flag-table.js'
import {DOCUMENT_OUTPUT_FLAG} from './flags.js'
import type {Wiring} from './wiring.js'

export const VERSION_FLAGS = {
  ...DOCUMENT_OUTPUT_FLAG,
} as const satisfies FlagTable

export const VERSION_USAGE = usageLine('version', '')

/** The words that ask for the version instead of naming a command. */
export const VERSION_WORDS = ['--version', '-v']

export async function runVersion(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags} = parseFlags(VERSION_FLAGS, argv, VERSION_USAGE)
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
