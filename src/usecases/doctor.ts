// `cpcred doctor`: walks the chain from the hub kubeconfig to a target cluster, link by link, in the
// order and with the prerequisites of src/core/doctor/checks.ts, and records what each link showed. It
// changes nothing on the way: the plugin runs without the cache, and nothing is written. Everything
// outside the process comes through its ports (the hub, the targets, the probes, the provider file).
import type {AccessQuestion} from '../core/doctor/target-access.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {
  HUB_PLAN,
  SELECTION_PLAN,
  fail,
  ok,
  runPlan,
  warn,
  type CheckOutcome,
  type CheckRunner,
  type HubCheckId,
} from '../core/doctor/checks.js'
import {judgeApi} from '../core/doctor/api.js'
import {judgeClock, whyNoAnswer} from '../core/doctor/clock.js'
import {
  credentialKind,
  hubOutageHint,
  identityText,
  judgeHubKubeconfig,
  judgeInClusterConfig,
  judgeRbac,
  type HubOutageFallback,
} from '../core/doctor/hub.js'
import {judgeProviderFile, judgeProviderUsage} from '../core/doctor/providers.js'
import {judgeServerTls, type ServerProbe} from '../core/doctor/server-tls.js'
import type {DoctorMode, DoctorReport} from '../core/doctor/report.js'
import {ExitCode, UsageError, isCpcredError} from '../core/errors.js'
import {httpStatusOf, hubRejectedHint, isOutageCode, POD_TOKEN_REJECTED_HINT} from '../core/failures.js'
import {findNamed, type ContextEntry} from '../core/kubeconfig/merge.js'
import {describeFold, duplicateWarnings, foldSelection} from '../core/fleet/member-fold.js'
import {inPool} from '../core/fleet/worker-pool.js'
import type {Shard} from '../core/fleet/shard.js'
import type {
  HubConfig,
  HubConnector,
  HubPort,
  HubSelection,
  ProvidersRead,
  ProviderSelection,
} from './ports.js'
import {parseProfileRef, selectFleet, type ProfileRef} from './find-profiles.js'
import {checkPlacementSelection} from './select-placement.js'
import {listProfiles} from './list-profiles.js'
import {checkProfile, type ProfileCheckPorts} from './doctor-profile.js'

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
  /** --placement NAME / --placement-key KEY: the profiles PlacementDecisions reference. */
  placement?: string
  placementKey?: string
  /** --healthy: check only profiles whose ControlPlaneHealthy is True. */
  healthy?: boolean
  pluginTimeoutMs: number
  /** --profile-max-stale of credential and exec, to say what they do while the hub is down. */
  profileMaxStaleMs: number
  /** --no-cache: the credential cache is not read. */
  noCache?: boolean
  /** --kuberc: the kuberc kubectl reads, as its own --kuberc names it. */
  kuberc?: string
  /** --can: one action to ask each target about. */
  can?: AccessQuestion
}

export interface DoctorPorts extends ProfileCheckPorts {
  hub: HubConnector
  /** The layers that choose the hub and what each says (core/kubeconfig/hub-choice.ts sourceChain). */
  hubChain?(selection: HubSelection): Promise<string[]>
  loadProviders(selection: ProviderSelection): Promise<ProvidersRead>
}

/** How many profiles of a fleet are checked at once. */
const FLEET_PARALLEL = 4

/** What each link showed, in order; its exit code is core/doctor/report.ts doctorExitCode's. */
export type DoctorOutcome = DoctorReport

export async function doctorCommand(ports: DoctorPorts, input: DoctorInput): Promise<DoctorOutcome> {
  const mode = doctorMode(input)
  const ref = input.profile === undefined ? undefined : parseProfileRef(input.profile)
  const hub: HubState = {}
  try {
    const checks = await runPlan(
      mode === 'fleet' ? [...HUB_PLAN, ...SELECTION_PLAN] : HUB_PLAN,
      hubChecks(ports, input, {mode, ref}, hub),
      {onStart: (id) => ports.onCheck?.(id)},
    )
    if (mode === 'hub') return {mode, checks, profiles: []}
    if (mode === 'profile') {
      return {mode, checks, profiles: [await checkProfile(ports, input, hub, checks, {ref: ref!})]}
    }
    const profiles = await inPool(hub.selected ?? [], FLEET_PARALLEL, (profile) =>
      checkProfile(ports, input, hub, checks, {profile}),
    )
    return {mode, checks, profiles}
  } finally {
    await hub.hub?.close()
  }
}

