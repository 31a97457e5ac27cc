// `cpcred doctor` for one profile: the links from the profile on the hub to its cluster (resolution,
// plugin command, a fresh plugin run, the target's TLS, its answer to the credential and what that
// credential may do there, the clock, the credential cache), run after the hub's with
// src/core/doctor/checks.ts's prerequisites.
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {
  PROFILE_PLAN,
  fail,
  ok,
  runPlan,
  warn,
  type CheckId,
  type CheckOutcome,
  type CheckResult,
  type ProfileCheckId,
} from '../core/doctor/checks.js'
import {judgeCache, rejectedCacheEntry} from '../core/doctor/cache.js'
import {judgeClock, whyNoAnswer} from '../core/doctor/clock.js'
import {identityText} from '../core/doctor/hub.js'
import {judgePluginCommand, judgePluginRun} from '../core/doctor/plugin.js'
import {judgeKubectlPolicy} from '../core/doctor/kuberc.js'
import {entryMode} from '../core/kubeconfig/render.js'
import {judgeProfile, judgeResolution} from '../core/doctor/providers.js'
import {judgeServerTls, type ServerProbe} from '../core/doctor/server-tls.js'
import {explainRejection} from '../core/doctor/target.js'
import {
  DEFAULT_TARGET_NAMESPACE,
  judgeAccess,
  judgeRules,
  type AccessQuestion,
} from '../core/doctor/target-access.js'
import {ExitCode} from '../core/errors.js'
import {httpStatusOf} from '../core/failures.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {resolveAccess, type Resolution} from '../core/access/resolve-access.js'
import type {ProfileReport} from '../core/doctor/report.js'
import {findProfile, type ProfileRef} from './find-profiles.js'
import {obtainCredential, pluginRun} from './obtain-credential.js'
import type {
  DoctorProbes,
  FederationHub,
  KubectlPreferences,
  FederationPorts,
  HubConfig,
  HubPort,
  ProvidersRead,
  TargetPort,
} from './ports.js'
import {describeFederation, Federation} from './federated-token.js'

export interface ProfileCheckPorts {
  target: TargetPort
  probes: DoctorProbes
  /** Runs the plugin of a profile (without the cache). */
  runner: Parameters<typeof obtainCredential>[0]['runner']
  now(): Date
  /** PATH, for the plugin command's lookup. */
  env: NodeJS.ProcessEnv
  stdinIsTTY: boolean
  /** A check starts (for a progress line). */
  onCheck?(id: CheckId, profile?: string): void
  /** Private token files, for providers with a serviceAccountToken block. */
  tokenFiles?: FederationPorts['files']
  /** kubectl's kuberc, for its credential-plugin policy. */
  kubectl: KubectlPreferences
  /** How a kubeconfig written with --mode cpcred starts cpcred (absolute). */
  cpcredCommand: string[]
}

export interface ProfileCheckInput {
  /** A bare name may be in any namespace. */
  allNamespaces: boolean
  pluginTimeoutMs: number
  /** --no-cache: the credential cache is not read. */
  noCache?: boolean
  /** The kuberc as kubectl's --kuberc names it. */
  kuberc?: string
  /** --can: one action to ask the target about; its namespace is the one whose rules are listed. */
  can?: AccessQuestion
}

/** What the hub checks found, for the profile checks after them. */
export interface CheckedHub {
  config?: HubConfig
  hub?: HubPort
  providers?: ProvidersRead
}

