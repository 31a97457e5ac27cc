// What the built-in exec credential plugins (`cpcred plugin secretreader|token-request`) share:
// reading KUBERNETES_EXEC_INFO, finding the hub the way the plugins that read it must (DESIGN.md §5),
// mapping hub failures to one-line errors, and printing the ExecCredential. kubectl runs these plugins on
// every request, so this module loads only node:util and small core modules; the hub adapter is imported
// by the caller when it is about to talk to the hub. stdout carries the ExecCredential and nothing else.
import type {HubSelection, Hub} from '../adapters/hub.js'
import {CpcredError, isCpcredError, UsageError} from '../core/errors.js'
import {EXEC_API_VERSIONS, type ExecApiVersion} from '../core/access/exec-config.js'
import {
  EXEC_CREDENTIAL_KIND,
  EXEC_INFO_ENV,
  renderExecCredential,
  type Credential,
} from '../core/exec-credential/protocol.js'
import {HUB_CONTEXT_ENV} from '../core/profiles/hub-pin.js'
import type {ExecInfoCluster} from '../core/access/connection.js'
import {BUILTIN_PLUGINS} from './names.js'
import {parseFlags, type FlagTable, type FlagValues} from '../cli/flag-table.js'
import {processPrinter, type Printer} from '../adapters/printer.js'

export interface PluginIo {
  env: NodeJS.ProcessEnv
  printer: Printer
}

export const processIo = (): PluginIo => ({env: process.env, printer: processPrinter()})

export type {ExecInfoCluster} from '../core/access/connection.js'

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

/**
 * The hub, as the built-in plugins find it: --kubeconfig/--context when given; else KUBECONFIG with
 * kubectl's list rules (cpcred pins it to the hub in the kubeconfigs it writes and for the plugins it
 * runs) and CPCRED_HUB_CONTEXT, else the current context. The pinned context belongs to the pinned
 * KUBECONFIG: with --kubeconfig it is not used, so a provider that names its own hub file gets that
 * file's current context rather than a context name from another file.
 */
export function hubSelection(args: HubArgs, env: NodeJS.ProcessEnv): HubSelection {
  const pinnedContext = args.kubeconfig === undefined ? env[HUB_CONTEXT_ENV] || undefined : undefined
  return {kubeconfig: args.kubeconfig, context: args.context ?? pinnedContext, namespace: args.namespace}
}

export function hubDescription(hub: Hub): string {
  return `the hub (context "${hub.config.context}", ${hub.config.server})`
}

/** A failed hub call as a one-line error with its exit code (3 unreachable, 4 denied, 1 otherwise). */
export async function hubError(
  hub: Hub,
  error: unknown,
  action: string,
  forbiddenHint: string,
): Promise<CpcredError> {
  const {translateKubeError} = await import('../adapters/kube-errors.js')
  return translateKubeError(error, action, hubDescription(hub), {
    user: hub.config.user,
    forbiddenHint,
    unreachableHint: `check that the hub is running and that KUBECONFIG and ${HUB_CONTEXT_ENV} (or --kubeconfig and --context) select it`,
  })
}

export function writeExecCredential(io: PluginIo, credential: Credential, apiVersion: ExecApiVersion): void {
  io.printer.data(`${renderExecCredential(credential, apiVersion)}\n`)
}

/**
 * Runs one built-in plugin. Its errors name it: when kubectl runs it, its stderr is shown above kubectl's
 * own "getting credentials" error, and the plugin name is what tells the user where to look.
 */
export async function runBuiltinPlugin(
  name: string,
  argv: string[],
  io: PluginIo = processIo(),
): Promise<void> {
  try {
    if (name === 'secretreader') {
      const {runSecretreader} = await import('./secretreader.js')
      await runSecretreader(argv, io)
    } else if (name === 'token-request') {
      const {runTokenRequest} = await import('./token-request.js')
      await runTokenRequest(argv, io)
    } else {
      throw new UsageError(
        `unknown built-in plugin "${name}"`,
        `built-in plugins: ${BUILTIN_PLUGINS.join(', ')}`,
      )
    }
  } catch (error) {
    if (isCpcredError(error)) {
      const named = new CpcredError(`${name}: ${error.message}`, {
        exitCode: error.exitCode,
        hint: error.hint,
        cause: error.cause ?? error,
      })
      named.name = error.name
      throw named
    }
    throw error
  }
}

// DNS-1123: the names of Secrets and ServiceAccounts are subdomains, namespaces are labels.
export {isDnsSubdomain as isObjectName, isDnsLabel as isNamespaceName} from '../core/profiles/names.js'

/** A value from a profile or an argument, quoted for a message (JSON escapes control characters). */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoted(value)
  if (value === null || value === undefined) return 'missing'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}
