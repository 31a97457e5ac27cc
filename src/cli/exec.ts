// `cpcred exec`: CI pipelines run it all day, and oclif alone takes about 100 ms to load, more than
// kubectl needs for a whole `get`. So, like `credential`, it is parsed with node:util parseArgs and
// runs from the bundled fast path; src/commands/exec.ts gives it help text.
import type {Hub} from '../adapters/hub.js'
import type {Printer} from '../adapters/printer.js'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {readRecentProfile, staleProfileWarning, summarizedHub, type StaleProfile} from './recent-profile.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {realpathSync} from 'node:fs'
import {runToExit} from './run-to-exit.js'
import {answerKey} from '../adapters/credential-answers.js'
import type {Snapshot} from '../adapters/profile-snapshots.js'
import type {PreparedTarget} from '../usecases/exec-one.js'
import {keepWith, signInputs, type Signatures} from './answer-inputs.js'
import type {CredentialStore} from '../adapters/credential-store.js'
import {chosenShard} from './shard.js'
import {checkMinTargets, noProfilesNote, type SelectionScope} from '../core/fleet/selection-note.js'
import type {Shard} from '../core/fleet/shard.js'
import type {ReportRequest} from './exec-fan-out.js'
import path from 'node:path'
import {foldTargets} from './targets.js'
import {ExitCode, UsageError} from '../core/errors.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  IMPERSONATION_FLAGS,
  MIN_TARGETS_FLAG,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  VERBOSE_FLAG,
} from './flags.js'
import {wire} from './wiring.js'

export const EXEC_USAGE = usageLine('exec', '[PROFILE...] -- COMMAND [ARGS...]')

/** The flags of `cpcred exec`, read by this fast path and by the oclif class for help. */
export const EXEC_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PROVIDER_FLAGS,
  parallel: {kind: 'integer', summary: 'How many targets run at once.', default: 4, min: 1},
  'fail-fast': {
    kind: 'boolean',
    summary: 'Stop starting targets after the first failure, and stop the running ones.',
  },
  output: {
    kind: 'option',
    char: 'o',
    summary: 'Summary format for many targets.',
    options: ['text', 'json'],
    default: 'text',
  },
  timeout: {
    kind: 'duration',
    summary:
      "Stop a target's command (and what it started) after this long; alone, cpcred then exits 124 as timeout(1) does.",
  },
  report: {
    kind: 'string',
    summary: 'Write a report when all targets have ended: junit=FILE or json=FILE (repeatable).',
    multiple: true,
    helpGroup: 'CI',
  },
  'output-dir': {
    kind: 'string',
    summary: "Write each target's output to DIR/NAMESPACE/NAME.log (created 0700; files 0600).",
    helpGroup: 'CI',
  },
  stdin: {
    kind: 'option',
    summary:
      "With many targets: copy gives each target's command all of cpcred's stdin (read once; not a terminal's), none gives it /dev/null.",
    options: ['copy', 'none'],
    default: 'copy',
  },
  quiet: {
    kind: 'boolean',
    char: 'q',
    summary: "Do not show the targets' output; only the summary (with --output-dir, the logs have it).",
    helpGroup: 'CI',
  },
  ...MIN_TARGETS_FLAG,
  ...IMPERSONATION_FLAGS,
  ...CREDENTIAL_RUN_FLAGS,
  ...VERBOSE_FLAG,
} as const satisfies FlagTable

export type ExecFlags = FlagValues<typeof EXEC_FLAGS>

export interface ExecOptions {
  names: string[]
  command: string[]
  flags: ExecFlags
  shard?: Shard
  reports: ReportRequest[]
}

export function parseExecArgs(argv: string[]): ExecOptions {
  const separator = argv.indexOf('--')
  const command = separator === -1 ? [] : argv.slice(separator + 1)
  const {flags, positionals} = parseFlags(
    EXEC_FLAGS,
    separator === -1 ? argv : argv.slice(0, separator),
    EXEC_USAGE,
  )
  if (command.length === 0)
    throw new UsageError('no command to run', 'put it after --, e.g. cpcred exec NAME -- kubectl get pods')
  if (flags.timeout === 0)
    throw new UsageError('--timeout 0s would stop every command at once', 'give a duration such as 90s or 5m')
  if (flags['output-dir'] === '')
    throw new UsageError('--output-dir is empty', 'name the directory for the logs, e.g. --output-dir logs')
  checkLabelSelector(flags.selector)
  const selecting = flags.selector !== undefined || flags.all
  return {
    names: positionals,
    command,
    flags,
    shard: chosenShard(flags.shard, selecting),
    reports: flags.report.map(parseReportRequest),
  }
}

/** `junit=FILE` or `json=FILE`; the file's directory is created when the reports are written. */
export function parseReportRequest(text: string): ReportRequest {
  const match = /^(\w+)=(.+)$/.exec(text)
  const kind = match?.[1]
  if (!match || (kind !== 'junit' && kind !== 'json')) {
    throw new UsageError(
      `--report "${text}" is not junit=FILE or json=FILE`,
      'e.g. --report junit=reports/fleet.xml',
    )
  }
  return {kind, file: path.resolve(match[2]!)}
}

