// `cpcred credential <profile>`: cpcred as an exec credential plugin. kubectl runs it on every
// command through a `--mode cpcred` kubeconfig, so it starts without oclif (node:util parseArgs)
// and loads only what the warm path needs. stdout carries the ExecCredential and nothing else.
import {parseArgs} from 'node:util'
import {processPrinter, type Printer} from '../adapters/printer.js'
import {UsageError} from '../core/errors.js'
import {EXEC_API_V1, EXEC_API_VERSIONS, type ExecApiVersion} from '../core/exec-config.js'
import {describeCredential, EXEC_INFO_ENV, renderExecCredential} from '../core/exec-credential.js'
import {parseDuration} from '../core/duration.js'
import {DEFAULT_PROFILE_MAX_AGE_MS, readRecentProfile} from './recent-profile.js'

export const CREDENTIAL_USAGE = `usage: cpcred credential NAMESPACE/NAME [--kubeconfig FILE] [--context NAME] [-n NAMESPACE]
       [--provider-file FILE] [--access-provider NAME='CMD ARGS']... [--no-cache] [--cache-ttl DURATION]
       [--plugin-timeout DURATION] [--profile-max-age DURATION] [-v]`

export interface CredentialOptions {
  profile: string
  kubeconfig?: string
  context?: string
  namespace?: string
  providerFile?: string
  accessProviders: string[]
  noCache: boolean
  cacheTtlSeconds?: number
  pluginTimeoutMs?: number
  profileMaxAgeMs: number
  verbose: boolean
}

export function parseCredentialArgs(argv: string[]): CredentialOptions {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        kubeconfig: {type: 'string'},
        context: {type: 'string'},
        namespace: {type: 'string', short: 'n'},
        'provider-file': {type: 'string'},
        'access-provider': {type: 'string', multiple: true},
        'no-cache': {type: 'boolean'},
        'cache-ttl': {type: 'string'},
        'plugin-timeout': {type: 'string'},
        'profile-max-age': {type: 'string'},
        verbose: {type: 'boolean', short: 'v'},
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message, CREDENTIAL_USAGE)
  }
  const {values, positionals} = parsed
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length ? `expected one profile, got ${positionals.length}` : 'a profile is required',
      CREDENTIAL_USAGE,
    )
  }
  return {
    profile: positionals[0]!,
    kubeconfig: values.kubeconfig,
    context: values.context,
    namespace: values.namespace,
    providerFile: values['provider-file'],
    accessProviders: values['access-provider'] ?? [],
    noCache: values['no-cache'] ?? false,
    cacheTtlSeconds:
      values['cache-ttl'] === undefined
        ? undefined
        : parseDuration(values['cache-ttl'], '--cache-ttl') / 1000,
    pluginTimeoutMs:
      values['plugin-timeout'] === undefined
        ? undefined
        : parseDuration(values['plugin-timeout'], '--plugin-timeout'),
    profileMaxAgeMs:
      values['profile-max-age'] === undefined
        ? DEFAULT_PROFILE_MAX_AGE_MS
        : parseDuration(values['profile-max-age'], '--profile-max-age'),
    verbose: values.verbose ?? false,
  }
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

export async function runCredential(argv: string[], printer: Printer = processPrinter()): Promise<void> {
  const options = parseCredentialArgs(argv)
  const apiVersion = requestedApiVersion(process.env[EXEC_INFO_ENV])

  const [
    {hubIdentity, hubPin, loadHubConfig},
    {loadProviders, requireProviders},
    {parseProfileRef},
    {resolveAccess},
  ] = await Promise.all([
    import('../adapters/hub.js'),
    import('../adapters/providers.js'),
    import('../usecases/profile-ref.js'),
    import('../core/resolve-access.js'),
  ])
  const ref = parseProfileRef(options.profile)
  const [config, loaded] = await Promise.all([
    loadHubConfig({kubeconfig: options.kubeconfig, context: options.context, namespace: options.namespace}),
    loadProviders({providerFile: options.providerFile, accessProviders: options.accessProviders}),
  ])
  const identity = hubIdentity(config)
  const profile = await readRecentProfile(
    config,
    identity,
    ref,
    options.noCache ? 0 : options.profileMaxAgeMs,
  )
  const resolution = resolveAccess(profile, requireProviders(loaded))
  for (const warning of [...loaded.warnings, ...resolution.warnings]) printer.warn(warning)

  let cache
  if (!options.noCache) {
    const {CredentialStore, defaultCredentialCacheDir} = await import('../adapters/credential-store.js')
    cache = new CredentialStore(defaultCredentialCacheDir(), {
      onProblem: (message) => options.verbose && printer.note(`cache: ${message}`),
    })
  }
  const [{pluginRunner}, {obtainCredential}] = await Promise.all([
    import('../adapters/process.js'),
    import('../usecases/obtain-credential.js'),
  ])
  const obtained = await obtainCredential(
    {runner: pluginRunner, cache},
    {
      resolution,
      hubIdentity: identity,
      hubPin: hubPin(config),
      stdinIsTTY: Boolean(process.stdin.isTTY),
      timeoutMs: options.pluginTimeoutMs,
      ttlSeconds: options.cacheTtlSeconds,
      onPluginStderr: (text) => printer.text(text, 'stderr'),
    },
  )
  if (options.verbose) {
    printer.note(
      `credential for ${resolution.profile} via provider "${resolution.provider.name}": ` +
        `${describeCredential(obtained.credential)}, ${obtained.fromCache ? 'from the cache' : 'from the plugin'}`,
    )
  }
  printer.data(`${renderExecCredential(obtained.credential, apiVersion)}\n`)
}
