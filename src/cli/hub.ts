// `cpcred hub` and `cpcred hub use`: which hub cpcred reads and what chose it, and the hub it keeps
// (src/commands/hub/ gives them help text).
import {UsageError} from '../core/errors.js'
import {hubCommand, hubUseCommand} from '../usecases/hub-choice.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {HUB_FLAGS, hubSelection} from './flags.js'
import type {Wiring} from './wiring.js'

export const HUB_SHOW_FLAGS = {
  kubeconfig: HUB_FLAGS.kubeconfig,
  context: HUB_FLAGS.context,
} as const satisfies FlagTable
const HUB_SHOW_USAGE = usageLine('hub', '')

export const HUB_USE_FLAGS = {
  kubeconfig: {
    kind: 'string',
    summary:
      'The kubeconfig file that holds CONTEXT (default: KUBECONFIG, then ~/.kube/config, read on each use).',
  },
  unset: {kind: 'boolean', summary: "Forget the kept hub: kubectl's current context chooses again."},
} as const satisfies FlagTable
const HUB_USE_USAGE = usageLine('hub use', '(CONTEXT | --unset)')

/** What the words of `cpcred hub` ask for. */
export interface HubShowRequest {
  flags: FlagValues<typeof HUB_SHOW_FLAGS>
}

/** The words of `cpcred hub`, read and checked without the hub. */
export function parseHubShow(argv: string[], _env: NodeJS.ProcessEnv = {}): HubShowRequest {
  const {flags, positionals} = parseFlags(HUB_SHOW_FLAGS, argv, HUB_SHOW_USAGE)
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument "${positionals[0]}"`,
      `${HUB_SHOW_USAGE}; to choose the hub: cpcred hub use CONTEXT`,
    )
  }
  return {flags}
}

export async function runHubShow(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags} = parseHubShow(argv, wiring.env)
  const {config, chain} = await hubCommand(
    {saved: await wiring.savedHub(), loadConfig: (selection) => wiring.hubConnector.loadConfig(selection)},
    {selection: hubSelection(flags), env: wiring.env},
  )
  const where = config.inCluster
    ? 'in-cluster config'
    : `context "${config.context}" of ${config.files.join(', ')}`
  wiring.printer.text(
    [
      `${where}, server ${config.server}, namespace "${config.namespace}"`,
      `chosen by ${config.inCluster ? 'the in-cluster config' : (config.chosenBy ?? "kubectl's current context")}; the layers, first wins:`,
      ...chain.map((line, index) => `  ${index + 1}. ${line}`),
      '',
    ].join('\n'),
  )
}

/** What the words of `cpcred hub use` ask for: a context to keep, or --unset. */
export interface HubUseRequest {
  flags: FlagValues<typeof HUB_USE_FLAGS>
  context: string | undefined
}

/** The words of `cpcred hub use`, read and checked without the hub or the kept choice. */
export function parseHubUse(argv: string[], _env: NodeJS.ProcessEnv = {}): HubUseRequest {
  const {flags, positionals} = parseFlags(HUB_USE_FLAGS, argv, HUB_USE_USAGE)
  const context = atMostOneOperand(positionals, HUB_USE_USAGE)
  if (flags.unset ? context !== undefined || flags.kubeconfig !== undefined : context === undefined)
    throw new UsageError(
      flags.unset ? '--unset takes no context or --kubeconfig' : 'a context is required',
      HUB_USE_USAGE,
    )
  return {flags, context}
}

export async function runHubUse(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, context} = parseHubUse(argv, wiring.env)
  const {printer} = wiring
  const saved = await wiring.savedHub()
  const used = await hubUseCommand(
    {saved, loadConfig: (selection) => wiring.hubConnector.loadConfig(selection)},
    {context, kubeconfig: flags.kubeconfig, unset: flags.unset, env: wiring.env, cwd: process.cwd()},
  )
  if (used.config) {
    printer.note(
      `The hub is now context "${used.config.context}" (${used.config.server}) of ${used.config.files.join(', ')}. ` +
        `cpcred keeps this choice (the context's name and the files' paths; the files stay where they are) in ${saved.file}.`,
    )
  } else printer.note(`Forgot the kept hub (${saved.file}): kubectl's current context chooses it again.`)
  for (const name of used.overriddenBy)
    printer.warn(`${name} is set in this environment and wins over the kept hub.`)
}