/** The arguments of exec that are cpcred's: those before --. */
export function ownArgs(argv: string[]): string[] {
  const separator = argv.indexOf('--')
  return separator === -1 ? argv : argv.slice(0, separator)
}

/** The router's entry (src/cli/router.ts): runs exec and exits with its code. */
export function run(argv: string[]): void {
  void runToExit(() => runExec(argv.slice(1)))
}

/** Runs exec; the exit code is the command's for one target, 0 or 1 for many. */
export async function runExec(argv: string[]): Promise<number> {
  const options = parseExecArgs(argv)
  const {flags} = options
  const [
    {processPrinter},
    {Hub},
    {loadProviders, requireProviders},
    {parseProfileRef},
    {execOne},
    {nodeChildRunner, forwardingSignals},
    {CredentialStore, defaultCredentialCacheDir},
    {pluginRunner},
    {tempKubeconfigs},
    {RunCredentials},
    {renewCredential},
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
    import('../usecases/obtain-credential.js'),
    import('../adapters/credential-renewal.js'),
  ])
  const printer = processPrinter()
  const selecting = flags.selector !== undefined || flags.all
  const oneNamed = options.names.length === 1 && !selecting && !flags['all-namespaces']
  // CI options make even one target a fan-out, so a shard of one reports like any other.
  const ciOutput =
    options.reports.length > 0 || flags['output-dir'] !== undefined || flags.quiet || flags.output === 'json'
  const providerSelection = {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}
  // One named target, nothing that explains itself or bypasses the cache: the prepared target is
  // kept as the answer to the next identical exec (credential-answers.ts).
  const answerInputs =
    oneNamed && !ciOutput && !flags.verbose && !flags['no-cache'] && flags.timeout === undefined
      ? signInputs(flags.kubeconfig, providerSelection)
      : undefined
  const [summarized, loaded] = await Promise.all([
    summarizedHub(hubSelection(flags)),
    loadProviders(providerSelection),
  ])
  for (const warning of loaded.warnings) printer.warn(warning)
  const {identity} = summarized.summary
  let profiles: ClusterProfile[]
  let snapshot: Snapshot | undefined
  let stale: StaleProfile | undefined
  const shown = [...loaded.warnings]
  if (oneNamed) {
    // Like `cpcred credential`: a profile read moments ago is used again (--profile-max-age), and
    // while the hub is down, the last one read (--profile-max-stale).
    const recent = await readRecentProfile(
      summarized,
      parseProfileRef(options.names[0]!),
      {
        maxAgeMs: flags['no-cache'] ? 0 : flags['profile-max-age'],
        maxStaleMs: flags['profile-max-stale'],
        remember: !flags['no-cache'],
      },
      flags['api-version'],
    )
    profiles = [recent.profile]
    snapshot = recent.snapshot
    stale = recent.stale
    if (stale) {
      const warning = staleProfileWarning(profileKey(recent.profile), stale)
      printer.warn(warning)
      shown.push(warning)
    }
  } else {
    const hub = await Hub.fromConfig(await summarized.config(), {
      apiVersion: flags['api-version'],
      runExecPlugin: wire().runExecPlugin,
    })
    try {
      profiles = foldTargets(
        await chooseTargets(hub, options, printer),
        loaded.providers,
        flags['no-dedupe'],
        printer,
      )
    } finally {
      await hub.client.close()
    }
    checkMinTargets(profiles.length, flags['min-targets'], selectionScope(hub, options))
    if (profiles.length === 0 && !ciOutput) return ExitCode.Success
  }

  const warned = new Set<string>(shown)
  const store = flags['no-cache']
    ? undefined
    : new CredentialStore(defaultCredentialCacheDir(), {
        onProblem: (message: string) => flags.verbose && printer.note(`cache: ${message}`),
      })
  const deps = {
    plugins: pluginRunner,
    // Targets that need one credential share one plugin run (or one cache read).
    cache: new RunCredentials(store),
    children: nodeChildRunner,
    temp: tempKubeconfigs(),
    now: () => performance.now(),
    forwardingSignals,
    renew: renewCredential,
  }
  const input = {
    command: options.command,
    providers: requireProviders(loaded),
    hubIdentity: identity,
    hubPin: summarized.summary.pin,
    stdinIsTTY: printer.stdinIsTTY,
    pluginTimeoutMs: flags['plugin-timeout'],
    cacheTtlSeconds: cacheTtlSeconds(flags),
    // During a hub outage the credential in the cache is all there is: any still valid will do.
    lifetimeRule: lifetimeRule(stale ? undefined : seconds(flags['min-credential-lifetime']), !stale),
    cacheOnly: stale?.reason,
    renewCommand: renewCommand(flags),
    as: flags.as,
    asGroups: flags['as-group'],
    onWarning: (message: string) => {
      if (!warned.has(message)) printer.warn(message)
      warned.add(message)
    },
    onPluginStderr: (text: string) => printer.text(text, 'stderr'),
    onVerbose: flags.verbose ? (message: string) => printer.note(`cpcred: ${message}`) : undefined,
    timeoutMs: flags.timeout,
  }
  // One target named by itself: the command owns the terminal and its exit code is ours.
  if (profiles.length === 1 && options.names.length <= 1 && !selecting && !ciOutput) {
    const keep =
      answerInputs && store && snapshot
        ? answerKeeper(argv, answerInputs, {store, snapshot, maxAgeMs: flags['profile-max-age'], warned})
        : undefined
    return execOne(deps, input, profiles[0]!, keep)
  }
  const {runFanOut} = await import('./exec-fan-out.js')
  return runFanOut(
    deps,
    input,
    profiles,
    {
      parallel: flags.parallel,
      failFast: flags['fail-fast'],
      json: flags.output === 'json',
      quiet: flags.quiet,
      outputDir: flags['output-dir'] === undefined ? undefined : path.resolve(flags['output-dir']),
      reports: options.reports,
      stdin: flags.stdin,
    },
    printer,
  )
}

