// Pinning the hub for plugins that read it (DESIGN.md §5): when kubectl runs a plugin from a
// kubeconfig cpcred wrote, KUBECONFIG may name the target, so the exec entry carries the hub.
import path from 'node:path'
import type {ExecEnvVar} from '../access/exec-config.js'
import type {Resolution} from '../access/resolve-access.js'

/**
 * Environment variables that pin the hub for plugins that read it (DESIGN.md §5). When kubectl runs a
 * plugin from a generated kubeconfig, its own KUBECONFIG may name the *target*, so the exec entry
 * carries the hub:
 * - KUBECONFIG: the hub kubeconfig file(s), absolute, joined like kubectl's KUBECONFIG list. The
 *   upstream secretreader (sigs.k8s.io/cluster-inventory-api cmd/secretreader-plugin) needs it: it
 *   uses in-cluster config when it runs in a pod, and otherwise loads exactly `$KUBECONFIG` as one
 *   explicit file (clientcmd.BuildConfigFromFlags("", $KUBECONFIG)), taking the Secret's namespace
 *   from that file's current context; without KUBECONFIG it does not fall back to ~/.kube/config.
 * - CPCRED_HUB_CONTEXT: the hub context, for cpcred's built-in plugins, which read KUBECONFIG the
 *   way kubectl does and then use this context instead of the current one.
 */
export const HUB_KUBECONFIG_ENV = 'KUBECONFIG'
export const HUB_CONTEXT_ENV = 'CPCRED_HUB_CONTEXT'
/** The hub the profiles were read from, as the caller resolved it. */
export interface HubPin {
  /** The hub kubeconfig files, absolute, in KUBECONFIG precedence order. */
  kubeconfigPaths: string[]
  context: string
  /** The hub files' own current-context, if known: only used for hubPinWarnings. */
  currentContext?: string
}

/**
 * The pin is one unit: a provider that sets either variable has chosen the hub itself, and adding
 * the other half would pair its file with our context or the reverse.
 */
export function pinsHub(resolution: Resolution): boolean {
  const consumerEnv = resolution.provider.execConfig.env ?? []
  return !consumerEnv.some(({name}) => name === HUB_KUBECONFIG_ENV || name === HUB_CONTEXT_ENV)
}

/** The resolved plugin env with the hub pinned last, unless the provider pins it itself. */
export function pinnedEnv(resolution: Resolution, hub: HubPin): ExecEnvVar[] {
  const env = (resolution.execConfig.env ?? []).map(({name, value}) => ({name, value}))
  if (!pinsHub(resolution)) return env
  return [
    ...env.filter(({name}) => name !== HUB_KUBECONFIG_ENV && name !== HUB_CONTEXT_ENV),
    {name: HUB_KUBECONFIG_ENV, value: hub.kubeconfigPaths.join(path.delimiter)},
    {name: HUB_CONTEXT_ENV, value: hub.context},
  ]
}
