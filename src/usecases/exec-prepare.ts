// A target of `cpcred exec` prepared through the credential pipeline: its access provider resolved,
// its credential obtained (shared by the targets that need the same one), and everything its
// command needs (exec-target-files.ts): the cluster, the credential, how to renew it, the environment.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import type {Provider} from '../core/access/provider-file.js'
import {fileRereadSeconds, targetConnection, targetCredential} from '../core/kubeconfig/target.js'
import type {LifetimeRule} from '../core/exec-credential/cache.js'
import type {Resolution} from '../core/access/resolve-access.js'
import type {ObtainedCredential} from './obtain-credential.js'
import {obtainFor, resolveProfile} from './credential-pipeline.js'
import {renewalTime, type PreparedTarget} from './exec-target-files.js'
import {describeFederation, type Federation} from './federated-token.js'
import type {
  ChildRunner,
  CredentialCache,
  ForwardingSignals,
  PluginProcessRunner,
  RenewCredential,
  TempKubeconfigs,
} from './ports.js'

/** What each target of a run is prepared and run with. */
export interface TargetRunPorts {
  plugins: PluginProcessRunner
  cache?: CredentialCache
  children: ChildRunner
  temp: TempKubeconfigs
  now: () => number
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals: ForwardingSignals
  /** Renews a running command's credential (src/adapters/credential-renewal.ts). */
  renew: RenewCredential
  /** This run's federation (providers with a serviceAccountToken block). */
  federation?: Federation
}

/** What this run of exec says about every target (the command, the hub, the providers, the flags). */
export interface TargetRunInput {
  command: string[]
  providers: Provider[]
  hubIdentity: string
  hubPin: HubPin
  stdinIsTTY: boolean
  pluginTimeoutMs?: number
  cacheTtlSeconds?: number
  /** How much of its life a credential must have left when a command starts with it. */
  lifetimeRule: LifetimeRule
  /** The hub is down and the profile is a stale snapshot: a cached credential only (obtain-credential.ts). */
  cacheOnly?: string
  /** `cpcred credential` for a profile (NAMESPACE/NAME) with this run's hub and provider flags. */
  renewCommand: (profile: string) => string[]
  as?: string
  asGroups: string[]
  onWarning: (message: string) => void
  onPluginStderr: (text: string) => void
  /** --verbose: what cpcred does, never a secret. */
  onVerbose?: (message: string) => void
  /** --timeout: each target's command is stopped (its whole process group) after this long. */
  timeoutMs?: number
}

/** What obtaining a target's credential needs of the run's ports (exec's targets, get's). */
export type TargetCredentialPorts = Pick<TargetRunPorts, 'plugins' | 'cache' | 'federation'>

/** What obtaining a target's credential needs of the run's input. */
export type TargetCredentialInput = Pick<
  TargetRunInput,
  | 'providers'
  | 'hubIdentity'
  | 'hubPin'
  | 'stdinIsTTY'
  | 'pluginTimeoutMs'
  | 'cacheTtlSeconds'
  | 'lifetimeRule'
  | 'cacheOnly'
  | 'onWarning'
  | 'onPluginStderr'
  | 'onVerbose'
>

/**
 * A target's access provider resolved and its credential obtained (the cache, or the plugin run
 * that targets needing the same credential share): the one credential path of exec's and get's targets.
 */
export async function obtainTargetCredential(
  ports: TargetCredentialPorts,
  input: TargetCredentialInput,
  profile: ClusterProfile,
): Promise<{resolution: Resolution; obtained: ObtainedCredential}> {
  const resolution = resolveProfile(profile, input.providers)
  for (const warning of resolution.warnings) input.onWarning(warning)
  const obtained = await obtainFor(
    {plugins: ports.plugins, cache: ports.cache, federation: ports.federation},
    {identity: input.hubIdentity, pin: input.hubPin},
    resolution,
    {
      stdinIsTTY: input.stdinIsTTY,
      timeoutMs: input.pluginTimeoutMs,
      ttlSeconds: input.cacheTtlSeconds,
      lifetimeRule: input.lifetimeRule,
      cacheOnly: input.cacheOnly,
      onPluginStderr: input.onPluginStderr,
    },
  )
  input.onVerbose?.(
    `${resolution.profile}: provider "${resolution.provider.name}", credential ${obtained.fromCache ? 'from the cache' : 'from the plugin'}` +
      (obtained.federation ? `; federated: ${describeFederation(obtained.federation)}` : ''),
  )
  return {resolution, obtained}
}

export async function prepareTarget(
  ports: TargetRunPorts,
  input: TargetRunInput,
  profile: ClusterProfile,
): Promise<{target: PreparedTarget; credential: {cacheKey: string; cachedUntil?: Date}}> {
  const {resolution, obtained} = await obtainTargetCredential(ports, input, profile)
  const {credential, obtainedAt} = obtained
  const target: PreparedTarget = {
    connection: targetConnection(resolution, {as: input.as, asGroups: input.asGroups}),
    credential: targetCredential(credential),
    env: {CPCRED_PROFILE: profile.metadata.name, CPCRED_NAMESPACE: profile.metadata.namespace ?? ''},
  }
  // A credential that expires is renewed while the command runs, once it has only the lifetime
  // a command must start with left (the same rule, so the renewal finds the cache's copy too old),
  // or earlier when the command's client would not re-read its files in that time.
  const expiresAt = credential.expiresAt?.getTime()
  if (expiresAt !== undefined) {
    const minLifetimeSeconds = Math.max(
      Math.ceil(input.lifetimeRule((expiresAt - obtainedAt.getTime()) / 1000)),
      fileRereadSeconds(target.credential),
    )
    target.refresh = {
      at: renewalTime(expiresAt, minLifetimeSeconds, Date.now()),
      minLifetimeSeconds,
      command: input.renewCommand(resolution.profile),
    }
  }
  return {
    target,
    credential: {cacheKey: obtained.cacheKey, cachedUntil: obtained.cachedUntil},
  }
}
