import assert from 'node:assert/strict'
// Hand-written fakes of the ports in src/usecases/ports.ts for the use-case tests: each records
// what it was asked, so a test can fail when an expected call never happens.
import {CpcredError} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import type {Credential} from '../../src/core/exec-credential/protocol.js'
import type {
  AnswerBook,
  AnswerSource,
  CachedCredential,
  ChildRequest,
  ChildResult,
  ChildRunner,
  CredentialStore,
  FanOutPorts,
  FleetWatchSource,
  Notices,
  PluginProcessRunner,
  PluginRunRequest,
  PluginRunResult,
  ProfileFinder,
  ProfileHub,
  ProfileSnapshot,
  ProfileSnapshotStore,
  ProfileWatchEvent,
  ProviderSource,
  RunningChild,
  SessionHub,
  StdinCopies,
  TempKubeconfigs,
} from '../../src/usecases/ports.js'
import type {AnswerQuestion, TargetHub} from '../../src/usecases/ports.js'
import type {TargetRunInput, TargetRunPorts} from '../../src/usecases/exec-prepare.js'
import {RunCredentials} from '../../src/usecases/obtain-credential.js'
import {lifetimeRule} from '../../src/core/exec-credential/cache.js'
import type {PlacementDecision} from '../../src/core/fleet/placement.js'
import type {TargetResult} from '../../src/core/fleet/fan-out-report.js'

export const V1 = 'client.authentication.k8s.io/v1'
export const PIN = {kubeconfigPaths: ['/home/u/.kube/hub'], context: 'hub'}

export function profile(name = 'eu', namespace = 'fleet'): ClusterProfile {
  return {
    metadata: {name, namespace},
    spec: {clusterManager: {name: 'm'}},
    status: {accessProviders: [{name: 'idp', cluster: {server: `https://${name}.example`}}]},
  }
}

export function provider(): Provider {
  return {name: 'idp', execConfig: {apiVersion: V1, command: '/bin/idp'}}
}

export function providerSource(warnings: string[] = [], providers = [provider()]) {
  const loads: unknown[] = []
  const source: ProviderSource = {
    async load(selection) {
      loads.push(selection)
      return {
        source: '/home/me/.config/cpcred/providers.json',
        warnings,
        providers,
        required: () => providers,
      }
    },
  }
  return {source, loads}
}

export function execCredentialJson(token: string, expiresAt?: Date): string {
  return JSON.stringify({
    apiVersion: V1,
    kind: 'ExecCredential',
    status: {token, ...(expiresAt ? {expirationTimestamp: expiresAt.toISOString()} : {})},
  })
}

/** A plugin that prints the given ExecCredential (or fails as told). */
export function plugins(result: Partial<PluginRunResult> = {}) {
  const runs: PluginRunRequest[] = []
  const runner: PluginProcessRunner = {
    async run(request) {
      runs.push(request)
      return {
        exitCode: 0,
        stdout: execCredentialJson('fresh-token'),
        stderr: '',
        notFound: false,
        timedOut: false,
        outputTooLarge: false,
        ...result,
      }
    },
  }
  return {runner, runs}
}

/** The credential cache in memory: `held` is served as it is, anything else is fetched and kept. */
export function store(held: Record<string, Credential> = {}) {
  const keys: string[] = []
  const cleared: Array<string[] | undefined> = []
  const until = new Date(Date.now() + 3600_000)
  const fake: CredentialStore = {
    dir: '/cache/credentials',
    entryPath: (key) => `/cache/credentials/${key}.json`,
    async clear(which) {
      cleared.push(which)
      if (!which) return Object.keys(held).length
      return which.filter((key) => key in held).length
    },
    async obtain(key, fetch): Promise<CachedCredential> {
      keys.push(key)
      if (held[key]) return {credential: held[key]!, fromCache: true, cachedUntil: until}
      const credential = await fetch()
      held[key] = credential
      return {credential, fromCache: false, cachedUntil: until, obtainedAt: new Date()}
    },
  }
  return {store: fake, keys, cleared, until}
}

export const outage = () =>
  Object.assign(new Error('cannot reach hub https://hub: connection refused'), {outage: true})

/** Profiles by name only: `get` answers each read; pages list nothing. */
function profileFinder(
  get: (namespace: string, name: string) => Promise<ClusterProfile | undefined>,
): ProfileFinder {
  return {
    getProfile: get,
    listProfilePage: async () => ({items: []}),
    listNamespaceLabels: async () => new Map(),
  }
}

/** The hub: `read` answers each profile read (a profile, or an error to throw). */
export function profileHub(read: () => ClusterProfile | Error) {
  const reads: Array<{name: string; remember: boolean; idleTimeoutMs?: number}> = []
  const hub: ProfileHub = {
    identity: 'hub-identity',
    pin: PIN,
    namespace: 'fleet',
    async connect(options) {
      const finder = profileFinder(async (namespace, name) => {
        reads.push({name, ...options})
        const answer = read()
        if (answer instanceof Error) throw answer
        return answer
      })
      return {...finder, close: async () => undefined}
    },
    isOutage: (error) => (error as {outage?: boolean}).outage === true,
  }
  return {hub, reads}
}

