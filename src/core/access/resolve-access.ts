// Which plugin reaches a profile's cluster, and how it is run: docs/design.md §2, following
// BuildConfigFromCP in sigs.k8s.io/cluster-inventory-api/pkg/access. The profile supplies where the
// cluster is and data for the plugin; the command always comes from the consumer's providers.
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  offeredProviders,
  profileKey,
  type ClusterProfile,
  type OfferedProvider,
  type ProfileCluster,
} from '../profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../errors.js'
import {
  clusterConnection,
  connectionWarnings,
  holdsPemCertificate,
  type ClusterConnection,
} from './connection.js'
import type {ExecConfig, ExecEnvVar, InteractiveMode} from './exec-config.js'
import {isGuardedEnvName} from './guarded-env.js'
import {decodeAdditionalArgs, decodeAdditionalEnvs, reservedExtensions} from './profile-sourced.js'
import {PROFILE_SOURCED_POLICIES, type PolicyField, type Provider} from './provider-file.js'

/** The upstream library runs every plugin with Never; see parseProviderFile for why cpcred follows. */
export const DEFAULT_INTERACTIVE_MODE: InteractiveMode = 'Never'

export interface Resolution {
  /** `namespace/name` of the profile. */
  profile: string
  /** The consumer's provider that was chosen. */
  provider: Provider
  /** The profile's entry for that provider; `source` says which status list it came from. */
  offered: OfferedProvider
  cluster: ClusterConnection
  /**
   * The `client.authentication.k8s.io/exec` extension's value, untouched: client-go hands it to the
   * plugin as ExecCredential.spec.cluster.config (only when provideClusterInfo is true).
   */
  execClusterConfig?: unknown
  /** The provider's exec config with the profile-sourced args and env its policies let through. */
  execConfig: ExecConfig
  /** Each step, in words, for `describe`. */
  decisions: string[]
  /** Things the user must hear about even when everything works (insecure TLS, plain http, …). */
  warnings: string[]
}

/**
 * The chosen pair, or undefined: the first of the consumer's providers, in their order, whose name
 * the profile offers. The consumer's order decides, not the profile's, as in the upstream library.
 */
export function chooseProvider(
  profile: ClusterProfile,
  providers: Provider[],
): {provider: Provider; offered: OfferedProvider} | undefined {
  // Without a provider file nothing can be chosen, and the profile's entries need not be judged.
  if (providers.length === 0) return undefined
  const offered = new Map(offeredProviders(profile).map((entry) => [entry.name, entry]))
  for (const provider of providers) {
    const entry = offered.get(provider.name)
    if (entry) return {provider, offered: entry}
  }
  return undefined
}

export function resolveAccess(profile: ClusterProfile, providers: Provider[]): Resolution {
  const key = profileKey(profile)
  const chosen = chooseProvider(profile, providers)
  if (!chosen) throw noProviderInCommon(profile, providers)
  const {provider, offered} = chosen
  const decisions: string[] = []
  const warnings: string[] = []

  const position = providers.indexOf(provider) + 1
  const skipped = providers.slice(0, position - 1).map((earlier) => `"${earlier.name}"`)
  decisions.push(
    `Chose provider "${provider.name}" (${ordinal(position)} of ${providers.length} configured): ` +
      'the first configured provider that the profile offers' +
      (skipped.length > 0 ? `; the profile does not offer ${skipped.join(', ')}.` : '.'),
  )
  if (offered.source === 'credentialProviders') {
    decisions.push(
      `The cluster comes from the profile's deprecated status.credentialProviders entry "${provider.name}" ` +
        '(status.accessProviders has no entry of that name).',
    )
    warnings.push(
      `ClusterProfile ${key} lists "${provider.name}" in the deprecated status.credentialProviders; ` +
        'its cluster manager should publish status.accessProviders.',
    )
  } else {
    decisions.push(`The cluster comes from the profile's status.accessProviders entry "${provider.name}".`)
  }

  const profileCluster = offered.cluster as ProfileCluster
  if (offered.invalid !== undefined) {
    throw new CpcredError(
      `ClusterProfile ${key}: its ${offered.source} entry "${provider.name}" is refused: ${offered.invalid}`,
      {hint: 'Ask the cluster manager that publishes this profile to fix the entry.'},
    )
  }
  const caData = profileCluster['certificate-authority-data']
  if (caData && !holdsPemCertificate(caData)) {
    // kubectl would say "unable to load root certificates", and a TLS client "not signed by a
    // trusted CA": both point away from the profile, which is what is wrong.
    throw new CpcredError(
      `ClusterProfile ${key}: the certificate-authority-data of its ${offered.source} entry "${provider.name}" is not a base64-encoded PEM certificate`,
      {hint: 'Ask the cluster manager that publishes this profile to fix it.'},
    )
  }
  const cluster = clusterConnection(profileCluster)
  warnings.push(...connectionWarnings(`ClusterProfile ${key} (provider "${provider.name}")`, profileCluster))

  const extensions = reservedExtensions(key, profileCluster)
  const execConfig = baseExecConfig(provider, decisions)

  if (extensions.exec) {
    decisions.push(
      execConfig.provideClusterInfo
        ? `Extension ${EXEC_EXTENSION} is passed to the plugin as ExecCredential.spec.cluster.config.`
        : `Extension ${EXEC_EXTENSION} is present, but provideClusterInfo is false, so the plugin will not see it.`,
    )
  }
  applyAdditionalArgs(key, provider, extensions.args, execConfig, decisions)
  applyAdditionalEnvs(key, provider, extensions.envs, execConfig, decisions, warnings)

  const resolution: Resolution = {profile: key, provider, offered, cluster, execConfig, decisions, warnings}
  if (extensions.exec) resolution.execClusterConfig = extensions.exec.value
  return resolution
}

