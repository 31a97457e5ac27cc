// A credential for a resolved profile: from the cache when a usable one is there for exactly this
// identity and target, else from the plugin (once, even with many concurrent callers).
import {
  cacheKey,
  cacheKeyInput,
  lifetimeRule,
  type FederatedIdentity,
  type LifetimeRule,
} from '../core/exec-credential/cache.js'
import {CpcredError, ExitCode} from '../core/errors.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import type {ExecConfig} from '../core/access/exec-config.js'
import {pinnedEnv, type HubPin} from '../core/profiles/hub-pin.js'
import type {Resolution} from '../core/access/resolve-access.js'
import type {CachedCredential, CredentialCache, PluginProcessRunner} from './ports.js'
import {redactCredential, runPlugin, pluginLabel} from './run-plugin.js'
import {federationNote, type Federation, type FederationNote, type MintedToken} from './federated-token.js'

export type {CachedCredential, CredentialCache} from './ports.js'

export interface ObtainCredentialInput {
  resolution: Resolution
  /** Who reads the hub: plugins such as secretreader answer differently for other hub users. */
  hubIdentity: string
  /**
   * The hub, pinned in the plugin's env as a kubeconfig written by cpcred would (KUBECONFIG and
   * CPCRED_HUB_CONTEXT): when kubectl runs `cpcred credential`, its KUBECONFIG names the target.
   */
  hubPin: HubPin
  stdinIsTTY: boolean
  timeoutMs?: number
  /** Cache credentials that carry no expiry for this long (off when undefined). */
  ttlSeconds?: number
  /** How much of its life a cached credential must have left (the cache's margin when absent). */
  lifetimeRule?: LifetimeRule
  /**
   * The hub is down and the profile is a stale snapshot: only a credential already in the cache may
   * be used, never a new one from the plugin for a profile that may have changed (or gone) since.
   * The text says why, for the error when the cache has none.
   */
  cacheOnly?: string
  onPluginStderr?: (text: string) => void
}

export interface ObtainedCredential {
  credential: Credential
  fromCache: boolean
  cacheKey: string
  /** Until when the credential cache serves it, when it is in the cache. */
  cachedUntil?: Date
  /** When the plugin returned it (now, for a fresh one). */
  obtainedAt: Date
  /** The hub ServiceAccount token the plugin was (or would have been) handed; never the token. */
  federation?: FederationNote
}

export async function obtainCredential(
  deps: {runner: PluginProcessRunner; cache?: CredentialCache; federation?: Federation},
  input: ObtainCredentialInput,
): Promise<ObtainedCredential> {
  const {resolution} = input
  // A federated provider's credential belongs to the ServiceAccount the hub names now: its token is
  // minted first, so the cache key carries that identity (two never share an entry).
  const minted = await mintFor(deps.federation, input)
  const {exec, key} = pluginRun(resolution, input.hubIdentity, input.hubPin, minted?.identity)
  const runWith = (extraEnv?: Record<string, string>) =>
    runPlugin(deps.runner, {
      exec,
      cluster: resolution.cluster,
      clusterConfig: resolution.execClusterConfig,
      label: pluginLabel(resolution.provider.name, exec.command),
      profile: resolution.profile,
      stdinIsTTY: input.stdinIsTTY,
      timeoutMs: input.timeoutMs,
      // What it says on stderr about the hub's token is cut out, as its own credential is.
      onStderr:
        minted && input.onPluginStderr
          ? (text) => input.onPluginStderr!(redactCredential(text, {token: minted.token}))
          : input.onPluginStderr,
      extraEnv,
    })
  const run = minted ? () => deps.federation!.withTokenFile(minted, runWith) : () => runWith()
  const federation = minted && federationNote(minted)
  const {cacheOnly} = input
  const fetch = cacheOnly
    ? () =>
        Promise.reject(
          new CpcredError(`${cacheOnly}, and no credential for ${resolution.profile} is left in the cache`, {
            exitCode: ExitCode.Unreachable,
            hint: 'a new credential is only obtained with the profile as the hub has it now: bring the hub back',
          }),
        )
    : run
  if (!deps.cache) {
    return {credential: await fetch(), fromCache: false, cacheKey: key, obtainedAt: new Date(), federation}
  }
  const {credential, fromCache, cachedUntil, obtainedAt} = await deps.cache.obtain(
    key,
    fetch,
    input.ttlSeconds,
    input.lifetimeRule,
  )
  return {credential, fromCache, cacheKey: key, cachedUntil, obtainedAt: obtainedAt ?? new Date(), federation}
}

