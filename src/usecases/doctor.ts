// `cpcred doctor`: walks the chain from the hub kubeconfig to a target cluster, link by link, in the
// order and with the prerequisites of src/core/doctor/checks.ts, and records what each link showed. It
// changes nothing on the way: the plugin runs without the cache, and nothing is written.
import {stat} from 'node:fs/promises'
import {
  PROFILE_VERSIONS,
  GROUP,
  PLURAL,
  profileKey,
  type ClusterProfile,
} from '../core/profiles/cluster-profile.js'
import {
  HUB_PLAN,
  PROFILE_PLAN,
  SELECTION_PLAN,
  fail,
  ok,
  runPlan,
  warn,
  type CheckId,
  type CheckOutcome,
  type CheckResult,
  type CheckRunner,
  type HubCheckId,
  type ProfileCheckId,
} from '../core/doctor/checks.js'
import {
  credentialKind,
  explainRejection,
  hubOutageHint,
  hubRejectedHint,
  identityText,
  judgeApi,
  judgeCache,
  judgeClock,
  judgeHubKubeconfig,
  judgePluginCommand,
  judgePluginRun,
  judgeProfile,
  judgeProviderFile,
  judgeProviderUsage,
  judgeRbac,
  judgeResolution,
  judgeServerTls,
  rejectedCacheEntry,
  type AccessAnswer,
  type ApiGroupDocument,
  type ApiResourcesDocument,
  type CacheFiles,
  type ExecutableLookup,
  type HubOutageFallback,
  type ServerProbe,
  type UserInfo,
} from '../core/doctor/findings.js'
import type {DoctorMode, DoctorReport, ProfileReport} from '../core/doctor/report.js'
import {ExitCode, UsageError, isCpcredError} from '../core/errors.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {findNamed, type ContextEntry} from '../core/kubeconfig/merge.js'
import {describeFold, foldMembers} from '../core/fleet/member-fold.js'
import {chooseProvider, resolveAccess, type Resolution} from '../core/access/resolve-access.js'
import type {CredentialStore} from '../adapters/credential-store.js'
import {errorCode, readIfExists} from '../adapters/files.js'
import {Hub, hubIdentity, loadHubConfig, type HubConfig, type HubSelection} from '../adapters/hub.js'
import {isOutageCode} from '../adapters/kube-errors.js'
import type {ProfileSnapshots} from '../adapters/profile-snapshots.js'
import {KubeApiError, type Endpoint} from '../adapters/kube-client.js'
import type {PluginProcessRunner} from '../adapters/process.js'
import {loadProviders, type LoadedProviders, type ProviderSelection} from '../adapters/providers.js'
import {findProfile, parseProfileRef, selectProfiles, type ProfileRef} from './find-profiles.js'
import type {Shard} from '../core/fleet/shard.js'
import {listProfiles} from './list-profiles.js'
import {obtainCredential, pluginRun} from './obtain-credential.js'
import {selfReviewer, targetEndpoint} from '../adapters/self-review.js'
import type {SelfSubjectReview} from './ports.js'

export interface DoctorInput {
  hub: HubSelection
  providers: ProviderSelection
  /** NAME or NAMESPACE/NAME: check the whole chain to this profile. */
  profile?: string
  /** With a profile: find a bare name in any namespace; without: check every profile everywhere. */
  allNamespaces: boolean
  selector?: string
  /** Every profile in the namespace. */
  all: boolean
  /** Check profiles that share an inventory-member-id separately. */
  noDedupe?: boolean
  /** Only this CI job's part of the selection (--shard). */
  shard?: Shard
  pluginTimeoutMs: number
  /** --profile-max-stale of credential and exec, to say what they do while the hub is down. */
  profileMaxStaleMs: number
  /** --no-cache: the credential cache is not read. */
  noCache?: boolean
}

export interface DoctorDeps {
  runner: PluginProcessRunner
  probe(endpoint: Endpoint): Promise<ServerProbe>
  findExecutable(command: string, pathVariable: string | undefined): Promise<ExecutableLookup>
  /** Where cached credentials live; only read. */
  cache: CredentialStore
  /** The profiles credential and exec read last; only read. */
  snapshots?: ProfileSnapshots
  now(): Date
  env: NodeJS.ProcessEnv
  stdinIsTTY: boolean
  /** This process's uid (cache files must be ours). */
  uid?: number
  /** A check starts (for a progress line). */
  onCheck?(id: CheckId, profile?: string): void
}

