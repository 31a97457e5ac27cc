// The kubeconfigs `cpcred kubeconfig` writes (DESIGN.md §4) and the merge behind `--merge`. Pure:
// the caller reads and writes files, resolves paths and prints.
//
// Every object is built with its keys in the order `kubectl config view` prints them (alphabetical,
// as sigs.k8s.io/yaml emits them) and with client-go's v1 omission rules (clientcmd/api/v1
// types.go): `args`, `env` and `provideClusterInfo` have no omitempty and are always written;
// `apiVersion`, `installHint`, `interactiveMode` and every optional cluster and impersonation field
// are omitted when empty. So a generated file reads the same before and after kubectl touches it.
import {HUB_CONTEXT_ENV, HUB_KUBECONFIG_ENV, pinnedEnv, pinsHub, type HubPin} from '../profiles/hub-pin.js'
import path from 'node:path'
import {EXEC_EXTENSION, type NamedExtension} from '../profiles/cluster-profile.js'
import {UsageError} from '../errors.js'
import {
  EXEC_API_V1,
  type ExecApiVersion,
  type ExecEnvVar,
  type InteractiveMode,
} from '../access/exec-config.js'
import type {NamedEntry} from './merge.js'
import type {Resolution} from '../access/resolve-access.js'

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

/**
 * The kubeconfig extension that marks an entry (cluster, user and context alike) as written by cpcred
 * for one profile of one hub. Ownership is read from here, never from a name pattern.
 */
export const OWNER_EXTENSION = 'cpcred/profile'

export interface OwnerMark {
  /** The hub's server URL: a hub's identity that survives its users' credentials changing. */
  hub: string
  /** NAMESPACE/NAME of the ClusterProfile. */
  profile: string
  /**
   * Written by `cpcred sync`, which updates and prunes it. Entries `cpcred kubeconfig` wrote are
   * adopted by a sync that selects their profile under their name, but never pruned by one.
   */
  sync?: true
}

export interface KubeconfigExec {
  apiVersion: ExecApiVersion
  args: string[]
  command: string
  env: ExecEnvVar[]
  installHint?: string
  interactiveMode?: InteractiveMode
  provideClusterInfo: boolean
}

export interface KubeconfigCluster {
  'certificate-authority-data'?: string
  'disable-compression'?: boolean
  extensions?: NamedExtension[]
  'insecure-skip-tls-verify'?: boolean
  'proxy-url'?: string
  server: string
  'tls-server-name'?: string
}

export interface KubeconfigUser {
  as?: string
  'as-groups'?: string[]
  exec: KubeconfigExec
  extensions?: NamedExtension[]
}

export interface KubeconfigContext {
  cluster: string
  extensions?: NamedExtension[]
  user: string
}

/** A kubeconfig v1 Config, keys in kubectl's order. */
export interface KubeconfigDocument {
  apiVersion: 'v1'
  clusters: {cluster: KubeconfigCluster; name: string}[]
  contexts: {context: KubeconfigContext; name: string}[]
  'current-context': string
  kind: 'Config'
  preferences: Record<string, never>
  users: {name: string; user: KubeconfigUser}[]
}

