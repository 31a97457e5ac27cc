// Which hub cpcred reads, and what chose it. cpcred keeps a choice of its own apart from kubectl's
// current context (as kubectx and tsh keep theirs), so switching kubectl to a target, with
// `kubectl config use-context` or `cpcred kubeconfig --set-current`, does not move the hub.
import path from 'node:path'
import {HUB_CONTEXT_ENV, IN_CLUSTER_PIN, pinsInCluster} from '../profiles/hub-pin.js'
import {findNamed, type ContextEntry, type MergedKubeconfig} from './merge.js'
import {ownerOf} from './owner.js'

/** Hub kubeconfig files for cpcred itself, joined like KUBECONFIG; read beside CPCRED_HUB_CONTEXT. */
export const HUB_KUBECONFIG_VAR = 'CPCRED_HUB_KUBECONFIG'

/** The hub `cpcred hub use` keeps: a context, and the kubeconfig file it was chosen in, if one was named. */
export interface SavedHub {
  context: string
  kubeconfig?: string
}

/**
 * What chose the hub, first that says anything: the command line, the environment, `cpcred hub use`,
 * else kubectl's current context (or, when that is a context cpcred wrote, the hub it names).
 */
export type HubSource = 'flags' | 'env' | 'saved' | 'kubectl'

export interface HubChoice {
  source: HubSource
  /** One kubeconfig file (--kubeconfig, or the file `cpcred hub use --kubeconfig` named). */
  kubeconfig?: string
  /** A KUBECONFIG-style list read instead of KUBECONFIG (CPCRED_HUB_KUBECONFIG). */
  kubeconfigList?: string
  context?: string
  inCluster?: boolean
}

/** The layers, in order; the first that names a file or a context decides both. */
export function chooseHub(
  flags: {kubeconfig?: string; context?: string},
  env: NodeJS.ProcessEnv,
  saved: SavedHub | undefined,
): HubChoice {
  if (flags.kubeconfig !== undefined || flags.context !== undefined)
    return {source: 'flags', kubeconfig: flags.kubeconfig, context: flags.context}
  // The pin cpcred gives the plugins it runs means the same to a cpcred started under it.
  if (pinsInCluster(env)) return {source: 'env', context: IN_CLUSTER_PIN, inCluster: true}
  const context = env[HUB_CONTEXT_ENV] || undefined
  const kubeconfigList = env[HUB_KUBECONFIG_VAR] || undefined
  if (context !== undefined || kubeconfigList !== undefined) return {source: 'env', kubeconfigList, context}
  if (saved) return {source: 'saved', kubeconfig: saved.kubeconfig, context: saved.context}
  return {source: 'kubectl'}
}

/** Where the context came from, in the words of a message: `context "hub" from cpcred hub use`. */
export function sourceWords(choice: Pick<HubChoice, 'source' | 'context'>, ownedContext?: string): string {
  if (ownedContext !== undefined) return `the hub named by cpcred's context "${ownedContext}"`
  switch (choice.source) {
    case 'flags':
      return choice.context !== undefined ? '--context' : 'the current context of --kubeconfig'
    case 'env':
      return choice.context !== undefined ? HUB_CONTEXT_ENV : `the current context of ${HUB_KUBECONFIG_VAR}`
    case 'saved':
      return 'cpcred hub use'
    case 'kubectl':
      return "kubectl's current context"
  }
}

/** Every layer and what it says, for doctor and `cpcred hub`: the chosen one first in its place. */
export function sourceChain(
  flags: {kubeconfig?: string; context?: string},
  env: NodeJS.ProcessEnv,
  saved: SavedHub | undefined,
  savedFile: string,
): string[] {
  const set = (value: string | undefined) => (value ? JSON.stringify(value) : 'not set')
  return [
    `--kubeconfig ${set(flags.kubeconfig)}, --context ${set(flags.context)}`,
    `${HUB_KUBECONFIG_VAR} ${set(env[HUB_KUBECONFIG_VAR])}, ${HUB_CONTEXT_ENV} ${set(env[HUB_CONTEXT_ENV])}`,
    `cpcred hub use (${savedFile}): ${saved ? `context ${JSON.stringify(saved.context)}${saved.kubeconfig ? ` of ${saved.kubeconfig}` : ''}` : 'not set'}`,
    "kubectl's current context (a context cpcred wrote names its hub)",
  ]
}

/**
 * When `current` is a context cpcred wrote for a profile, the contexts that reach the hub its mark
 * names (by server URL), leaving out cpcred's own; undefined for any other context.
 */
export function hubContextsOfOwned(
  merged: MergedKubeconfig,
  current: string,
): {hub: string; contexts: string[]} | undefined {
  const mark = ownerOf(findNamed(merged.contexts, current)?.context)
  if (!mark) return undefined
  const contexts = merged.contexts
    .filter((entry) => ownerOf(entry.context) === undefined)
    .filter((entry) => {
      const cluster = (entry.context as ContextEntry | undefined)?.cluster
      const body = cluster ? findNamed(merged.clusters, cluster)?.cluster : undefined
      return (body as {server?: unknown} | undefined)?.server === mark.hub
    })
    .map((entry) => entry.name)
  return {hub: mark.hub, contexts}
}

/** The saved choice, checked; undefined when the file says something else. */
export function parseSavedHub(value: unknown): SavedHub | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const {context, kubeconfig} = value as Record<string, unknown>
  if (typeof context !== 'string' || context === '') return undefined
  if (kubeconfig !== undefined && (typeof kubeconfig !== 'string' || !path.isAbsolute(kubeconfig)))
    return undefined
  return {context, ...(kubeconfig !== undefined ? {kubeconfig} : {})}
}
