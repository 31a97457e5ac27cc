// What the built-in exec credential plugins' front ends (`cpcred plugin secretreader|token-request`)
// share: how they find the hub on the command line, and printing the ExecCredential. kubectl runs
// these plugins on every request, so this module loads only small modules; stdout carries the
// ExecCredential and nothing else. The rules they share are src/core/exec-credential/exec-info.ts's.
import {UsageError} from '../../core/errors.js'
import {EXEC_INFO_ENV, renderExecCredential} from '../../core/exec-credential/protocol.js'
import type {PluginOutcome} from '../../usecases/read-secret-token.js'
import type {HubOpener} from '../../usecases/ports.js'
import {parseFlags, type FlagTable, type FlagValues} from '../flag-table.js'
import type {Wiring} from '../wiring.js'

/** What a plugin's front needs of the run's wiring: its environment, the printer and the hub. */
export type PluginIo = Pick<Wiring, 'env' | 'printer' | 'openHub'>

/** How the built-in plugins find the hub, and -v; each plugin adds its own -n. */
export const PLUGIN_HUB_FLAGS = {
  kubeconfig: {
    kind: 'string',
    summary: 'The hub kubeconfig (default: KUBECONFIG, which cpcred pins to the hub, then ~/.kube/config).',
    helpGroup: 'HUB',
  },
  context: {
    kind: 'string',
    summary: 'The hub context (default: CPCRED_HUB_CONTEXT, then the current context).',
    helpGroup: 'HUB',
  },
  verbose: {kind: 'boolean', char: 'v', summary: 'Say on stderr what was read on the hub (never the token).'},
} as const satisfies FlagTable

/** The plugin's flags by its table; a plugin takes no arguments. */
export function parsePluginArgs<T extends FlagTable>(argv: string[], table: T, usage: string): FlagValues<T> {
  const {flags, positionals} = parseFlags(table, argv, usage)
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`, usage)
  }
  return flags
}

/** What each plugin's use case is given: the hub, and KUBERNETES_EXEC_INFO with the options. */
type PluginCommand<O> = (
  ports: {openHub: HubOpener},
  input: {options: O; execInfo: string | undefined; env: NodeJS.ProcessEnv},
) => Promise<PluginOutcome>

/** Runs the plugin's use case with these options in this run, and writes its answer. */
export async function answerWith<O>(io: PluginIo, command: PluginCommand<O>, options: O): Promise<void> {
  const answer = await command(
    {openHub: (selection) => io.openHub(selection)},
    {options, execInfo: io.env[EXEC_INFO_ENV], env: io.env},
  )
  writeAnswer(io, answer)
}

/** The note of -v on stderr, then the ExecCredential on stdout. */
function writeAnswer(io: PluginIo, answer: PluginOutcome): void {
  if (answer.note) io.printer.note(answer.note)
  io.printer.data(`${renderExecCredential(answer.credential, answer.apiVersion)}\n`)
}