/** Keeps the prepared target as the answer to the same exec (credential-answers.ts). */
function answerKeeper(
  argv: string[],
  inputs: Signatures,
  from: {store: CredentialStore; snapshot: Snapshot; maxAgeMs: number; warned: ReadonlySet<string>},
) {
  return async (target: PreparedTarget, credential: {cacheKey: string; cachedUntil?: Date}) => {
    // Warnings are not replayed, so an answer that came with some is not kept.
    if (!credential.cachedUntil || from.warned.size > 0) return
    await keepWith(
      inputs,
      {key: answerKey('exec', ownArgs(argv), process.env, process.cwd()), payload: JSON.stringify(target)},
      {
        credentialsDir: from.store.dir,
        entryFile: from.store.entryPath(credential.cacheKey),
        cachedUntil: credential.cachedUntil,
        snapshot: from.snapshot,
        profileMaxAgeMs: from.maxAgeMs,
      },
    )
  }
}

/** Targets by names, -l or --all; on a terminal with none of those, the user picks. */
async function chooseTargets(hub: Hub, options: ExecOptions, printer: Printer): Promise<ClusterProfile[]> {
  const {flags} = options
  const {parseProfileRef, selectProfiles} = await import('../usecases/find-profiles.js')
  const scope = {namespace: hub.config.namespace, allNamespaces: flags['all-namespaces']}
  const selecting = options.names.length > 0 || flags.selector !== undefined || flags.all
  const profiles = await selectProfiles(hub, {
    ...scope,
    refs: options.names.map(parseProfileRef),
    selector: flags.selector,
    all: flags.all,
    shard: options.shard,
  })
  if (profiles.length > 0) return profiles
  if (selecting) {
    printer.note(noProfilesNote(selectionScope(hub, options)))
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

function selectionScope(hub: Hub, options: ExecOptions): SelectionScope {
  return {
    namespace: options.flags['all-namespaces'] ? undefined : hub.config.namespace,
    selector: options.flags.selector,
    shard: options.shard,
  }
}

function cacheTtlSeconds(flags: ExecFlags): number | undefined {
  return seconds(flags['cache-ttl'])
}

function seconds(milliseconds: number | undefined): number | undefined {
  return milliseconds === undefined ? undefined : milliseconds / 1000
}

/**
 * `cpcred credential PROFILE` as this run would obtain it: this cpcred (by its real path, run by
 * this node), the same hub, providers and cache flags. Relative paths stay valid: it runs in this
 * working directory, with this environment. Nothing in it is a secret.
 */
function renewCommand(flags: ExecFlags): (profile: string) => string[] {
  const args: string[] = []
  const pass = (name: string, value: string | number | boolean | undefined) => {
    if (value === undefined || value === false) return
    args.push(value === true ? `--${name}` : `--${name}=${value}`)
  }
  pass('kubeconfig', flags.kubeconfig)
  pass('context', flags.context)
  pass('api-version', flags['api-version'])
  pass('provider-file', flags['provider-file'])
  for (const value of flags['access-provider']) pass('access-provider', value)
  pass('no-cache', flags['no-cache'])
  pass('cache-ttl', flags['cache-ttl'] === undefined ? undefined : `${flags['cache-ttl']}ms`)
  pass('plugin-timeout', `${flags['plugin-timeout']}ms`)
  pass('profile-max-age', `${flags['profile-max-age']}ms`)
  pass('profile-max-stale', `${flags['profile-max-stale']}ms`)
  const self = [process.execPath, realpathSync(process.argv[1]!)]
  return (profile) => [...self, 'credential', profile, ...args]
}