/** One profile: named on the command line (ref), or one of a fleet already read (profile). */
export async function checkProfile(
  ports: ProfileCheckPorts,
  input: ProfileCheckInput,
  hubState: CheckedHub,
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
      const pathVariable = exec.env?.findLast((variable) => variable.name === 'PATH')?.value ?? ports.env.PATH
      return judgePluginCommand(await ports.probes.findExecutable(exec.command, pathVariable), exec.command, {
        name: resolution!.provider.name,
        installHint: exec.installHint,
        source: hubState.providers!.source,
      })
    },
    kuberc: async () => {
      const cpcred = {role: "cpcred's command (--mode cpcred)", command: ports.cpcredCommand[0]!}
      // A federated provider's entries run cpcred in plugin mode too (render.ts, entryMode).
      const commands =
        entryMode(resolution!, {mode: 'plugin'}) === 'plugin'
          ? [{role: 'the plugin (--mode plugin)', command: resolution!.execConfig.command}, cpcred]
          : [cpcred]
      return judgeKubectlPolicy(ports.kubectl.policy(input.kuberc), commands, ports.kubectl.lookPath)
    },
    'plugin-run': async () => {
      const started = ports.now()
      // A federated provider's token comes from the hub doctor already has open (not closed here).
      const federation =
        resolution!.provider.serviceAccountToken && ports.tokenFiles
          ? new Federation({openHub: async () => borrowed(hub()), files: ports.tokenFiles})
          : undefined
      let obtained
      try {
        obtained = await obtainCredential(
          {runner: ports.runner, federation},
          {
            resolution: resolution!,
            hubIdentity: hub().identity(),
            hubPin: hub().pin(),
            stdinIsTTY: ports.stdinIsTTY,
            timeoutMs: input.pluginTimeoutMs,
          },
        )
      } finally {
        await federation?.close()
      }
      credential = obtained.credential
      const now = ports.now()
      const outcome = judgePluginRun({
        credential,
        elapsedMs: now.getTime() - started.getTime(),
        timeoutMs: input.pluginTimeoutMs,
        now,
      })
      if (!obtained.federation) return outcome
      return {...outcome, detail: `${outcome.detail}; federated: ${describeFederation(obtained.federation)}`}
    },
    'target-tls': async () => {
      const endpoint = await ports.target.endpoint(resolution!.cluster)
      probe = await ports.probes.probe(endpoint)
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
        ports.now(),
      )
      targetReachable = outcome.status !== 'fail'
      return outcome
    },
    'target-auth': async () => {
      try {
        const review = await ports.target.reviewSelf(resolution!, credential!)
        return ok(`accepted: ${identityText(review.status?.userInfo ?? {})}`)
      } catch (error) {
        return targetRefusal(error, credential!, resolution!.cluster.server, ports.now())
      }
    },
    'target-access': async () => {
      const namespace = input.can?.namespace ?? DEFAULT_TARGET_NAMESPACE
      return judgeRules(await ports.target.reviewRules(resolution!, credential!, namespace), namespace)
    },
    'target-can': async () =>
      judgeAccess(input.can!, await ports.target.reviewAccess(resolution!, credential!, input.can!)),
    'target-clock': async () => judgeClock(probe?.http, 'the target', whyNoAnswer(probe)),
    cache: async () => {
      if (input.noCache) return ok('not read (--no-cache)')
      const {key: cacheKey} = pluginRun(resolution!, hub().identity(), hub().pin())
      const files = await ports.probes.cacheFiles(cacheKey)
      if ('unreadable' in files) {
        return warn(`cannot read the credential cache: ${files.unreadable}`, `check ${ports.probes.cacheDir}`)
      }
      const {outcome, usable} = judgeCache(files, cacheKey, key(), ports.now())
      if (!usable || !targetReachable) return outcome
      // A cached credential that the target has stopped accepting is served until it expires.
      try {
        await ports.target.reviewSelf(resolution!, usable.credential)
        return {...outcome, detail: `${outcome.detail}; the target accepts it`}
      } catch (error) {
        return httpStatusOf(error) === 401 ? rejectedCacheEntry(usable, key()) : outcome
      }
    },
  }

  // Not asked, not done: the report says so rather than passing over it.
  const notDone = input.can ? [] : [{id: 'target-can' as const, why: ASK_WITH_CAN}]
  const plan = PROFILE_PLAN.filter(({id}) => !notDone.some((left) => left.id === id))
  const results = await runPlan(plan, (id) => checks[id](), {
    earlier: hubResults,
    profile: key(),
    onStart: (id) => ports.onCheck?.(id, key()),
  })
  return {profile: key(), checks: results, notDone}
}

const ASK_WITH_CAN = "ask about one action with --can 'VERB RESOURCE [-n NAMESPACE]'"

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

/** The hub doctor has open, for a federated plugin run that must not close it. */
function borrowed(hub: HubPort): FederationHub {
  return {
    config: hub.config,
    describe: () => hub.describe(),
    requestToken: (...args) => hub.requestToken(...args),
    close: async () => undefined,
  }
}