function doctorMode(input: DoctorInput): DoctorMode {
  const placed = input.placement !== undefined || input.placementKey !== undefined
  if (placed) checkPlacementSelection({...input, names: input.profile === undefined ? 0 : 1})
  if (input.profile !== undefined) {
    if (input.selector !== undefined || input.all) {
      throw new UsageError(
        'give a PROFILE or select profiles with -l/--all, not both',
        'cpcred doctor NAMESPACE/NAME walks the chain to one profile; -l, --all and -A check many',
      )
    }
    return 'profile'
  }
  const mode =
    input.allNamespaces || input.selector !== undefined || input.all || placed || input.healthy
      ? 'fleet'
      : 'hub'
  // The hub's checks ask no target: a --can there would go unanswered under "All checks pass".
  if (mode === 'hub' && input.can !== undefined) {
    throw new UsageError(
      '--can asks a target cluster, and no profile was given',
      'name a profile (cpcred doctor NAMESPACE/NAME --can …), or select profiles with -A, -l or --all',
    )
  }
  return mode
}

/** The last copy of the checked profile, which credential and exec use while the hub is down. */
async function outageFallback(
  ports: DoctorPorts,
  input: DoctorInput,
  hub: HubPort,
  ref: ProfileRef | undefined,
): Promise<HubOutageFallback> {
  const maxStaleMs = input.profileMaxStaleMs
  if (!ref) return {maxStaleMs}
  const namespace = ref.namespace ?? hub.config.namespace
  const fetchedAt = await ports.probes.lastSnapshot(hub.identity(), namespace, ref.name)
  return {
    maxStaleMs,
    profile: `${namespace}/${ref.name}`,
    ageMs: fetchedAt && ports.now().getTime() - fetchedAt,
  }
}

/** What the hub checks learn on the way, for the checks after them. */
interface HubState {
  config?: HubConfig
  hub?: HubPort
  providers?: ProvidersRead
  /** The fleet's profiles (-A, -l, --all). */
  selected?: ClusterProfile[]
  probe?: ServerProbe
  /** Who the hub says the user is. */
  username?: string
}