export function snapshots(kept: ProfileSnapshot[] = []) {
  const remembered: ClusterProfile[] = []
  const fake: ProfileSnapshotStore = {
    async last(hub, namespace, name) {
      return kept.find(
        (snapshot) =>
          snapshot.hub === hub &&
          snapshot.profile.metadata.namespace === namespace &&
          snapshot.profile.metadata.name === name,
      )
    },
    async remember(hub, profile) {
      remembered.push(profile)
      return {profile, hub, file: `/cache/profiles/${profile.metadata.name}.json`, fetchedAt: NOW}
    },
  }
  return {snapshots: fake, remembered}
}

export const NOW = Date.parse('2030-01-01T00:00:00Z')

export function snapshot(ageMs: number, p = profile()): ProfileSnapshot {
  return {
    profile: p,
    hub: 'hub-identity',
    file: `/cache/profiles/${p.metadata.name}.json`,
    fetchedAt: NOW - ageMs,
  }
}

export function answers() {
  const begun: AnswerQuestion[] = []
  const kept: Array<{payload: string; from: AnswerSource}> = []
  const book: AnswerBook = {
    begin(question) {
      begun.push(question)
      return {
        async keep(payload, from) {
          kept.push({payload, from})
        },
      }
    },
  }
  return {book, begun, kept}
}

export function notices() {
  const said = {warnings: [] as string[], notes: [] as string[], pluginStderr: [] as string[]}
  const fake: Notices = {
    warn: (message) => said.warnings.push(message),
    note: (message) => said.notes.push(message),
    pluginStderr: (text) => said.pluginStderr.push(text),
  }
  return {notices: fake, said}
}

export function sessionHub(profiles: ClusterProfile[]) {
  const chosen: Array<string | undefined> = []
  let closed = 0
  const hub: SessionHub = {
    identity: 'hub-identity',
    pin: PIN,
    namespace: 'fleet',
    profiles: profileFinder(async (namespace, name) => {
      const text = `${namespace}/${name}`
      chosen.push(text)
      const found = profiles.find((p) => `${p.metadata.namespace}/${p.metadata.name}` === text)
      if (!found) throw new Error(`no profile ${text}`)
      return found
    }),
    chooser: {
      interactive: true,
      async pickOne(listed) {
        chosen.push(undefined)
        return listed[0]!
      },
    },
    async close() {
      closed++
    },
  }
  return {hub, chosen, closed: () => closed}
}

/** The user's command: `exit` decides each run's result. */
export function children(exit: (request: ChildRequest) => Partial<ChildResult> = () => ({})) {
  const started: Array<{request: ChildRequest; mode: 'inherited' | 'prefixed'; ownGroup?: boolean}> = []
  const killed: NodeJS.Signals[] = []
  let closed = 0
  const run = (request: ChildRequest): RunningChild => ({
    result: Promise.resolve({exitCode: 0, notFound: false, ...exit(request)}),
    kill: (signal) => killed.push(signal),
    stop: () => killed.push('SIGTERM'),
  })
  const runner: ChildRunner = {
    inherited(request, options) {
      started.push({request, mode: 'inherited', ownGroup: options?.ownGroup})
      return run(request)
    },
    prefixed(request) {
      started.push({request, mode: 'prefixed'})
      return run(request)
    },
    async close() {
      closed++
    },
  }
  return {runner, started, killed, closed: () => closed}
}

export function temp() {
  const files = new Map<string, string>()
  let created = 0
  let disposed = 0
  const fake: TempKubeconfigs = {
    async create(content, kind = 'kubeconfig') {
      const file = `/run/cpcred/${kind}-${++created}`
      files.set(file, content)
      return file
    },
    async replace(file, content) {
      files.set(file, content)
    },
    async remove(file) {
      files.delete(file)
    },
    pathFor: async (name) => `/run/cpcred/${name}`,
    async dispose() {
      disposed++
    },
    sweepStale: async () => [],
  }
  return {temp: fake, files, disposed: () => disposed}
}

/** The hub for selecting targets: these profiles, and namespace labels none. */
export function targetHub(
  profiles: ClusterProfile[],
  decisions: PlacementDecision[] = [],
  forbidden: string[] = [],
) {
  let closed = 0
  const hub: TargetHub = {
    namespace: 'fleet',
    async getProfile(namespace, name) {
      if (forbidden.includes(namespace))
        throw new CpcredError(`clusterprofiles is forbidden in namespace "${namespace}"`, {exitCode: 4})
      return profiles.find((p) => p.metadata.namespace === namespace && p.metadata.name === name)
    },
    async getPlacementDecision(namespace, name) {
      return decisions.find((d) => d.metadata.namespace === namespace && d.metadata.name === name)
    },
    async listPlacementDecisions(namespace, selector) {
      const [key, value] = (selector ?? '=').split('=')
      return {
        items: decisions.filter(
          (d) => d.metadata.namespace === namespace && (!selector || d.metadata.labels?.[key!] === value),
        ),
      }
    },
    async listProfilePage(options) {
      return {
        items: profiles.filter(
          (p) => options.namespace === undefined || p.metadata.namespace === options.namespace,
        ),
      }
    },
    listNamespaceLabels: async () => new Map(),
    async close() {
      closed++
    },
  }
  return {hub, closed: () => closed}
}