/** How many profiles of a fleet are checked at once. */
const FLEET_PARALLEL = 4

export async function runDoctor(deps: DoctorDeps, input: DoctorInput): Promise<DoctorReport> {
  const mode = doctorMode(input)
  const ref = input.profile === undefined ? undefined : parseProfileRef(input.profile)
  const hub: HubState = {}
  try {
    const checks = await runPlan(
      mode === 'fleet' ? [...HUB_PLAN, ...SELECTION_PLAN] : HUB_PLAN,
      hubChecks(deps, input, {mode, ref}, hub),
      {onStart: (id) => deps.onCheck?.(id)},
    )
    if (mode === 'hub') return {mode, checks, profiles: []}
    if (mode === 'profile') {
      return {mode, checks, profiles: [await checkProfile(deps, input, hub, checks, {ref: ref!})]}
    }
    const profiles = await inParallel(hub.selected ?? [], FLEET_PARALLEL, (profile) =>
      checkProfile(deps, input, hub, checks, {profile}),
    )
    return {mode, checks, profiles}
  } finally {
    await hub.hub?.client.close()
  }
}

function doctorMode(input: DoctorInput): DoctorMode {
  if (input.profile !== undefined) {
    if (input.selector !== undefined || input.all) {
      throw new UsageError(
        'give a PROFILE or select profiles with -l/--all, not both',
        'cpcred doctor NAMESPACE/NAME walks the chain to one profile; -l, --all and -A check many',
      )
    }
    return 'profile'
  }
  return input.allNamespaces || input.selector !== undefined || input.all ? 'fleet' : 'hub'
}

/** The last copy of the checked profile, which credential and exec use while the hub is down. */
async function outageFallback(
  deps: DoctorDeps,
  input: DoctorInput,
  config: HubConfig,
  ref: ProfileRef | undefined,
): Promise<HubOutageFallback> {
  const maxStaleMs = input.profileMaxStaleMs
  if (!ref || !deps.snapshots) return {maxStaleMs}
  const namespace = ref.namespace ?? config.namespace
  const last = await deps.snapshots.last(hubIdentity(config), namespace, ref.name)
  return {
    maxStaleMs,
    profile: `${namespace}/${ref.name}`,
    ageMs: last && deps.now().getTime() - last.fetchedAt,
  }
}

/** What the hub checks learn on the way, for the checks after them. */
interface HubState {
  config?: HubConfig
  hub?: Hub
  providers?: LoadedProviders
  /** The fleet's profiles (-A, -l, --all). */
  selected?: ClusterProfile[]
  probe?: ServerProbe
  /** Who the hub says the user is. */
  username?: string
}

