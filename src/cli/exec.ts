// `cpcred exec`: CI pipelines run it all day, and oclif alone takes about 100 ms to load, more than
// kubectl needs for a whole `get`. So, like `credential`, it is parsed with node:util parseArgs and
// runs from the bundled fast path; src/commands/exec.ts gives it help text.
import {parseArgs} from 'node:util'
import type {Hub} from '../adapters/hub.js'
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/cluster-profile.js'
import {profileKey} from '../core/cluster-profile.js'
import {readRecentProfile} from './recent-profile.js'
import {parseDuration} from '../core/duration.js'
import {ExitCode, UsageError} from '../core/errors.js'
import {DEFAULT_PROFILE_MAX_AGE_MS} from './recent-profile.js'

export const EXEC_USAGE = `usage: cpcred exec [PROFILE...] [-n NAMESPACE | -A] [-l SELECTOR] [--all] [flags] -- COMMAND [ARGS...]`

/** The flags exec takes, as parseArgs reads them (the oclif class lists the same for help). */
export const EXEC_OPTIONS = {
  kubeconfig: {type: 'string'},
  context: {type: 'string'},
  namespace: {type: 'string', short: 'n'},
  'all-namespaces': {type: 'boolean', short: 'A'},
  selector: {type: 'string', short: 'l'},
  all: {type: 'boolean'},
  'provider-file': {type: 'string'},
  'access-provider': {type: 'string', multiple: true},
  parallel: {type: 'string'},
  'fail-fast': {type: 'boolean'},
  output: {type: 'string', short: 'o'},
  as: {type: 'string'},
  'as-group': {type: 'string', multiple: true},
  'no-cache': {type: 'boolean'},
  'cache-ttl': {type: 'string'},
  'plugin-timeout': {type: 'string'},
  'profile-max-age': {type: 'string'},
  verbose: {type: 'boolean', short: 'v'},
} as const

export interface ExecOptions {
  names: string[]
  command: string[]
  kubeconfig?: string
  context?: string
  namespace?: string
  allNamespaces: boolean
  selector?: string
  all: boolean
  providerFile?: string
  accessProviders: string[]
  parallel: number
  failFast: boolean
  output: 'text' | 'json'
  as?: string
  asGroups: string[]
  noCache: boolean
  cacheTtlSeconds?: number
  pluginTimeoutMs: number
  profileMaxAgeMs: number
  verbose: boolean
}

