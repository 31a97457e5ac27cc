// `cpcred version` (and `cpcred --version`, `-v`): what this copy is and what it runs with, for bug
// reports and for checking an install.
import {nodeEndOfLifeWarning, nodeSupport, nodeSupportText} from '../core/node-release.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {DOCUMENT_OUTPUT_FLAG} from './flags.js'
import type {Printer} from '../adapters/printer.js'
import {present} from './present.js'
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
  const node = warnIfNodeEnded(printer, info.node)
  await present(printer, flags.output, info, {
    data: ({version, commit, buildDate, node: running, ...rest}) =>
      // The line's end beside the Node; null when this cpcred knows no day for it.
      ({version, commit, buildDate, node: running, nodeEndOfLife: node.endOfLife ?? null, ...rest}),
    text: (outcome) => {
      const kubectl = outcome.kubectl.version
        ? `${outcome.kubectl.version} (${outcome.kubectl.path})`
        : `${outcome.kubectl.problem}${outcome.kubectl.path ? ` (${outcome.kubectl.path})` : ''}`
      printer.cells({
        rows: [
          ['cpcred', outcome.version],
          ['commit', outcome.commit],
          ['built', outcome.buildDate],
          ['node', nodeSupportText(node)],
          ['kubectl', kubectl],
          ['docs', outcome.docs ?? `none beside ${outcome.packageDir}`],
        ],
        padding: 2,
        minWidth: 0,
      })
    },
  })
}

/**
 * What is known of the running Node's line, with the warning of version and doctor once it is past
 * its end of life (src/core/node-release.ts).
 */
export function warnIfNodeEnded(printer: Printer, version = process.version, now = new Date()) {
  const node = nodeSupport(version, now)
  const warning = nodeEndOfLifeWarning(node)
  if (warning) printer.warn(warning)
  return node
}