function hubChecks(
  deps: DoctorDeps,
  input: DoctorInput,
  {mode, ref}: {mode: DoctorMode; ref?: ProfileRef},
  state: HubState,
): CheckRunner<HubCheckId> {
  // Each check runs only after those it needs passed (src/core/doctor/checks.ts), so what they set is there.
  const config = () => state.config!
  const hub = () => state.hub!
  const userKind = () =>
    credentialKind(
      findNamed(config().merged.users, config().user)?.user as Record<string, unknown> | undefined,
    )
  /** The namespace of the profiles in question; undefined: all namespaces. */
  const scope = () =>
    (mode === 'profile' && ref?.namespace) || (input.allNamespaces ? undefined : config().namespace)
  const where = (namespace: string | undefined) =>
    namespace ? `in namespace "${namespace}"` : 'in all namespaces'

  const accessReview = async (verb: string, namespace: string | undefined): Promise<AccessAnswer> => {
    try {
      const review = await hub().client.request<{status?: {allowed?: boolean; reason?: string}}>(
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: {resourceAttributes: {group: GROUP, resource: PLURAL, verb, namespace}},
          },
        },
      )
      return {verb, allowed: review.status?.allowed === true, reason: review.status?.reason || undefined}
    } catch (error) {
      throw hub().translate(error, 'create a SelfSubjectAccessReview')
    }
  }
  /** A discovery document, or undefined when the hub does not serve that path. */
  const discover = async <T>(path: string): Promise<T | undefined> => {
    try {
      return await hub().client.request<T>('GET', path)
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return undefined
      throw hub().translate(error, `read ${path}`)
    }
  }

  const checks: Record<HubCheckId, () => Promise<CheckOutcome>> = {
    'hub-kubeconfig': async () => {
      state.config = await loadHubConfig(input.hub, deps.env)
      state.hub = await Hub.fromConfig(state.config, {
        runner: deps.runner,
        stdinIsTTY: deps.stdinIsTTY,
        apiVersion: input.hub.apiVersion,
      })
      return judgeHubKubeconfig({...state.config, userKind: userKind()})
    },
    'hub-tls': async () => {
      const endpoint = hub().client.endpoint
      const context = findNamed(config().merged.contexts, config().context)?.context as
        ContextEntry | undefined
      state.probe = await deps.probe(endpoint)
      const outcome = judgeServerTls(
        state.probe,
        {
          side: {kind: 'hub', cluster: context?.cluster ?? ''},
          server: endpoint.server,
          caPem: endpoint.caPem,
          insecure: endpoint.insecureSkipTLSVerify === true,
          tlsServerName: endpoint.tlsServerName,
        },
        deps.now(),
      )
      // A hub that is down, not another server: say how credential and exec carry on meanwhile.
      if (outcome.status === 'fail' && isOutageCode(state.probe.connectError?.code)) {
        outcome.hint = `${outcome.hint}; ${hubOutageHint(await outageFallback(deps, input, config(), ref))}`
      }
      return outcome
    },
    'hub-identity': async () => {
      try {
        const review = await hub().client.request<SelfSubjectReview>(
          'POST',
          '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          {body: {apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview'}},
        )
        const user: UserInfo = review.status?.userInfo ?? {}
        state.username = user.username
        return ok(identityText(user))
      } catch (error) {
        if (error instanceof KubeApiError && error.status === 404) {
          return warn(
            'cannot tell who you are: the hub does not serve SelfSubjectReview (Kubernetes older than 1.28)',
          )
        }
        const translated = hub().translate(error, 'create a SelfSubjectReview')
        if (httpStatusOf(translated) !== 401) throw translated
        return fail(ExitCode.Denied, translated.message, hubRejectedHint(userKind()))
      }
    },
    'hub-rbac': async () => {
      const namespace = scope()
      const answers = await Promise.all(['get', 'list', 'watch'].map((verb) => accessReview(verb, namespace)))
      // A profile by name needs get; listing (-l, --all, -A, a bare name looked up everywhere) needs list.
      const byName = mode === 'profile' && namespace !== undefined
      return judgeRbac(answers, byName ? ['get'] : ['get', 'list'], {
        user: state.username ?? `user "${config().user}"`,
        namespace,
      })
    },
    'hub-api': async () => {
      const group = await discover<ApiGroupDocument>(`/apis/${GROUP}`)
      const served = (group?.versions ?? []).flatMap((entry) => (entry.version ? [entry.version] : []))
      const forced = input.hub.apiVersion
      // As the hub adapter chooses: the first version whose resources name clusterprofiles (other
      // APIs share the group), else the first served, to say what is missing there.
      let chosen: {version: string; resources?: ApiResourcesDocument} | undefined
      for (const version of (forced === undefined ? PROFILE_VERSIONS : [forced]).filter((v) =>
        served.includes(v),
      )) {
        const resources = await discover<ApiResourcesDocument>(`/apis/${GROUP}/${version}`)
        if (resources?.resources?.some((resource) => resource.name === PLURAL)) {
          chosen = {version, resources}
          break
        }
        chosen ??= {version, resources}
      }
      return judgeApi(group, chosen?.resources, chosen?.version, forced)
    },
    'hub-clock': async () => judgeClock(state.probe?.http, 'the hub', whyNoAnswer(state.probe)),
    'provider-file': async () => {
      const loaded = await loadProviders(input.providers, deps.env)
      state.providers = loaded
      return judgeProviderFile(loaded.source, loaded.providers, loaded.warnings)
    },
    'provider-usage': async () => {
      const namespace = scope()
      let profiles: ClusterProfile[]
      try {
        profiles = (await listProfiles(hub(), {namespace})).profiles
      } catch (error) {
        if (!isCpcredError(error)) throw error
        return warn(`could not list the profiles ${where(namespace)}: ${error.message}`, error.hint)
      }
      return judgeProviderUsage(state.providers!.providers, profiles, where(namespace))
    },
    profiles: async () => {
      const {allNamespaces, selector} = input
      state.selected = await selectProfiles(hub(), {
        refs: [],
        selector,
        // -A alone means every profile everywhere.
        all: input.all || selector === undefined,
        namespace: config().namespace,
        allNamespaces,
        shard: input.shard,
      })
      // Profiles that stand for one member cluster are checked once, as a fan-out reaches them.
      const {targets, folds} = input.noDedupe
        ? {targets: state.selected, folds: []}
        : foldMembers(
            state.selected,
            (profile) => chooseProvider(profile, state.providers?.providers ?? []) !== undefined,
          )
      state.selected = targets
      const count = state.selected.length
      const how = `${selector === undefined ? '' : `matching -l ${selector} `}${where(allNamespaces ? undefined : config().namespace)}${input.shard ? ` in shard ${input.shard.index}/${input.shard.count}` : ''}`
      return count === 0
        ? warn(`no profile ${how}`, 'check the -l selector and the namespace (-n, -A)')
        : ok(
            `${count} profile${count === 1 ? '' : 's'} ${how}${folds.map((fold) => `; ${describeFold(fold)}`).join('')}`,
          )
    },
  }
  return (id) => checks[id]()
}

