// `cpcred hub` and `cpcred hub use`: the hub cpcred reads, chosen apart from kubectl's current
// context, and what chose it (the layers are in core/kubeconfig/hub-choice.ts).
import path from 'node:path'
import {HUB_KUBECONFIG_VAR, sourceChain} from '../core/kubeconfig/hub-choice.js'
import {HUB_CONTEXT_ENV} from '../core/profiles/hub-pin.js'
import type {HubConfig, HubSelection, SavedHubStore} from './ports.js'

export interface HubChoicePorts {
  saved: SavedHubStore
  loadConfig(selection: HubSelection): Promise<HubConfig>
}

export interface HubOutcome {
  config: HubConfig
  /** Every layer and what it says, first to last. */
  chain: string[]
}

/** The hub these flags and this environment select, and the layers that chose it. */
export async function hubCommand(
  ports: HubChoicePorts,
  input: {selection: HubSelection; env: NodeJS.ProcessEnv},
): Promise<HubOutcome> {
  const config = await ports.loadConfig(input.selection)
  const saved = await ports.saved.read()
  return {config, chain: sourceChain(input.selection, input.env, saved, ports.saved.file)}
}

export interface HubUseInput {
  /** undefined with unset. */
  context?: string
  kubeconfig?: string
  unset?: boolean
  env: NodeJS.ProcessEnv
  cwd: string
}

export interface HubUseOutcome {
  /** The hub now kept, as loaded (undefined once forgotten). */
  config?: HubConfig
  /** What still wins over the kept hub in this environment. */
  overriddenBy: string[]
}

/** Keeps the hub, once its context is found in its kubeconfig; or forgets it. */
export async function hubUseCommand(ports: HubChoicePorts, input: HubUseInput): Promise<HubUseOutcome> {
  const overriddenBy = [HUB_CONTEXT_ENV, HUB_KUBECONFIG_VAR].filter((name) => input.env[name])
  if (input.unset) {
    await ports.saved.write(undefined)
    return {overriddenBy}
  }
  const context = input.context!
  // Kept absolute: the choice must mean the same file from any directory.
  const kubeconfig = input.kubeconfig === undefined ? undefined : path.resolve(input.cwd, input.kubeconfig)
  // A context that is not there is refused now, not on the next command.
  const config = await ports.loadConfig({kubeconfig, context, source: 'saved'})
  await ports.saved.write({context, ...(kubeconfig !== undefined ? {kubeconfig} : {})})
  return {config, overriddenBy}
}
