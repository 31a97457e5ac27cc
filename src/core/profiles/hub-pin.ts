// Pinning the hub for plugins that read it (docs/design.md §5): when kubectl runs a plugin from a
// kubeconfig cpcred wrote, KUBECONFIG may name the target, so the exec entry carries the hub.
import path from 'node:path'
import type {ExecEnvVar} from '../access/exec-config.js'
import type {Resolution} from '../access/resolve-access.js'

/**
 * Environment variables that pin the hub for plugins that read it (docs/design.md §5). When kubectl runs a
 * plugin from a generated kubeconfig, its own KUBECONFIG may name the *target*, so the exec entry
 * carries the hub:
 * - KUBECONFIG: the hub kubeconfig file(s), absolute, joined like kubectl's KUBECONFIG list. The
 *   upstream secretreader (sigs.k8s.io/cluster-inventory-api cmd/secretreader-plugin) needs it: it
 *   uses in-cluster config when it runs in a pod, and otherwise loads exactly `$KUBECONFIG` as one
 *   explicit file (clientcmd.BuildConfigFromFlags("", $KUBECONFIG)), taking the Secret's namespace
 *   from that file's current context; without KUBECONFIG it does not fall back to ~/.kube/config.
 * - CPCRED_HUB_CONTEXT: the hub context, for cpcred's built-in plugins, which read KUBECONFIG the
 *   way kubectl does and then use this context instead of the current one.
 * A hub read through the pod's in-cluster config has no file to name: it is pinned as KUBECONFIG
 * empty and CPCRED_HUB_CONTEXT "in-cluster", which the built-in plugins read as the in-cluster config
 * even when the pod has a ~/.kube/config (perhaps the very kubeconfig that runs them). The upstream
 * secretreader uses the in-cluster config in a pod whatever KUBECONFIG says.
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
  /** The pod's in-cluster config (no files; context "in-cluster"). */
  inCluster?: boolean
}

/** The context value that, with an empty KUBECONFIG, pins the in-cluster config. */
export const IN_CLUSTER_PIN = 'in-cluster'

/** Whether a plugin's environment pins the hub to the in-cluster config. */
export function pinsInCluster(env: NodeJS.ProcessEnv): boolean {
  return env[HUB_KUBECONFIG_ENV] === '' && env[HUB_CONTEXT_ENV] === IN_CLUSTER_PIN
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
    {name: HUB_KUBECONFIG_ENV, value: hub.inCluster ? '' : hub.kubeconfigPaths.join(path.delimiter)},
    {name: HUB_CONTEXT_ENV, value: hub.inCluster ? IN_CLUSTER_PIN : hub.context},
  ]
}