function whyNoAnswer(probe: ServerProbe | undefined): string | undefined {
  return probe?.proxy ? 'it is reached through a proxy' : probe?.httpError
}

/** One profile: named on the command line (ref), or one of a fleet already read (profile). */
async function checkProfile(
  deps: DoctorDeps,
  input: DoctorInput,
  hubState: HubState,
  hubResults: CheckResult[],
  start: {ref: ProfileRef} | {profile: ClusterProfile},
): Promise<ProfileReport> {
  const ref = 'ref' in start ? start.ref : undefined
  let profile = 'profile' in start ? start.profile : undefined
  let resolution: Resolution | undefined
  let credential: Credential | undefined
  let probe: ServerProbe | undefined
  let targetReachable = false
  /** namespace/name, as well as it is known before the profile is found. */
  const key = () => {
    if (profile || !ref) return profileKey(profile!)
    const namespace = ref.namespace ?? (input.allNamespaces ? undefined : hubState.config?.namespace)
    return namespace ? `${namespace}/${ref.name}` : ref.name
  }
  const hub = () => hubState.hub!

  const checks: Record<ProfileCheckId, () => Promise<CheckOutcome>> = {
    profile: async () => {
      profile ??= await findProfile(hub(), ref!, {
        namespace: hubState.config!.namespace,
        allNamespaces: input.allNamespaces,
      })
      return judgeProfile(profile)
    },
    resolution: async () => {
      resolution = resolveAccess(profile!, hubState.providers!.providers)
      return judgeResolution(resolution, profile!)
    },
    'plugin-command': async () => {
      const exec = resolution!.execConfig
      // The plugin starts with cpcred's environment plus its own: a PATH there is the one searched.
      const pathVariable = exec.env?.findLast((variable) => variable.name === 'PATH')?.value ?? deps.env.PATH
      return judgePluginCommand(await deps.findExecutable(exec.command, pathVariable), exec.command, {
        name: resolution!.provider.name,
        installHint: exec.installHint,
        source: hubState.providers!.source,
      })
    },
    'plugin-run': async () => {
      const started = deps.now()
      const obtained = await obtainCredential(
        {runner: deps.runner},
        {
          resolution: resolution!,
          hubIdentity: hub().identity(),
          hubPin: hub().pin(),
          stdinIsTTY: deps.stdinIsTTY,
          timeoutMs: input.pluginTimeoutMs,
        },
      )
      credential = obtained.credential
      const now = deps.now()
      return judgePluginRun({
        credential,
        elapsedMs: now.getTime() - started.getTime(),
        timeoutMs: input.pluginTimeoutMs,
        now,
      })
    },
    'target-tls': async () => {
      const endpoint = targetEndpoint(resolution!.cluster)
      probe = await deps.probe(endpoint)
      const outcome = judgeServerTls(
        probe,
        {
          side: {
            kind: 'target',
            profile: key(),
            provider: resolution!.provider.name,
            manager: profile!.spec?.clusterManager?.name,
          },
          server: endpoint.server,
          caPem: endpoint.caPem,
          insecure: endpoint.insecureSkipTLSVerify === true,
          tlsServerName: endpoint.tlsServerName,
        },
        deps.now(),
      )
      targetReachable = outcome.status !== 'fail'
      return outcome
    },
    'target-auth': async () => {
      try {
        const review = await selfReviewer.review(resolution!, credential!)
        return ok(`accepted: ${identityText(review.status?.userInfo ?? {})}`)
      } catch (error) {
        return targetRefusal(error, credential!, resolution!.cluster.server, deps.now())
      }
    },
    'target-clock': async () => judgeClock(probe?.http, 'the target', whyNoAnswer(probe)),
    cache: async () => {
      if (input.noCache) return ok('not read (--no-cache)')
      const {key: cacheKey} = pluginRun(resolution!, hub().identity(), hub().pin())
      let files: CacheFiles
      try {
        files = await cacheFiles(deps.cache, cacheKey, deps.uid)
      } catch (error) {
        return warn(
          `cannot read the credential cache: ${errorCode(error) ?? (error as Error).message}`,
          `check ${deps.cache.dir}`,
        )
      }
      const {outcome, usable} = judgeCache(files, cacheKey, key(), deps.now())
      if (!usable || !targetReachable) return outcome
      // A cached credential that the target has stopped accepting is served until it expires.
      try {
        await selfReviewer.review(resolution!, usable.credential)
        return {...outcome, detail: `${outcome.detail}; the target accepts it`}
      } catch (error) {
        return httpStatusOf(error) === 401 ? rejectedCacheEntry(usable, key()) : outcome
      }
    },
  }

  const results = await runPlan(PROFILE_PLAN, (id) => checks[id](), {
    earlier: hubResults,
    profile: key(),
    onStart: (id) => deps.onCheck?.(id, key()),
  })
  return {profile: key(), checks: results}
}

