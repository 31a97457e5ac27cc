// The kubeconfigs `cpcred kubeconfig` writes (docs/design.md §4): one cluster, user and context per
// profile, the user's exec entry running the plugin or `cpcred credential`. Pure: the caller reads
// and writes files, resolves paths and prints. Names are in names.ts, ownership marks in owner.ts,
// the merge behind `--merge` in merge.ts.
//
// Every object is built with its keys in the order `kubectl config view` prints them (alphabetical,
// as sigs.k8s.io/yaml emits them) and with client-go's v1 omission rules (clientcmd/api/v1
// types.go): `args`, `env` and `provideClusterInfo` have no omitempty and are always written;
// `apiVersion`, `installHint`, `interactiveMode` and every optional cluster and impersonation field
// are omitted when empty. So a generated file reads the same before and after kubectl touches it.
import {HUB_CONTEXT_ENV, HUB_KUBECONFIG_ENV, pinnedEnv, pinsHub, type HubPin} from '../profiles/hub-pin.js'
import {runsBuiltinPlugin} from '../access/plugin-commands.js'
import path from 'node:path'
import {EXEC_EXTENSION, type NamedExtension} from '../profiles/cluster-profile.js'
import {UsageError} from '../errors.js'
import {EXEC_API_V1, type ExecEnvVar, type InteractiveMode} from '../access/exec-config.js'
import {toKubeconfigCluster} from '../access/connection.js'
import type {Resolution} from '../access/resolve-access.js'
import {
  emptyKubeconfig,
  type KubeconfigCluster,
  type KubeconfigDocument,
  type KubeconfigExec,
  type KubeconfigUser,
} from './document.js'
import {byName, entryNames} from './names.js'
import {namesInBrief} from '../text/format.js'
import {ownerExtensions} from './owner.js'

/** `cpcred credential`'s flag for a KEP-5339 provider (see parseAccessProviderFlag). */
export const ACCESS_PROVIDER_FLAG = '--access-provider'

export type KubeconfigMode = 'plugin' | 'cpcred'

export interface KubeconfigEntryInput {
  resolution: Resolution
}

export interface RenderKubeconfigOptions {
  /** plugin: user.exec runs the matched plugin. cpcred: user.exec runs `cpcred credential`. */
  mode: KubeconfigMode
  hub: HubPin
  /** Plugin mode: add HUB_KUBECONFIG_ENV and HUB_CONTEXT_ENV to each exec entry. Default true. */
  pinHub?: boolean
  /** cpcred mode: how to start cpcred: an absolute executable, then its leading arguments. */
  cpcredCommand?: string[]
  /** cpcred mode: the provider file, absolute, that `cpcred credential` reads. */
  providerFile?: string
  /** cpcred mode: KEP-5339 provider flag values given to `cpcred kubeconfig`, repeated for `cpcred credential`. */
  accessProviders?: string[]
  /** Impersonate this user on the target (`--as`). */
  as?: string
  /** Impersonate these groups on the target (`--as-group`); needs `as`, as in client-go. */
  asGroups?: string[]
  /** Names each profile's context, cluster and user; placeholders {namespace}, {name}, {provider}. */
  contextNameTemplate?: string
  /** The context to make current; default: the first entry's (in the order given, not the sorted one). */
  currentContext?: string
  /** Marks each entry as cpcred's (OWNER_EXTENSION): for which hub, and whether `sync` keeps it. */
  owner?: {hub: string; sync?: boolean}
}