function noProviderInCommon(profile: ClusterProfile, providers: Provider[]): CpcredError {
  const offered = offeredProviders(profile)
  const offers =
    offered.length === 0
      ? 'offers no providers (status.accessProviders and status.credentialProviders are empty)'
      : `offers ${offered
          .map(
            (entry) =>
              `"${entry.name}"${entry.source === 'credentialProviders' ? ' (deprecated credentialProviders)' : ''}`,
          )
          .join(', ')}`
  const supports =
    providers.length === 0
      ? 'the provider file lists no providers'
      : `the provider file supports ${providers.map((provider) => `"${provider.name}"`).join(', ')}`
  const hint =
    offered.length === 0
      ? 'The cluster manager has not published how to reach this cluster yet; check the profile later or ask its owner.'
      : `Add a provider named ${offered.map((entry) => `"${entry.name}"`).join(' or ')} to the provider file, with the plugin that obtains its credentials.`
  return new CpcredError(
    `no provider in common for ClusterProfile ${profileKey(profile)}: it ${offers}; ${supports}.`,
    {
      exitCode: ExitCode.Failure,
      hint,
    },
  )
}

function baseExecConfig(provider: Provider, decisions: string[]): ExecConfig {
  const source = provider.execConfig
  const execConfig: ExecConfig = {
    apiVersion: source.apiVersion,
    command: source.command,
    args: [...(source.args ?? [])],
    env: (source.env ?? []).map((variable) => ({...variable})),
    provideClusterInfo: source.provideClusterInfo ?? false,
    interactiveMode: source.interactiveMode ?? DEFAULT_INTERACTIVE_MODE,
  }
  if (source.installHint !== undefined) execConfig.installHint = source.installHint
  decisions.push(
    `Runs ${source.command} as configured for "${provider.name}" by the consumer, never by the profile ` +
      `(${source.apiVersion}, provideClusterInfo ` +
      `${execConfig.provideClusterInfo}, interactiveMode ${execConfig.interactiveMode}` +
      `${source.interactiveMode ? '' : ', the default'}).`,
  )
  return execConfig
}

function applyAdditionalArgs(
  key: string,
  provider: Provider,
  extension: {value: unknown} | undefined,
  execConfig: ExecConfig,
  decisions: string[],
): void {
  const policy = checkedPolicy(provider, 'profileSourcedCLIArgsPolicy')
  if (!extension) {
    decisions.push(`The profile adds no arguments (no ${ADDITIONAL_ARGS_EXTENSION} extension).`)
    return
  }
  if (policy !== 'Append') {
    decisions.push(
      `Ignored the profile's ${ADDITIONAL_ARGS_EXTENSION} extension${describeIgnoredArgs(extension.value)}: ` +
        `provider "${provider.name}" has ${policyInWords('profileSourcedCLIArgsPolicy', provider.profileSourcedCLIArgsPolicy)}; ` +
        'set it to Append to use them.',
    )
    return
  }
  const args = decodeAdditionalArgs(key, extension.value)
  execConfig.args = [...(execConfig.args ?? []), ...args]
  decisions.push(
    `Appended ${args.length} argument(s) from the profile's ${ADDITIONAL_ARGS_EXTENSION} extension ` +
      `(profileSourcedCLIArgsPolicy Append): ${JSON.stringify(args)}.`,
  )
}

