// KUBERNETES_EXEC_INFO as a plugin reads it (client-go's tools/auth/exec rules), and the rules the
// built-in plugins share for the values they take from it and from their arguments: Kubernetes object
// names and how an untrusted value is quoted in a message.
import {UsageError} from '../errors.js'
import {isRecord} from '../json.js'
import {EXEC_API_VERSIONS, type ExecApiVersion} from '../access/exec-config.js'
import {EXEC_CREDENTIAL_KIND, EXEC_INFO_ENV} from './protocol.js'
import {HUB_CONTEXT_ENV, pinsInCluster} from '../profiles/hub-pin.js'
import type {HubSource} from '../kubeconfig/hub-choice.js'
import type {ExecInfoCluster} from '../access/connection.js'

export type {ExecInfoCluster} from '../access/connection.js'

export interface ExecInfo {
  apiVersion: ExecApiVersion
  interactive: boolean
  /** Present only when the exec config sets provideClusterInfo. */
  cluster?: ExecInfoCluster
}

/**
 * KUBERNETES_EXEC_INFO, checked the way client-go's tools/auth/exec loader reads it: an ExecCredential of a
 * version we speak. undefined when the variable is unset or empty (the plugin was run by hand); a cluster
 * without a server counts as no cluster information, as in the upstream plugins.
 */
export function parseExecInfo(text: string | undefined): ExecInfo | undefined {
  if (text === undefined || text.trim() === '') return undefined
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    // The parser's message quotes the input; a position is all a person needs here.
    throw new UsageError(`${EXEC_INFO_ENV} is not valid JSON`, 'kubectl sets it; do not set it by hand')
  }
  if (!isRecord(document)) throw new UsageError(`${EXEC_INFO_ENV} is not a JSON object`)
  if (document.kind !== EXEC_CREDENTIAL_KIND) {
    throw new UsageError(
      `${EXEC_INFO_ENV} is not an ${EXEC_CREDENTIAL_KIND} (kind ${describeValue(document.kind)})`,
    )
  }
  const apiVersion = document.apiVersion
  if (typeof apiVersion !== 'string' || !(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) {
    throw new UsageError(
      `${EXEC_INFO_ENV} has apiVersion ${describeValue(apiVersion)}; supported: ${EXEC_API_VERSIONS.join(', ')}`,
      'set execConfig.apiVersion in the provider file (or user.exec.apiVersion in the kubeconfig) to one of them',
    )
  }
  const spec = isRecord(document.spec) ? document.spec : {}
  const info: ExecInfo = {apiVersion: apiVersion as ExecApiVersion, interactive: spec.interactive === true}
  const cluster = spec.cluster
  if (isRecord(cluster) && typeof cluster.server === 'string' && cluster.server.trim() !== '') {
    info.cluster = cluster as unknown as ExecInfoCluster
  }
  return info
}

/**
 * spec.cluster.config as an object: undefined when the cluster has no exec extension (client-go passes
 * null). Anything but an object is the profile's mistake.
 */
export function execClusterConfig(info: ExecInfo | undefined): Record<string, unknown> | undefined {
  const config = info?.cluster?.config
  if (config === undefined || config === null) return undefined
  if (!isRecord(config)) {
    throw new UsageError(
      `spec.cluster.config in ${EXEC_INFO_ENV} is ${describeValue(config)}, not an object`,
      'the client.authentication.k8s.io/exec extension of the cluster must be a map of settings',
    )
  }
  return config
}

/** A string setting of spec.cluster.config; undefined when absent or empty. */
export function configString(config: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = config?.[key]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') {
    throw new UsageError(`spec.cluster.config.${key} is ${describeValue(value)}, not a string`)
  }
  return value
}

/** The flags both plugins take to find the hub, as kubectl names them. */
export interface HubArgs {
  kubeconfig?: string
  context?: string
  namespace?: string
}

/** The hub as the built-in plugins select it (HubSelection's fields). */
export interface PluginHubSelection {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** The hub was pinned to the pod's in-cluster config. */
  inCluster?: boolean
  /** Chosen here, by kubectl's rules and the pin: never by `cpcred hub use`, which is cpcred's own. */
  source: HubSource
}

/**
 * The hub, as the built-in plugins find it: --kubeconfig/--context when given; else KUBECONFIG with
 * kubectl's list rules (cpcred pins it to the hub in the kubeconfigs it writes and for the plugins it
 * runs) and CPCRED_HUB_CONTEXT, else the current context. The pinned context belongs to the pinned
 * KUBECONFIG: with --kubeconfig it is not used, so a provider that names its own hub file gets that
 * file's current context rather than a context name from another file. A hub pinned "in-cluster"
 * (KUBECONFIG empty) is the pod's in-cluster config, unless --kubeconfig or --context say otherwise.
 */
export function hubSelection(args: HubArgs, env: NodeJS.ProcessEnv): PluginHubSelection {
  if (args.kubeconfig === undefined && args.context === undefined && pinsInCluster(env)) {
    return {namespace: args.namespace, inCluster: true, source: 'env'}
  }
  const pinnedContext = args.kubeconfig === undefined ? env[HUB_CONTEXT_ENV] || undefined : undefined
  const source: HubSource =
    args.kubeconfig !== undefined || args.context !== undefined
      ? 'flags'
      : pinnedContext !== undefined
        ? 'env'
        : 'kubectl'
  return {
    kubeconfig: args.kubeconfig,
    context: args.context ?? pinnedContext,
    namespace: args.namespace,
    source,
  }
}

/** What to check when the hub a built-in plugin reads cannot be reached. */
export const PLUGIN_HUB_UNREACHABLE_HINT = `check that the hub is running and that KUBECONFIG and ${HUB_CONTEXT_ENV} (or --kubeconfig and --context) select it`

// DNS-1123: the names of Secrets and ServiceAccounts are subdomains, namespaces are labels.
export {isDnsSubdomain as isObjectName, isDnsLabel as isNamespaceName} from '../profiles/names.js'

/** A value from a profile or an argument, quoted for a message (JSON escapes control characters). */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoted(value)
  if (value === null || value === undefined) return 'missing'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}