export function renderKubeconfig(
  entries: KubeconfigEntryInput[],
  options: RenderKubeconfigOptions,
): KubeconfigDocument {
  const unique = uniqueByProfile(entries)
  checkOptions(options, unique)
  const names = entryNames(
    unique.map(({resolution}) => ({profile: resolution.profile, provider: resolution.provider.name})),
    options.contextNameTemplate,
  )

  const document = emptyKubeconfig()
  // Sorted by name, as kubectl writes them (client-go keeps entries in maps and sorts on output), so
  // the file does not depend on the order the profiles were named or listed in.
  const order = unique.map((_, index) => index).sort((a, b) => byName(names[a] as string, names[b] as string))
  for (const index of order) {
    const {resolution} = unique[index] as KubeconfigEntryInput
    const name = names[index] as string
    const mark = ownerExtensions(options.owner, resolution.profile)
    document.clusters.push({cluster: clusterEntry(resolution, mark), name})
    document.contexts.push({context: {cluster: name, ...(mark && {extensions: mark}), user: name}, name})
    document.users.push({name, user: {...userEntry(resolution, options), ...(mark && {extensions: mark})}})
  }

  if (options.currentContext !== undefined) {
    if (!names.includes(options.currentContext)) {
      throw new UsageError(
        `cannot make "${options.currentContext}" the current context: the kubeconfig has no context of that name`,
        names.length > 0 ? `its contexts are ${names.map((name) => `"${name}"`).join(', ')}` : undefined,
      )
    }
    document['current-context'] = options.currentContext
  } else {
    document['current-context'] = names[0] ?? ''
  }
  return document
}

/**
 * What the user should know about hub pinning that the renderer cannot fix: plugins that read the
 * hub the way the upstream secretreader does take `$KUBECONFIG` as a single file and use its current
 * context, so a hub made of several files, or a hub context that is not the files' current one,
 * reaches them wrongly or not at all. Empty when no exec entry gets pinned.
 */
export function hubPinWarnings(entries: KubeconfigEntryInput[], options: RenderKubeconfigOptions): string[] {
  if (options.pinHub === false) return []
  // cpcred's own plugins read both pins as cpcred does; only other plugins can misread them.
  const pinned = ({resolution}: KubeconfigEntryInput) =>
    entryMode(resolution, options) === 'plugin' &&
    pinsHub(resolution) &&
    !runsBuiltinPlugin(resolution.provider)
  if (!entries.some(pinned)) return []
  const {kubeconfigPaths, context, currentContext} = options.hub
  const warnings: string[] = []
  if (kubeconfigPaths.length > 1) {
    warnings.push(
      `the hub comes from ${kubeconfigPaths.length} kubeconfig files, so the pinned ${HUB_KUBECONFIG_ENV} is a list; ` +
        'plugins that read it as one file, like the upstream secretreader, will fail to load it. ' +
        'Point --kubeconfig at a single hub file, or use --mode cpcred.',
    )
  }
  if (currentContext !== undefined && currentContext !== context) {
    warnings.push(
      `the hub context "${context}" is not the current context ("${currentContext}") of the hub kubeconfig; ` +
        `plugins that ignore ${HUB_CONTEXT_ENV}, like the upstream secretreader, will read "${currentContext}". ` +
        'Make the hub context current, or use --mode cpcred.',
    )
  }
  return warnings
}

/**
 * What an entry's user runs. A provider with a serviceAccountToken block needs a hub-issued token in
 * a file that only cpcred mints (usecases/federated-token.ts): kubectl running its plugin directly
 * would run it without one (or let a cloud CLI fall back to whatever credentials the machine has),
 * so its entry runs `cpcred credential` even in plugin mode.
 */
export function entryMode(
  resolution: Resolution,
  options: Pick<RenderKubeconfigOptions, 'mode'>,
): KubeconfigMode {
  return resolution.provider.serviceAccountToken ? 'cpcred' : options.mode
}

/**
 * For stderr: the entries written in cpcred mode although plugin mode was asked for, and why.
 * Empty in cpcred mode or without federated providers.
 */
export function federatedEntryNotes(
  entries: KubeconfigEntryInput[],
  options: RenderKubeconfigOptions,
): string[] {
  if (options.mode !== 'plugin') return []
  const byProvider = new Map<string, string[]>()
  for (const {resolution} of uniqueByProfile(entries)) {
    if (entryMode(resolution, options) !== 'cpcred') continue
    const profiles = byProvider.get(resolution.provider.name) ?? []
    byProvider.set(resolution.provider.name, [...profiles, resolution.profile])
  }
  return [...byProvider].map(
    ([provider, profiles]) =>
      `provider "${provider}" federates through serviceAccountToken, a hub token only cpcred can hand its plugin, ` +
      `so the entries of ${namesInBrief(profiles)} run 'cpcred credential' (as with --mode cpcred)`,
  )
}