function describeIgnoredArgs(value: unknown): string {
  try {
    return ` (${JSON.stringify(decodeAdditionalArgs('', value))})`
  } catch {
    return ' (malformed)'
  }
}

function applyAdditionalEnvs(
  key: string,
  provider: Provider,
  extension: {value: unknown} | undefined,
  execConfig: ExecConfig,
  decisions: string[],
  warnings: string[],
): void {
  const policy = checkedPolicy(provider, 'profileSourcedEnvVarsPolicy')
  if (!extension) {
    decisions.push(`The profile adds no environment (no ${ADDITIONAL_ENVS_EXTENSION} extension).`)
    return
  }
  if (policy !== 'AppendIfNotExists' && policy !== 'Replace') {
    decisions.push(
      `Ignored the profile's ${ADDITIONAL_ENVS_EXTENSION} extension: provider "${provider.name}" has ` +
        `${policyInWords('profileSourcedEnvVarsPolicy', provider.profileSourcedEnvVarsPolicy)}; ` +
        'set it to AppendIfNotExists or Replace to use it.',
    )
    return
  }

  const fromProfile = decodeAdditionalEnvs(key, extension.value)
  // Whatever the policy (guarded-env.ts): docs/design.md §5 keeps code, hub and identity the consumer's.
  const refused = [...fromProfile.keys()].filter(isGuardedEnvName)
  for (const name of refused) fromProfile.delete(name)
  if (refused.length > 0) {
    const names = refused.sort().join(', ')
    warnings.push(
      `ClusterProfile ${key} tries to set ${names} for the plugin through ${ADDITIONAL_ENVS_EXTENSION}; ` +
        'refused, because those variables decide which code runs.',
    )
    decisions.push(`Refused ${names} from the profile: they decide which code runs.`)
  }

  // Deterministic, unlike the upstream library (which rebuilds env from a Go map, in random order):
  // the provider's variables keep their order, then the profile's new names follow, sorted. The
  // cache key and the kubeconfigs cpcred writes depend on it.
  const providerEnv = execConfig.env ?? []
  const providerNames = new Set(providerEnv.map((variable) => variable.name))
  const replaced: string[] = []
  const kept: string[] = []
  const env: ExecEnvVar[] = providerEnv.map((variable) => {
    const profileValue = fromProfile.get(variable.name)
    if (profileValue === undefined) return variable
    if (policy === 'Replace') {
      if (!replaced.includes(variable.name)) replaced.push(variable.name)
      return {name: variable.name, value: profileValue}
    }
    if (!kept.includes(variable.name)) kept.push(variable.name)
    return variable
  })
  const added = [...fromProfile.keys()].filter((name) => !providerNames.has(name)).sort()
  for (const name of added) env.push({name, value: fromProfile.get(name) as string})
  execConfig.env = env

  const parts = [`added ${added.length > 0 ? added.join(', ') : 'nothing'}`]
  if (replaced.length > 0) parts.push(`replaced the provider's ${replaced.join(', ')}`)
  if (kept.length > 0) parts.push(`kept the provider's own ${kept.join(', ')}`)
  decisions.push(
    `Applied the profile's ${ADDITIONAL_ENVS_EXTENSION} extension (profileSourcedEnvVarsPolicy ${policy}): ` +
      `${parts.join('; ')}.`,
  )
}

/** The provider's policy ('' when absent), refused when a provider built in code set one unknown. */
function checkedPolicy<F extends PolicyField>(provider: Provider, field: F): NonNullable<Provider[F]> | '' {
  const policy = provider[field] ?? ''
  const allowed: readonly string[] = PROFILE_SOURCED_POLICIES[field]
  if (!allowed.includes(policy)) {
    throw new CpcredError(
      `provider "${provider.name}": ${field} ${JSON.stringify(policy)} is not one of ${allowed.map((value) => `"${value}"`).join(', ')}`,
      {exitCode: ExitCode.Usage, hint: 'Fix the policy in the provider file.'},
    )
  }
  return policy as NonNullable<Provider[F]> | ''
}

function policyInWords(field: string, policy: string | undefined): string {
  if (policy === undefined) return `no ${field}, so Ignore`
  if (policy === '') return `${field} "", which means Ignore`
  return `${field} ${policy}`
}

function ordinal(position: number): string {
  const tens = position % 100
  if (tens >= 11 && tens <= 13) return `${position}th`
  return `${position}${['th', 'st', 'nd', 'rd'][position % 10] ?? 'th'}`
}
