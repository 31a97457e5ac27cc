// The credential pipeline, one step per function, shared by `credential`, `exec`, `whoami` and
// `cache clear`: the hub (as the command opens it) and the provider file side by side → the profile
// → its access provider resolved → the credential (cache or plugin) → the answer kept for the next
// identical question. Each command composes the steps it needs in a straight line.
import {resolveAccess, type Resolution} from '../core/access/resolve-access.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {Provider} from '../core/access/provider-file.js'
import {
  obtainCredential,
  pluginRun,
  type ObtainCredentialInput,
  type ObtainedCredential,
} from './obtain-credential.js'
import type {
  AnswerBook,
  AnswerDraft,
  AnswerQuestion,
  CredentialCache,
  CredentialStore,
  HubIdentity,
  Notices,
  PluginProcessRunner,
  ProfileSnapshot,
  ProviderSelection,
  ProviderSource,
  ProvidersRead,
} from './ports.js'
import type {ProfileFreshness, RecentProfilePorts} from './recent-profile.js'
import {Federation} from './federated-token.js'
import type {FederationPorts} from './ports.js'

/**
 * What the commands that run plugins (credential, exec) say about the pipeline: their hub, provider
 * and credential-run flags (src/cli/flags.ts, pipelineInput).
 */
export interface PipelineInput {
  kubeconfig?: string
  providers: ProviderSelection
  noCache: boolean
  verbose: boolean
  profileMaxAgeMs: number
  profileMaxStaleMs: number
  pluginTimeoutMs?: number
  cacheTtlMs?: number
  minCredentialLifetimeMs?: number
}

/** What the commands that run plugins (credential, exec) take from outside for the pipeline. */
export interface PipelinePorts {
  /** The hub (its summary) and the profile snapshots. */
  recentProfiles(): Promise<RecentProfilePorts>
  providers: ProviderSource
  plugins: PluginProcessRunner
  /** The credential cache (not asked for with --no-cache); `onProblem` hears what went wrong with it. */
  store(onProblem: (message: string) => void): Promise<CredentialStore>
  /** Answers kept in this store's directory. */
  answers(store: CredentialStore): Promise<AnswerBook>
  /** The hub's TokenRequest and private token files, for providers with a serviceAccountToken block. */
  federation?(): FederationPorts
}

export interface ObtainPorts {
  plugins: PluginProcessRunner
  /** Absent with --no-cache. */
  cache?: CredentialCache
  /** This run's federation (providers with a serviceAccountToken block). */
  federation?: Federation
}

/** This run's federation, opened only when a provider asks for it; closed at the end of the run. */
export function openFederation(ports: Pick<PipelinePorts, 'federation'>): Federation | undefined {
  return ports.federation && new Federation(ports.federation())
}

/** Step 1: the hub, however the command opens it, and the consumer's providers, read side by side. */
export async function openPipeline<H>(
  providers: ProviderSource,
  openHub: () => Promise<H>,
  selection: ProviderSelection,
): Promise<{hub: H; providers: ProvidersRead}> {
  const [hub, read] = await Promise.all([openHub(), providers.load(selection)])
  return {hub, providers: read}
}

/**
 * Step 1 as the commands that keep answers open it (credential, exec): the credential cache (none
 * with --no-cache, whose problems are notes with --verbose), the answer to this very question begun
 * when it may be kept (never with --verbose, which explains itself; its inputs are signed before
 * they are read, so one that changes meanwhile makes the answer a miss), then the hub and the
 * providers side by side.
 */
export async function openCredentialRun(
  ports: PipelinePorts & {notices: Pick<Notices, 'note'>},
  input: PipelineInput,
  /** undefined: no answer is kept for this run. */
  question: AnswerQuestion | undefined,
): Promise<{
  store?: CredentialStore
  draft?: AnswerDraft
  hub: RecentProfilePorts
  providers: ProvidersRead
}> {
  const store = input.noCache
    ? undefined
    : await ports.store((message) => input.verbose && ports.notices.note(`cache: ${message}`))
  const draft =
    store && question && !input.verbose
      ? (await ports.answers(store)).begin(question, {
          kubeconfig: input.kubeconfig,
          providers: input.providers,
        })
      : undefined
  const opened = await openPipeline(ports.providers, () => ports.recentProfiles(), input.providers)
  return {store, draft, ...opened}
}

/** Step 2 (for the commands that run all the time) is src/usecases/recent-profile.ts. */
export {readRecentProfile, staleProfileWarning, type RecentProfile} from './recent-profile.js'

/** How recent step 2's profile must be, from the run's flags: --no-cache neither reads nor keeps a copy. */
export function profileFreshness(input: PipelineInput): ProfileFreshness {
  return {
    maxAgeMs: input.noCache ? 0 : input.profileMaxAgeMs,
    maxStaleMs: input.profileMaxStaleMs,
    remember: !input.noCache,
  }
}

/** Step 3: the profile's access provider, resolved against the consumer's providers. */
export function resolveProfile(profile: ClusterProfile, providers: ProvidersRead | Provider[]): Resolution {
  return resolveAccess(profile, Array.isArray(providers) ? providers : providers.required())
}

/** Step 4: the credential for a resolution, as this hub's user, from the cache or the plugin. */
export function obtainFor(
  ports: ObtainPorts,
  hub: Pick<HubIdentity, 'identity' | 'pin'>,
  resolution: Resolution,
  options: Omit<ObtainCredentialInput, 'resolution' | 'hubIdentity' | 'hubPin'>,
): Promise<ObtainedCredential> {
  return obtainCredential(
    {runner: ports.plugins, cache: ports.cache, federation: ports.federation},
    {...options, resolution, hubIdentity: hub.identity, hubPin: hub.pin},
  )
}

/** The cache key step 4 would use (cache clear removes that entry). */
export function credentialKey(hub: Pick<HubIdentity, 'identity' | 'pin'>, resolution: Resolution): string {
  return pluginRun(resolution, hub.identity, hub.pin).key
}

/**
 * Step 5: the answer kept for the next identical question, when it may be given again: the
 * credential is in the cache, the profile is a snapshot within --profile-max-age, and nothing was
 * said on the way (warnings are not replayed).
 */
export async function keepAnswer(
  draft: AnswerDraft | undefined,
  payload: string,
  from: {
    obtained: Pick<ObtainedCredential, 'cacheKey' | 'cachedUntil'>
    snapshot?: ProfileSnapshot
    profileMaxAgeMs: number
    warned: boolean
  },
): Promise<void> {
  const {cachedUntil, cacheKey} = from.obtained
  if (!draft || !from.snapshot || !cachedUntil || from.warned) return
  await draft.keep(payload, {
    cacheKey,
    cachedUntil,
    snapshot: from.snapshot,
    profileMaxAgeMs: from.profileMaxAgeMs,
  })
}

export function seconds(milliseconds: number | undefined): number | undefined {
  return milliseconds === undefined ? undefined : milliseconds / 1000
}