export function renderKubeconfig(
  entries: KubeconfigEntryInput[],
  options: RenderKubeconfigOptions,
): KubeconfigDocument {
  checkOptions(options)
  const unique = uniqueByProfile(entries)
  const names = entryNames(unique, options.contextNameTemplate)

  const document = emptyKubeconfig()
  // Sorted by name, as kubectl writes them (client-go keeps entries in maps and sorts on output), so
  // the file does not depend on the order the profiles were named or listed in.
  const order = unique.map((_, index) => index).sort((a, b) => byName(names[a] as string, names[b] as string))
  for (const index of order) {
    const {resolution} = unique[index] as KubeconfigEntryInput
    const name = names[index] as string
    const mark = ownerExtensions(resolution, options)
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
  if (options.mode !== 'plugin' || options.pinHub === false) return []
  if (!entries.some(({resolution}) => pinsHub(resolution))) return []
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

/** Go's string order (bytes of UTF-8), which is how client-go sorts names. */
function byName(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

function checkOptions(options: RenderKubeconfigOptions): void {
  if (options.asGroups && options.asGroups.length > 0 && !options.as) {
    // client-go impersonates only when `as` is set and silently drops lone groups; kubectl refuses them.
    throw new UsageError('--as-group needs --as: impersonating groups requires a user name to impersonate')
  }
  if (options.as === '') throw new UsageError('--as needs a user name')
  const needsHub = options.mode === 'cpcred' || options.pinHub !== false
  if (needsHub) {
    if (options.hub.kubeconfigPaths.length === 0)
      throw new Error('renderKubeconfig: hub.kubeconfigPaths is empty')
    for (const file of options.hub.kubeconfigPaths) requireAbsolute('hub kubeconfig', file)
    if (options.hub.context === '') throw new Error('renderKubeconfig: hub.context is empty')
  }
  if (options.mode === 'cpcred') {
    const [command] = options.cpcredCommand ?? []
    if (command === undefined) throw new Error('renderKubeconfig: cpcred mode needs cpcredCommand')
    requireAbsolute('cpcred command', command)
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

const PLACEHOLDERS = ['namespace', 'name', 'provider'] as const
type Placeholder = (typeof PLACEHOLDERS)[number]

/**
 * One name per profile, used for its context, cluster and user alike, so a name that is free as a
 * context is free everywhere when merging. The default `<namespace>/<name>` is what users already
 * type for a profile, is unique on a hub, and needs no prefix: kubeconfig names are free-form.
 */
function entryNames(entries: KubeconfigEntryInput[], template = '{namespace}/{name}'): string[] {
  const render = compileNameTemplate(template)
  const owners = new Map<string, string>()
  return entries.map(({resolution}) => {
    const slash = resolution.profile.indexOf('/')
    const name = render({
      namespace: resolution.profile.slice(0, slash),
      name: resolution.profile.slice(slash + 1),
      provider: resolution.provider.name,
    })
    if (name === '') {
      throw new UsageError(
        `--context-name "${template}" gives ClusterProfile ${resolution.profile} an empty name`,
        'Use a template with {namespace} and {name}, e.g. "{namespace}-{name}".',
      )
    }
    const owner = owners.get(name)
    if (owner !== undefined) {
      throw new UsageError(
        `--context-name "${template}" gives ClusterProfiles ${owner} and ${resolution.profile} the same name "${name}"`,
        'Use a template that tells them apart, e.g. with both {namespace} and {name}.',
      )
    }
    owners.set(name, resolution.profile)
    return name
  })
}

function compileNameTemplate(template: string): (values: Record<Placeholder, string>) => string {
  const parts: Array<string | {placeholder: Placeholder}> = []
  let last = 0
  for (const match of template.matchAll(/\{([^{}]*)\}|[{}]/g)) {
    const found = match[1]
    if (found === undefined) {
      throw new UsageError(
        `--context-name "${template}" has an unmatched "${match[0]}" at position ${match.index + 1}`,
        `Placeholders are ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}.`,
      )
    }
    if (!(PLACEHOLDERS as readonly string[]).includes(found)) {
      throw new UsageError(
        `--context-name "${template}" has an unknown placeholder {${found}}`,
        `Placeholders are ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}.`,
      )
    }
    parts.push(template.slice(last, match.index), {placeholder: found as Placeholder})
    last = match.index + match[0].length
  }
  parts.push(template.slice(last))
  return (values) =>
    parts.map((part) => (typeof part === 'string' ? part : values[part.placeholder])).join('')
}

function ownerExtensions(
  resolution: Resolution,
  options: RenderKubeconfigOptions,
): NamedExtension[] | undefined {
  if (options.owner === undefined) return undefined
  const mark: OwnerMark = {
    hub: options.owner.hub,
    profile: resolution.profile,
    ...(options.owner.sync ? {sync: true as const} : {}),
  }
  return [{extension: mark, name: OWNER_EXTENSION}]
}

/** The owner mark of a kubeconfig entry's body (its cluster, user or context), if cpcred wrote it. */
export function ownerOf(body: unknown): OwnerMark | undefined {
  const extensions = (body as {extensions?: unknown} | null | undefined)?.extensions
  if (!Array.isArray(extensions)) return undefined
  const value = (extensions as NamedExtension[]).find((entry) => entry?.name === OWNER_EXTENSION)?.extension
  const mark = value as Partial<OwnerMark> | undefined
  return typeof mark?.hub === 'string' && typeof mark.profile === 'string'
    ? {hub: mark.hub, profile: mark.profile, ...(mark.sync === true ? {sync: true as const} : {})}
    : undefined
}

function clusterEntry(resolution: Resolution, mark: NamedExtension[] | undefined): KubeconfigCluster {
  const connection = resolution.cluster
  const cluster: Partial<KubeconfigCluster> = {}
  if (connection['certificate-authority-data']) {
    cluster['certificate-authority-data'] = connection['certificate-authority-data']
  }
  if (connection['disable-compression']) cluster['disable-compression'] = true
  // client-go hands this extension to the plugin as ExecCredential.spec.cluster.config
  // (clientcmd: ExecProvider.Config = cluster.Extensions["client.authentication.k8s.io/exec"]), and
  // only when provideClusterInfo is true. Written in both modes so a cluster entry does not depend on
  // who runs the plugin.
  // Sorted by name, as kubectl prints them.
  const extensions = [
    ...(resolution.execClusterConfig === undefined
      ? []
      : [{extension: resolution.execClusterConfig, name: EXEC_EXTENSION}]),
    ...(mark ?? []),
  ]
  if (extensions.length > 0) cluster.extensions = extensions
  if (connection['insecure-skip-tls-verify']) cluster['insecure-skip-tls-verify'] = true
  if (connection['proxy-url']) cluster['proxy-url'] = connection['proxy-url']
  cluster.server = connection.server
  if (connection['tls-server-name']) cluster['tls-server-name'] = connection['tls-server-name']
  return cluster as KubeconfigCluster
}

function userEntry(resolution: Resolution, options: RenderKubeconfigOptions): KubeconfigUser {
  const user: Partial<KubeconfigUser> = {}
  if (options.as) user.as = options.as
  if (options.as && options.asGroups && options.asGroups.length > 0) user['as-groups'] = [...options.asGroups]
  user.exec = options.mode === 'cpcred' ? cpcredExec(resolution, options) : pluginExec(resolution, options)
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

export interface MergeIntoKubeconfigOptions {
  /** Replace entries whose names the generated kubeconfig also uses (`--overwrite`). */
  overwrite: boolean
  /** Make the generated kubeconfig's current context the current one (`--set-current`). */
  setCurrent: boolean
  /** Where `existing` came from, for messages. */
  source?: string
}

export interface MergeIntoKubeconfigResult {
  document: Record<string, unknown>
  /** `cluster <name>`, `user <name>`, `context <name>` for each entry appended. */
  added: string[]
  /** The same for each existing entry replaced in place. */
  replaced: string[]
}

/** The named lists of a kubeconfig, and what each holds. */
export const KUBECONFIG_LISTS = [
  {key: 'clusters', kind: 'cluster'},
  {key: 'users', kind: 'user'},
  {key: 'contexts', kind: 'context'},
] as const

export type KubeconfigListKey = (typeof KUBECONFIG_LISTS)[number]['key']

/**
 * `--merge`: the existing kubeconfig with the generated entries added. Everything else, its other
 * entries, their order and its other top-level fields, stays as it was; a name that already exists
 * is refused unless `overwrite`, and then replaced where it stands.
 */
export function mergeIntoKubeconfig(
  existing: unknown,
  generated: KubeconfigDocument,
  options: MergeIntoKubeconfigOptions,
): MergeIntoKubeconfigResult {
  const source = options.source ?? 'the existing kubeconfig'
  const base = existingKubeconfig(existing, source)
  const document: Record<string, unknown> = {...base}
  const added: string[] = []
  const replaced: string[] = []
  const clashes: string[] = []

  for (const {key, kind} of KUBECONFIG_LISTS) {
    const list = [...namedEntries(base[key], source, key)]
    for (const entry of generated[key] as NamedEntry[]) {
      const index = list.findIndex((existingEntry) => existingEntry.name === entry.name)
      if (index === -1) {
        list.push(entry)
        added.push(`${kind} ${entry.name}`)
      } else if (options.overwrite) {
        list[index] = entry
        replaced.push(`${kind} ${entry.name}`)
      } else {
        clashes.push(`${kind} "${entry.name}"`)
      }
    }
    document[key] = list
  }
  if (clashes.length > 0) {
    throw new UsageError(
      `${source} already has ${clashes.join(', ')}; refusing to replace ${clashes.length === 1 ? 'it' : 'them'}`,
      'Pass --overwrite to replace them, or choose other names with --context-name.',
    )
  }
  if (options.setCurrent && generated['current-context'] !== '') {
    document['current-context'] = generated['current-context']
  }
  return {document, added, replaced}
}

/** kubectl's skeleton of a kubeconfig, keys in the order it prints them. */
function emptyKubeconfig(): KubeconfigDocument {
  return {
    apiVersion: 'v1',
    clusters: [],
    contexts: [],
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: [],
  }
}

/** An empty file starts from kubectl's skeleton; anything else must look like a kubeconfig. */
export function existingKubeconfig(existing: unknown, source: string): Record<string, unknown> {
  if (existing === undefined || existing === null || existing === '') return {...emptyKubeconfig()}
  if (typeof existing !== 'object' || Array.isArray(existing)) {
    throw new UsageError(
      `${source} is not a kubeconfig: expected a mapping with clusters, users and contexts, found ${Array.isArray(existing) ? 'a list' : `a ${typeof existing}`}`,
      'Pass another file with --kubeconfig/KUBECONFIG, or write to a new file with --output-file.',
    )
  }
  const document = existing as Record<string, unknown>
  if (document.kind !== undefined && document.kind !== 'Config') {
    throw new UsageError(
      `${source} is not a kubeconfig: its kind is ${JSON.stringify(document.kind)}, not "Config"`,
      'Pass another file with --kubeconfig/KUBECONFIG, or write to a new file with --output-file.',
    )
  }
  if (document.apiVersion !== undefined && document.apiVersion !== 'v1') {
    throw new UsageError(
      `${source} is not a kubeconfig v1: its apiVersion is ${JSON.stringify(document.apiVersion)}, not "v1"`,
    )
  }
  for (const {key} of KUBECONFIG_LISTS) namedEntries(document[key], source, key)
  return document
}

/** As client-go reads them: a list of named entries, each name once (clientcmd refuses duplicates). */
function namedEntries(value: unknown, source: string, key: string): NamedEntry[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new UsageError(`${source} is not a valid kubeconfig: ${key} is not a list`)
  const seen = new Set<string>()
  return value.map((entry: unknown, index) => {
    const name = (entry as {name?: unknown} | null)?.name
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || typeof name !== 'string') {
      throw new UsageError(`${source} is not a valid kubeconfig: ${key}[${index}] has no name`)
    }
    if (seen.has(name)) {
      throw new UsageError(
        `${source} is not a valid kubeconfig: ${key} has "${name}" twice, which kubectl refuses too`,
        'Remove one of them first.',
      )
    }
    seen.add(name)
    return entry as NamedEntry
  })
}