function hubChecks(
  ports: DoctorPorts,
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

  const checks: Record<HubCheckId, () => Promise<CheckOutcome>> = {
    'hub-kubeconfig': async () => {
      state.config = await ports.hub.loadConfig(input.hub)
      state.hub = await ports.hub.connect(state.config, {
        stdinIsTTY: ports.stdinIsTTY,
        apiVersion: input.hub.apiVersion,
      })
      const inCluster = state.config.inCluster
      if (inCluster) {
        return judgeInClusterConfig({...inCluster, ...state.config, now: ports.now()})
      }
      return judgeHubKubeconfig({
        ...state.config,
        userKind: userKind(),
        chain: await ports.hubChain?.(input.hub),
      })
    },
    'hub-tls': async () => {
      const endpoint = hub().endpoint
      const context = findNamed(config().merged.contexts, config().context)?.context as
        ContextEntry | undefined
      state.probe = await ports.probes.probe(endpoint)
      const outcome = judgeServerTls(
        state.probe,
        {
          side: {kind: 'hub', cluster: context?.cluster ?? ''},
          server: endpoint.server,
          caPem: endpoint.caPem,
          insecure: endpoint.insecureSkipTLSVerify === true,
          tlsServerName: endpoint.tlsServerName,
        },
        ports.now(),
      )
      // A hub that is down, not another server: say how credential and exec carry on meanwhile.
      if (outcome.status === 'fail' && isOutageCode(state.probe.connectError?.code)) {
        outcome.hint = `${outcome.hint}; ${hubOutageHint(await outageFallback(ports, input, hub(), ref))}`
      }
      return outcome
    },
    'hub-identity': async () => {
      try {
        const user = await hub().reviewSelf()
        state.username = user.username
        return ok(identityText(user))
      } catch (error) {
        const status = httpStatusOf(error)
        if (status === 404) {
          return warn(
            'cannot tell who you are: the hub does not serve SelfSubjectReview (Kubernetes older than 1.28)',
          )
        }
        if (status !== 401 || !isCpcredError(error)) throw error
        return fail(
          ExitCode.Denied,
          error.message,
          config().inCluster ? POD_TOKEN_REJECTED_HINT : hubRejectedHint(userKind()),
        )
      }
    },
    'hub-rbac': async () => {
      const namespace = scope()
      const answers = await Promise.all(
        ['get', 'list', 'watch'].map((verb) => hub().reviewProfileAccess(verb, namespace)),
      )
      // A profile by name needs get; listing (-l, --all, -A, a bare name looked up everywhere) needs list.
      const byName = mode === 'profile' && namespace !== undefined
      return judgeRbac(answers, byName ? ['get'] : ['get', 'list'], {
        user: state.username ?? `user "${config().user}"`,
        namespace,
        inCluster: config().inCluster !== undefined,
      })
    },
    'hub-api': async () => {
      // What the hub adapter discovered, once: the version every other command reads too.
      const {group, resources, version} = await hub().profileApi()
      return judgeApi(group, resources, version, input.hub.apiVersion)
    },
    'hub-clock': async () => judgeClock(state.probe?.http, 'the hub', whyNoAnswer(state.probe)),
    'provider-file': async () => {
      const loaded = await ports.loadProviders(input.providers)
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
      const placed = input.placement !== undefined || input.placementKey !== undefined
      const selection = await selectFleet(hub(), {
        refs: [],
        selector,
        // -A alone means every profile everywhere.
        all: !placed && (input.all || selector === undefined),
        namespace: config().namespace,
        allNamespaces,
        shard: input.shard,
        placement: input.placement,
        placementKey: input.placementKey,
        healthy: input.healthy,
      })
      // Profiles that stand for one member cluster are checked once, as a fan-out reaches them.
      const {targets, folds} = foldSelection(selection.profiles, input.noDedupe)
      state.selected = targets
      // What the selection could not reach or left out is said here, never dropped.
      const leftOut = [
        ...selection.unresolved.map(({error}) => error),
        ...selection.skipped.map(({profile, reason}) => `skipped ${profile}: ${reason}`),
      ]
      // KEP-4322: a consumer warns while duplicates remain in an inventory (a tie is said by its fold).
      const duplicates = [...duplicateWarnings(folds), ...(input.noDedupe ? [] : folds.map(describeFold))]
      const count = state.selected.length
      const how = `${selector === undefined ? '' : `matching -l ${selector} `}${input.placement === undefined ? '' : `decided by ${input.placement} `}${input.placementKey === undefined ? '' : `with placement-key ${input.placementKey} `}${where(allNamespaces ? undefined : config().namespace)}${input.shard ? ` in shard ${input.shard.index}/${input.shard.count}` : ''}`
      const found = `${count} profile${count === 1 ? '' : 's'} ${how}`
      if (selection.unresolved.length > 0) {
        return fail(
          ExitCode.Failure,
          `${found}; ${leftOut.join('; ')}`,
          'the PlacementDecisions reference profiles that do not exist or that you may not read; ask their scheduler or the hub administrator',
        )
      }
      if (duplicates.length > 0)
        return warn(
          [found, ...leftOut, ...duplicates].join('; '),
          'ask the cluster managers of that inventory to publish one profile per member cluster',
        )
      if (leftOut.length > 0 && count > 0) return ok(`${found}; ${leftOut.join('; ')}`)
      return count === 0
        ? warn(
            `no profile ${how}${leftOut.length ? `; ${leftOut.join('; ')}` : ''}`,
            'check the -l selector, the placement and the namespace (-n, -A)',
          )
        : ok(found)
    },
  }
  return (id) => checks[id]()
}
