// `cpcred credential <profile>`: cpcred as an exec credential plugin. kubectl runs it on every
// command through a `--mode cpcred` kubeconfig, so it starts without oclif (node:util parseArgs)
// and loads only what the warm path needs. stdout carries the ExecCredential and nothing else.
import {isTerminal, processPrinter, type Printer} from '../adapters/printer.js'
import type {PluginProcessRunner} from '../adapters/process.js'
import type {CredentialStore} from '../adapters/credential-store.js'
import {UsageError} from '../core/errors.js'
import {EXEC_API_V1, EXEC_API_VERSIONS, type ExecApiVersion} from '../core/access/exec-config.js'
import {describeCredential, EXEC_INFO_ENV, renderExecCredential} from '../core/exec-credential/protocol.js'
import {CREDENTIAL_RUN_FLAGS, HUB_FLAGS, hubSelection, PROVIDER_FLAGS, VERBOSE_FLAG} from './flags.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {readRecentProfile, staleProfileWarning, summarizedHub} from './recent-profile.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {answerKey} from '../adapters/credential-answers.js'
import {keepWith, signInputs} from './answer-inputs.js'

export const CREDENTIAL_USAGE = usageLine('credential', 'NAMESPACE/NAME')

/** The flags of `cpcred credential`, read by this fast path and by the oclif class for help. */
export const CREDENTIAL_FLAGS = {
  ...HUB_FLAGS,
  ...PROVIDER_FLAGS,
  ...CREDENTIAL_RUN_FLAGS,
  ...VERBOSE_FLAG,
} as const satisfies FlagTable

export interface CredentialOptions {
  profile: string
  flags: FlagValues<typeof CREDENTIAL_FLAGS>
}

export function parseCredentialArgs(argv: string[]): CredentialOptions {
  const {flags, positionals} = parseFlags(CREDENTIAL_FLAGS, argv, CREDENTIAL_USAGE)
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length ? `expected one profile, got ${positionals.length}` : 'a profile is required',
      CREDENTIAL_USAGE,
    )
  }
  return {profile: positionals[0]!, flags}
}

/** The ExecCredential apiVersion kubectl asked for in KUBERNETES_EXEC_INFO; v1 when run by hand. */
export function requestedApiVersion(execInfo: string | undefined): ExecApiVersion {
  if (!execInfo) return EXEC_API_V1
  try {
    const apiVersion = (JSON.parse(execInfo) as {apiVersion?: string}).apiVersion
    if (apiVersion && (EXEC_API_VERSIONS as readonly string[]).includes(apiVersion))
      return apiVersion as ExecApiVersion
  } catch {
    // fall through to the error below
  }
  throw new UsageError(
    `${EXEC_INFO_ENV} does not name a supported ExecCredential apiVersion (${EXEC_API_VERSIONS.join(', ')})`,
  )
}

/** The runner's module (child processes) loads only when a plugin runs: a cached credential needs none. */
const lazyPluginRunner: PluginProcessRunner = {
  run: async (request) => (await import('../adapters/process.js')).pluginRunner.run(request),
}

export async function runCredential(argv: string[], printer: Printer = processPrinter()): Promise<void> {
  const {profile: profileArg, flags} = parseCredentialArgs(argv)
  const apiVersion = requestedApiVersion(process.env[EXEC_INFO_ENV])

  const [{loadProviders, requireProviders}, {parseProfileRef}, {resolveAccess}] = await Promise.all([
    import('../adapters/providers.js'),
    import('../usecases/profile-ref.js'),
    import('../core/access/resolve-access.js'),
  ])
  const providerSelection = {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}
  // An answer is kept for the next identical question (credential-answers.ts); its inputs are
  // signed before they are read, so one that changes meanwhile makes the answer a miss.
  const answerInputs =
    flags['no-cache'] || flags.verbose ? undefined : signInputs(flags.kubeconfig, providerSelection)
  const ref = parseProfileRef(profileArg)
  const [hub, loaded] = await Promise.all([
    summarizedHub(hubSelection(flags)),
    loadProviders(providerSelection),
  ])
  const {identity} = hub.summary
  const {profile, snapshot, stale} = await readRecentProfile(
    hub,
    ref,
    {
      maxAgeMs: flags['no-cache'] ? 0 : flags['profile-max-age'],
      maxStaleMs: flags['profile-max-stale'],
      remember: !flags['no-cache'],
    },
    flags['api-version'],
  )
  const resolution = resolveAccess(profile, requireProviders(loaded))
  const warnings = [
    ...(stale ? [staleProfileWarning(resolution.profile, stale)] : []),
    ...loaded.warnings,
    ...resolution.warnings,
  ]
  for (const warning of warnings) printer.warn(warning)

  let cache: CredentialStore | undefined
  if (!flags['no-cache']) {
    const {CredentialStore, defaultCredentialCacheDir} = await import('../adapters/credential-store.js')
    cache = new CredentialStore(defaultCredentialCacheDir(), {
      onProblem: (message) => flags.verbose && printer.note(`cache: ${message}`),
    })
  }
  const {obtainCredential} = await import('../usecases/obtain-credential.js')
  const obtained = await obtainCredential(
    {runner: lazyPluginRunner, cache},
    {
      resolution,
      hubIdentity: identity,
      hubPin: hub.summary.pin,
      // Asked only if the plugin runs: creating process.stdin costs a warm run milliseconds.
      get stdinIsTTY() {
        return isTerminal(0)
      },
      timeoutMs: flags['plugin-timeout'],
      ttlSeconds: flags['cache-ttl'] === undefined ? undefined : flags['cache-ttl'] / 1000,
      lifetimeRule: lifetimeRule(seconds(flags['min-credential-lifetime']), false),
      cacheOnly: stale?.reason,
      onPluginStderr: (text) => printer.text(text, 'stderr'),
    },
  )
  if (flags.verbose) {
    printer.note(
      `credential for ${resolution.profile} via provider "${resolution.provider.name}": ` +
        `${describeCredential(obtained.credential)}, ${obtained.fromCache ? 'from the cache' : 'from the plugin'}`,
    )
  }
  const output = `${renderExecCredential(obtained.credential, apiVersion)}\n`
  printer.data(output)
  // Warnings are not replayed, so an answer that came with some is not kept.
  if (answerInputs && cache && snapshot && obtained.cachedUntil && warnings.length === 0) {
    await keepWith(
      answerInputs,
      {key: answerKey('credential', argv, process.env, process.cwd()), payload: output},
      {
        credentialsDir: cache.dir,
        entryFile: cache.entryPath(obtained.cacheKey),
        cachedUntil: obtained.cachedUntil,
        snapshot,
        profileMaxAgeMs: flags['profile-max-age'],
      },
    )
  }
}

function seconds(milliseconds: number | undefined): number | undefined {
  return milliseconds === undefined ? undefined : milliseconds / 1000
}