/** The token of a provider's serviceAccountToken block, when it has one. */
async function mintFor(
  federation: Federation | undefined,
  input: ObtainCredentialInput,
): Promise<MintedToken | undefined> {
  const {provider, profile} = input.resolution
  const block = provider.serviceAccountToken
  if (block === undefined) return undefined
  if (input.cacheOnly) {
    throw new CpcredError(
      `${input.cacheOnly}, and provider "${provider.name}" needs a token of a hub ServiceAccount for ${profile}`,
      {
        exitCode: ExitCode.Unreachable,
        hint: 'the hub mints the token its plugin exchanges: bring the hub back',
      },
    )
  }
  if (federation === undefined) {
    throw new CpcredError(`provider "${provider.name}": serviceAccountToken is not available in this command`)
  }
  return federation.mint(provider.name, block)
}

/**
 * The plugin as it runs for a resolution (the hub pinned in its env) and the cache key of what it
 * returns: everything that decides the identity and the target, and who reads the hub.
 */
export function pluginRun(
  resolution: Resolution,
  hubIdentity: string,
  hubPin: HubPin,
  serviceAccount?: FederatedIdentity,
): {exec: ExecConfig; key: string} {
  const exec = {...resolution.execConfig, env: pinnedEnv(resolution, hubPin)}
  const key = cacheKey({
    ...cacheKeyInput(
      hubIdentity,
      resolution.provider.name,
      exec,
      resolution.cluster,
      resolution.execClusterConfig,
    ),
    serviceAccount,
  })
  return {exec, key}
}

/**
 * One run's credentials by cache key, kept in memory as client-go keeps an exec credential for its
 * process: the targets of a fan-out that need the same credential share one plugin run (or one
 * cache read). Targets that come while the plugin runs wait for it; a failure is shared too, so a
 * broken identity provider is not asked (or waited out) once per target. A credential is reused
 * until it is within the cache's expiry margin. Also with --no-cache: that flag is about the disk
 * cache, and a credential this run has just obtained is fresh.
 */
export class RunCredentials implements CredentialCache {
  private readonly held = new Map<string, Promise<CachedCredential>>()

  constructor(
    private readonly cache: CredentialCache | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async obtain(
    key: string,
    fetch: () => Promise<Credential>,
    ttlSeconds?: number,
    rule: LifetimeRule = lifetimeRule(undefined, false),
  ): Promise<CachedCredential> {
    for (;;) {
      const held = this.held.get(key)
      if (held === undefined) break
      const obtained = await held
      if (this.usable(obtained, rule)) return {...obtained, fromCache: true}
      if (this.held.get(key) === held) this.held.delete(key)
    }
    const obtaining = this.cache
      ? this.cache.obtain(key, fetch, ttlSeconds, rule)
      : fetch().then((credential) => ({credential, fromCache: false, obtainedAt: this.now()}))
    this.held.set(key, obtaining)
    return obtaining
  }

  private usable({credential, obtainedAt}: CachedCredential, rule: LifetimeRule): boolean {
    const expiresAt = credential.expiresAt?.getTime()
    if (expiresAt === undefined) return true
    const lifetime = obtainedAt ? (expiresAt - obtainedAt.getTime()) / 1000 : undefined
    return this.now().getTime() + rule(lifetime) * 1000 < expiresAt
  }
}