export function parseExecArgs(argv: string[]): ExecOptions {
  const separator = argv.indexOf('--')
  const command = separator === -1 ? [] : argv.slice(separator + 1)
  let parsed
  try {
    parsed = parseArgs({
      args: separator === -1 ? argv : argv.slice(0, separator),
      options: EXEC_OPTIONS,
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new UsageError((error as Error).message, EXEC_USAGE)
  }
  const {values, positionals} = parsed
  if (command.length === 0)
    throw new UsageError('no command to run', 'put it after --, e.g. cpcred exec NAME -- kubectl get pods')
  if (values['all-namespaces'] && values.namespace)
    throw new UsageError('--namespace and --all-namespaces cannot be used together')
  if (values['as-group']?.length && !values.as) throw new UsageError('--as-group needs --as')
  const parallel = Number(values.parallel ?? 4)
  if (!Number.isInteger(parallel) || parallel < 1)
    throw new UsageError(`--parallel ${values.parallel} is not a whole number of 1 or more`)
  const output = values.output ?? 'text'
  if (output !== 'text' && output !== 'json')
    throw new UsageError(`--output ${output} is not one of text, json`)
  return {
    names: positionals,
    command,
    kubeconfig: values.kubeconfig,
    context: values.context,
    namespace: values.namespace,
    allNamespaces: values['all-namespaces'] ?? false,
    selector: values.selector,
    all: values.all ?? false,
    providerFile: values['provider-file'],
    accessProviders: values['access-provider'] ?? [],
    parallel,
    failFast: values['fail-fast'] ?? false,
    output,
    as: values.as,
    asGroups: values['as-group'] ?? [],
    noCache: values['no-cache'] ?? false,
    cacheTtlSeconds:
      values['cache-ttl'] === undefined
        ? undefined
        : parseDuration(values['cache-ttl'], '--cache-ttl') / 1000,
    pluginTimeoutMs: parseDuration(values['plugin-timeout'] ?? '2m', '--plugin-timeout'),
    profileMaxAgeMs:
      values['profile-max-age'] === undefined
        ? DEFAULT_PROFILE_MAX_AGE_MS
        : parseDuration(values['profile-max-age'], '--profile-max-age'),
    verbose: values.verbose ?? false,
  }
}

/** Runs exec; the exit code is the command's for one target, 0 or 1 for many. */
export async function runExec(argv: string[]): Promise<number> {
  const options = parseExecArgs(argv)
  const [
    {processPrinter},
    {Hub, hubIdentity, hubPin, loadHubConfig},
    {loadProviders, requireProviders},
    {parseProfileRef},
    {execMany, execOne},
    {nodeChildRunner, forwardingSignals},
    {CredentialStore, defaultCredentialCacheDir},
    {pluginRunner},
    {tempKubeconfigs},
  ] = await Promise.all([
    import('../adapters/printer.js'),
    import('../adapters/hub.js'),
    import('../adapters/providers.js'),
    import('../usecases/profile-ref.js'),
    import('../usecases/exec-command.js'),
    import('../adapters/child-process.js'),
    import('../adapters/credential-store.js'),
    import('../adapters/process.js'),
    import('../adapters/temp-kubeconfigs.js'),
  ])
  const printer = processPrinter()
  const [config, loaded] = await Promise.all([
    loadHubConfig({kubeconfig: options.kubeconfig, context: options.context, namespace: options.namespace}),
    loadProviders({providerFile: options.providerFile, accessProviders: options.accessProviders}),
  ])
  for (const warning of loaded.warnings) printer.warn(warning)
  const identity = hubIdentity(config)
  const oneNamed =
    options.names.length === 1 && options.selector === undefined && !options.all && !options.allNamespaces
  let profiles: ClusterProfile[]
  if (oneNamed) {
    // Like `cpcred credential`: a profile read moments ago is used again (--profile-max-age).
    const maxAge = options.noCache ? 0 : options.profileMaxAgeMs
    profiles = [await readRecentProfile(config, identity, parseProfileRef(options.names[0]!), maxAge)]
  } else {
    const hub = await Hub.fromConfig(config)
    try {
      profiles = await chooseTargets(hub, options, printer)
    } finally {
      await hub.client.close()
    }
    if (profiles.length === 0) return ExitCode.Success
  }

  const warned = new Set<string>()
  const deps = {
    plugins: pluginRunner,
    cache: options.noCache
      ? undefined
      : new CredentialStore(defaultCredentialCacheDir(), {
          onProblem: (message: string) => options.verbose && printer.note(`cache: ${message}`),
        }),
    children: nodeChildRunner,
    temp: tempKubeconfigs(),
    now: () => performance.now(),
    forwardingSignals,
  }
  const input = {
    command: options.command,
    providers: requireProviders(loaded),
    hubIdentity: identity,
    hubPin: hubPin(config),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    pluginTimeoutMs: options.pluginTimeoutMs,
    cacheTtlSeconds: options.cacheTtlSeconds,
    as: options.as,
    asGroups: options.asGroups,
    onWarning: (message: string) => {
      if (!warned.has(message)) printer.warn(message)
      warned.add(message)
    },
    onPluginStderr: (text: string) => printer.text(text, 'stderr'),
    onVerbose: options.verbose ? (message: string) => printer.note(`cpcred: ${message}`) : undefined,
  }
  // One target named by itself: the command owns the terminal and its exit code is ours.
  if (profiles.length === 1 && options.names.length <= 1 && options.selector === undefined && !options.all) {
    return execOne(deps, input, profiles[0]!)
  }
  const {fanOutView} = await import('../adapters/fan-out-view.js')
  const view = fanOutView({
    profiles: profiles.map(profileKey),
    printer,
    chalk: await printer.paint(),
    json: options.output === 'json',
  })
  const results = await execMany(deps, input, profiles, {
    parallel: options.parallel,
    failFast: options.failFast,
    onLine: view.line,
    onDone: view.done,
  })
  view.finish(results)
  return results.some((result) => result.exitCode !== 0) ? ExitCode.Failure : ExitCode.Success
}

/** Targets by names, -l or --all; on a terminal with none of those, the user picks. */
async function chooseTargets(hub: Hub, options: ExecOptions, printer: Printer): Promise<ClusterProfile[]> {
  const {parseProfileRef, selectProfiles} = await import('../usecases/find-profiles.js')
  const scope = {namespace: hub.config.namespace, allNamespaces: options.allNamespaces}
  const selecting = options.names.length > 0 || options.selector !== undefined || options.all
  const profiles = await selectProfiles(hub, {
    ...scope,
    refs: options.names.map(parseProfileRef),
    selector: options.selector,
    all: options.all,
  })
  if (profiles.length > 0) return profiles
  if (selecting) {
    printer.note(
      options.selector ? `No ClusterProfiles match -l ${options.selector}.` : 'No ClusterProfiles found.',
    )
    return []
  }
  if (!printer.interactive) {
    throw new UsageError(
      'no target given',
      'name profiles before --, or use -l SELECTOR or --all (there is no terminal to choose on)',
    )
  }
  const [{pickProfiles}, {listProfiles}] = await Promise.all([
    import('../adapters/picker.js'),
    import('../usecases/list-profiles.js'),
  ])
  const inScope = await listProfiles(hub, {namespace: scope.allNamespaces ? undefined : scope.namespace})
  return pickProfiles(inScope.profiles, 'Run on which clusters? (space selects, enter runs)')
}