function checkOptions(options: RenderKubeconfigOptions, entries: KubeconfigEntryInput[]): void {
  if (options.asGroups && options.asGroups.length > 0 && !options.as) {
    // client-go impersonates only when `as` is set and silently drops lone groups; kubectl refuses them.
    throw new UsageError('--as-group needs --as: impersonating groups requires a user name to impersonate')
  }
  if (options.as === '') throw new UsageError('--as needs a user name')
  const federated = entries.find(({resolution}) => entryMode(resolution, options) !== options.mode)
  const cpcredMode = options.mode === 'cpcred' || federated !== undefined
  const needsHub = cpcredMode || options.pinHub !== false
  if (options.mode === 'cpcred' && options.hub.inCluster) {
    throw new UsageError(
      '--mode cpcred names the hub kubeconfig in the kubeconfig it writes, and this hub is the in-cluster config',
      'use --mode plugin in a pod: its plugins are pinned to the in-cluster config',
    )
  }
  if (federated && options.hub.inCluster) {
    const {profile, provider} = federated.resolution
    throw new UsageError(
      `cannot write an entry for ${profile}: provider "${provider.name}" federates through serviceAccountToken, ` +
        "whose token only cpcred can hand its plugin, and an entry running 'cpcred credential' cannot name " +
        'the in-cluster hub',
      `in a pod, run commands through cpcred, which mints the token: cpcred exec ${profile} -- kubectl …`,
    )
  }
  if (needsHub && !options.hub.inCluster) {
    if (options.hub.kubeconfigPaths.length === 0)
      throw new Error('renderKubeconfig: hub.kubeconfigPaths is empty')
    for (const file of options.hub.kubeconfigPaths) requireAbsolute('hub kubeconfig', file)
    if (options.hub.context === '') throw new Error('renderKubeconfig: hub.context is empty')
  }
  if (cpcredMode) {
    const [command] = options.cpcredCommand ?? []
    if (command === undefined) throw new Error('renderKubeconfig: cpcred mode needs cpcredCommand')
    // A bare name is looked up on PATH by kubectl; a path must not depend on where the kubeconfig is.
    if (command.includes('/')) requireAbsolute('cpcred command', command)
    if (options.providerFile !== undefined) requireAbsolute('provider file', options.providerFile)
  }
}

/** The caller resolves paths: kubectl would resolve a relative one against the kubeconfig's directory. */
function requireAbsolute(what: string, file: string): void {
  if (!path.isAbsolute(file)) throw new Error(`renderKubeconfig: the ${what} path "${file}" is not absolute`)
}

/** A profile named twice (`a` and `ns/a`) gets one context, as it is one cluster. */
function uniqueByProfile(entries: KubeconfigEntryInput[]): KubeconfigEntryInput[] {
  const seen = new Set<string>()
  return entries.filter(({resolution}) => {
    if (seen.has(resolution.profile)) return false
    seen.add(resolution.profile)
    return true
  })
}

function clusterEntry(resolution: Resolution, mark: NamedExtension[] | undefined): KubeconfigCluster {
  // client-go hands this extension to the plugin as ExecCredential.spec.cluster.config
  // (clientcmd: ExecProvider.Config = cluster.Extensions["client.authentication.k8s.io/exec"]), and
  // only when provideClusterInfo is true. Written in both modes so a cluster entry does not depend on
  // who runs the plugin. Sorted by name, as kubectl prints them.
  const extensions = [
    ...(resolution.execClusterConfig === undefined
      ? []
      : [{extension: resolution.execClusterConfig, name: EXEC_EXTENSION}]),
    ...(mark ?? []),
  ]
  return toKubeconfigCluster(resolution.cluster, extensions)
}