/** Why the target refused the credential, as far as the credential tells; other failures as they are. */
function targetRefusal(error: unknown, credential: Credential, server: string, now: Date): CheckOutcome {
  const status = httpStatusOf(error)
  if (status === 401) {
    const {detail, hint} = explainRejection(credential, server, now)
    return fail(ExitCode.Denied, detail, hint)
  }
  if (status === 404) {
    return warn(
      'cannot tell whether the target accepts the credential: it does not serve SelfSubjectReview (Kubernetes older than 1.28)',
    )
  }
  throw error
}

/** The HTTP status behind a translated API error (kube-errors keeps the original as the cause). */
function httpStatusOf(error: unknown): number | undefined {
  const cause = isCpcredError(error) ? error.cause : error
  return cause instanceof KubeApiError ? cause.status : undefined
}

async function cacheFiles(store: CredentialStore, key: string, uid: number | undefined): Promise<CacheFiles> {
  const file = store.entryPath(key)
  const files: CacheFiles = {dir: store.dir, file, uid}
  const dirInfo = await statIfExists(store.dir)
  if (!dirInfo) return files
  files.dirInfo = {mode: dirInfo.mode, uid: dirInfo.uid}
  const fileInfo = await statIfExists(file)
  if (!fileInfo) return files
  files.fileInfo = {mode: fileInfo.mode, uid: fileInfo.uid}
  files.text = await readIfExists(file)
  return files
}

async function statIfExists(file: string) {
  try {
    return await stat(file)
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined
    throw error
  }
}

/** `work` for every item, `parallel` at a time, results in the items' order. */
async function inParallel<T, R>(items: T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({length: Math.min(parallel, items.length)}, worker))
  return results
}