/**
 * What a fan-out shows and writes, in memory. `events` is the order of what happened (shared with
 * the children's runs when the test passes its own); `refuse` lists directories that cannot be
 * made and reports that cannot be written; `stdinFails` makes the copy of stdin fail at once.
 */
export function fanOutPorts(options: {events?: string[]; refuse?: string[]; stdinFails?: CpcredError} = {}) {
  const events = options.events ?? []
  const refuse = options.refuse ?? []
  const views: string[][] = []
  const finished: Array<{results: TargetResult[]; interrupted?: NodeJS.Signals}> = []
  const files = new Map<string, string>()
  const errors: string[] = []
  const spooled: string[] = []
  const reader = new AbortController()
  let gone = false
  const ports: FanOutPorts = {
    async view(input) {
      views.push(input.profiles)
      events.push('view')
      return {
        line: undefined,
        started: (profile) => events.push(`started ${profile}`),
        done: (result) => events.push(`done ${result.profile}`),
        async finish(results, interrupted) {
          finished.push({results, interrupted})
          events.push('finish')
        },
      }
    },
    makeDirectory(dir) {
      events.push(`mkdir ${dir}`)
      if (refuse.includes(dir)) throw new CpcredError(`cannot create the directory ${dir} (EACCES)`)
    },
    openLog(file) {
      files.set(file, '')
      return {
        write: (text) => void files.set(file, files.get(file)! + text),
        close: () => void events.push(`closed ${file}`),
      }
    },
    async writeReport(file, content) {
      events.push(`report ${file}`)
      if (refuse.includes(file)) throw new CpcredError(`${file} is a directory, not a file`)
      files.set(file, content)
    },
    async spoolStdin(file) {
      spooled.push(file)
      const copies: StdinCopies = {
        forTarget: () => ({file}),
        started: () => undefined,
        failure: options.stdinFails ? Promise.resolve(options.stdinFails) : new Promise(() => undefined),
        close: async () => void events.push('stdin closed'),
      }
      return copies
    },
    readerGone: () => ({
      signal: reader.signal,
      get gone() {
        return gone
      },
      abort: (reason) => reader.abort(reason),
    }),
    error: (message) => void errors.push(message),
    date: () => new Date(NOW),
  }
  const closeReader = () => {
    gone = true
    reader.abort('the output was closed')
  }
  return {ports, events, views, finished, files, errors, spooled, closeReader}
}

/** The hub for following a fleet (sync --watch -l/--all): targetHub's, and a watch the test pushes changes into. */
export function watchedHub(profiles: ClusterProfile[]) {
  const base = targetHub(profiles)
  const watchers: Array<(event: ProfileWatchEvent) => void> = []
  let version = 1
  const untilAborted = (signal?: AbortSignal) =>
    new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), {once: true}))
  const hub: FleetWatchSource = {
    ...base.hub,
    async listProfilePage(options) {
      return {...(await base.hub.listProfilePage(options)), resourceVersion: String(version)}
    },
    watchProfiles(_options, _resourceVersion, onEvent, signal) {
      watchers.push(onEvent)
      return untilAborted(signal)
    },
    watchPlacementDecisions: (_namespace, _selector, _resourceVersion, _onEvent, signal) =>
      untilAborted(signal),
  }
  /** A changed profile, as the hub's watch says it. */
  const change = (type: ProfileWatchEvent['type'], changed: ClusterProfile) => {
    changed.metadata.resourceVersion = String(++version)
    for (const watcher of watchers) watcher({type, profile: changed})
  }
  return {hub, change, watching: () => watchers.length}
}

/**
 * What running targets takes (exec's many-target run and its pool): the fake plugin, a cache of
 * this run only, `child`'s commands and private files; no renewal is expected.
 */
export function targetRunPorts(runner: ChildRunner, overrides: Partial<TargetRunPorts> = {}) {
  const files = temp()
  const ports: TargetRunPorts = {
    plugins: plugins().runner,
    cache: new RunCredentials(undefined),
    children: runner,
    temp: files.temp,
    now: () => 0,
    renew: async () => assert.fail('no renewal expected'),
    forwardingSignals: (_forward, action) => action(),
    ...overrides,
  }
  return {ports, files}
}

/** exec's words for running targets: `kubectl version` through the fake provider. */
export function targetRunInput(): TargetRunInput {
  return {
    command: ['kubectl', 'version'],
    providers: [provider()],
    hubIdentity: 'hub-identity',
    hubPin: PIN,
    stdinIsTTY: false,
    lifetimeRule: lifetimeRule(undefined, false),
    renewCommand: (name) => ['cpcred', 'credential', name],
    asGroups: [],
    onWarning: () => undefined,
    onPluginStderr: () => undefined,
  }
}