function userEntry(resolution: Resolution, options: RenderKubeconfigOptions): KubeconfigUser {
  const user: Partial<KubeconfigUser> = {}
  if (options.as) user.as = options.as
  if (options.as && options.asGroups && options.asGroups.length > 0) user['as-groups'] = [...options.asGroups]
  user.exec =
    entryMode(resolution, options) === 'cpcred'
      ? cpcredExec(resolution, options)
      : pluginExec(resolution, options)
  return user as KubeconfigUser
}

function pluginExec(resolution: Resolution, options: RenderKubeconfigOptions): KubeconfigExec {
  const source = resolution.execConfig
  const env =
    options.pinHub === false
      ? (source.env ?? []).map(({name, value}) => ({name, value}))
      : pinnedEnv(resolution, options.hub)
  return execEntry({
    apiVersion: source.apiVersion,
    args: [...(source.args ?? [])],
    command: source.command,
    env,
    installHint: source.installHint,
    interactiveMode: source.interactiveMode,
    provideClusterInfo: source.provideClusterInfo ?? false,
  })
}

/**
 * `cpcred credential` re-reads the profile and resolves it again (so the provider file and the
 * cache stay authoritative), which is why it gets the hub and the providers, not the resolved
 * plugin, and why provideClusterInfo is false: it builds spec.cluster for the inner plugin itself.
 */
function cpcredExec(resolution: Resolution, options: RenderKubeconfigOptions): KubeconfigExec {
  const [command, ...leading] = options.cpcredCommand as [string, ...string[]]
  const {kubeconfigPaths, context} = options.hub
  // `--flag=value`, so a value that starts with "-" (a context may) is never read as a flag.
  const args = [...leading, 'credential', resolution.profile]
  const env: ExecEnvVar[] = []
  // --kubeconfig names one file, as in kubectl; a hub made of several files travels as KUBECONFIG,
  // which cpcred reads as a list, like kubectl.
  if (kubeconfigPaths.length === 1) args.push(`--kubeconfig=${kubeconfigPaths[0]}`)
  else env.push({name: HUB_KUBECONFIG_ENV, value: kubeconfigPaths.join(path.delimiter)})
  args.push(`--context=${context}`)
  if (options.providerFile !== undefined) args.push(`--provider-file=${options.providerFile}`)
  for (const value of options.accessProviders ?? []) args.push(`${ACCESS_PROVIDER_FLAG}=${value}`)
  return execEntry({
    apiVersion: EXEC_API_V1,
    args,
    command,
    env,
    installHint:
      `cpcred obtains the credentials for ${resolution.profile}, but ${command} was not found. ` +
      `Install cpcred, then write this kubeconfig again with: cpcred kubeconfig ${resolution.profile} --mode cpcred`,
    interactiveMode: outerInteractiveMode(resolution.execConfig.interactiveMode),
    provideClusterInfo: false,
  })
}

/**
 * kubectl gives cpcred a terminal only if this entry asks for one. An inner plugin that never
 * prompts needs none (Never); one that may or must prompt gets IfAvailable, not Always: a cached
 * credential needs no terminal, so CI keeps working, and `cpcred credential` itself fails fast when
 * it would have to run an Always plugin without one.
 */
function outerInteractiveMode(inner: InteractiveMode | undefined): InteractiveMode {
  return inner === 'Never' ? 'Never' : 'IfAvailable'
}

/** Keys in kubectl's order; omitempty fields left out when empty. */
function execEntry(fields: KubeconfigExec): KubeconfigExec {
  const exec: Partial<KubeconfigExec> = {}
  if (fields.apiVersion) exec.apiVersion = fields.apiVersion
  exec.args = fields.args
  exec.command = fields.command
  exec.env = fields.env
  if (fields.installHint) exec.installHint = fields.installHint
  if (fields.interactiveMode) exec.interactiveMode = fields.interactiveMode
  exec.provideClusterInfo = fields.provideClusterInfo
  return exec as KubeconfigExec
}
