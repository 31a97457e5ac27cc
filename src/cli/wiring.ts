// The one place where adapters are built and handed to use cases. A run builds it once, in its entry
// point (wire), and hands it to the command's front, which takes the ports it needs from it; no
// front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs), and no module
// keeps a wiring of its own.
// Members import their adapter on first use, so a command loads only what it touches: `cpcred
// credential` runs on every kubectl call and must not pay for the rest.
import {cpcredCommand, invokedName, selfInvocation} from '../adapters/self-command.js'
import {isTerminal, processPrinter, type Printer} from '../adapters/printer.js'
import type * as Picker from '../adapters/picker.js'
import type {CompletionTargets} from '../adapters/completion-targets.js'
import type {BuildInfo} from '../adapters/build-info.js'
import * as interrupts from '../adapters/interrupts.js'
import type * as Heap from '../adapters/heap.js'
import type {ProviderSelection} from '../core/access/provider-selection.js'
import type {DoctorPorts} from '../usecases/doctor.js'
import type {RecentProfilePorts} from '../usecases/recent-profile.js'
import type {
  AnswerBook,
  Chooser,
  CompletionHub,
  CompletionLists,
  CredentialStore,
  DiscoveryCache,
  ExecPluginRunner,
  FederationPorts,
  HubConfig,
  HubConnectOptions,
  HubConnector,
  HubPort,
  HubSelection,
  SavedHubStore,
  KubeconfigFiles,
  KubectlPreferences,
  Notices,
  PluginProcessRunner,
  ProviderSource,
  ProvidersRead,
  SessionHub,
  TargetApis,
  TargetPort,
  TargetHub,
} from '../usecases/ports.js'
import {hubSelection, type HubFlagValues} from './flags.js'
import {fleetWiring, type FleetWiring} from './wiring-fleet.js'

/** The flags most commands start from: the hub (kubectl's selection rules) and the provider file. */
export interface SessionFlags extends HubFlagValues {
  'provider-file'?: string
  'access-provider'?: string[]
}

/** The hub and the consumer's providers, read side by side. */
export interface Session {
  hub: HubPort
  providers: ProvidersRead
}

export interface Wiring extends FleetWiring {
  /** The environment every member reads (process.env, or a test's). */
  readonly env: NodeJS.ProcessEnv
  /** This process's output boundary (stdout/stderr through the output sink). */
  readonly printer: Printer
  /** Warnings, notes and plugins' stderr, through the printer (what the credential pipeline says). */
  readonly notices: Notices
  /** The hub and the providers of these flags; provider-file warnings are said once, here. */
  session(flags: SessionFlags): Promise<Session>
  /** The user's kubeconfig files: atomic, through symlinks, locked while merging. */
  kubeconfigFiles(): Promise<KubeconfigFiles>
  /** kubectl's kuberc and command lookup, for its credential-plugin policy. */
  kubectlPreferences(): Promise<KubectlPreferences>
  /**
   * The person at the terminal, asked this question to choose one profile (when interactive); the
   * profiles none of these providers reaches are marked.
   */
  chooser(question: string, providers?: ProviderSelection): Chooser
  /** Which profiles one of these providers reaches; undefined (no marks) when they cannot be read. */
  reachability(providers: ProviderSelection): Promise<Picker.Reachable | undefined>
  /**
   * The hub a completion is for, from the kubeconfig alone; `connect` opens it quietly (a plugin of
   * the hub's user never prompts or prints at TAB).
   */
  completionHub(selection: HubSelection): Promise<CompletionHub & {connect(): Promise<HubPort>}>
  /** The lists of profile names offered at TAB, beside the credential cache. */
  completionLists(): Promise<CompletionLists>
  /** The kubeconfigs of exec's targets, for completing the command after `--` against its target. */
  completionTargets(): Promise<CompletionTargets>

  // -------------------------------------------------------------------------------------------
  // The hub, the targets and doctor's probes

  /** Runs a hub kubeconfig user's exec plugin (client-go's protocol, cpcred's plugin runner). */
  readonly runExecPlugin: ExecPluginRunner
  /** Loads the hub's kubeconfig and connects to it, exec plugins run by runExecPlugin. */
  readonly hubConnector: HubConnector
  /** The hub `cpcred hub use` keeps. */
  savedHub(): Promise<SavedHubStore>
  /** The hub as `selection` names it, connected. */
  openHub(selection: HubSelection, options?: Omit<HubConnectOptions, 'runExecPlugin'>): Promise<HubPort>
  /** Target clusters reached with a credential. */
  readonly target: TargetPort
  /** Target clusters read with a credential (`cpcred get`), through cpcred's REST client. */
  readonly targetApis: TargetApis
  /** What each target server serves, kept per server (`cpcred get`'s discovery). */
  discoveryCache(): DiscoveryCache
  /** Doctor's ports: the hub, the targets, the probes, the provider file and the plugin runner. */
  doctorPorts(): Promise<Omit<DoctorPorts, 'onCheck'>>

  // -------------------------------------------------------------------------------------------
  // The credential pipeline and exec

  /** The signals sent to cpcred and a reader of stdout that has gone (src/adapters/interrupts.ts). */
  readonly interrupts: typeof interrupts
  /** For a command that runs for hours: how V8 sizes its heap (src/adapters/heap.ts). */
  heap(): Promise<typeof Heap>
  /** The hub from its summary (kept per kubeconfig content), its profiles and their snapshots. */
  recentProfiles(
    selection: HubSelection,
    apiVersion?: string,
  ): Promise<RecentProfilePorts & {hubConfig(): Promise<HubConfig>}>
  /** The hub, connected, for commands that may pick a profile on a terminal. */
  sessionHub(selection: HubSelection, providers?: ProviderSelection): Promise<SessionHub>
  readonly providers: ProviderSource
  /** Plugins; the runner's module loads only when one runs (a cached credential needs none). */
  readonly plugins: PluginProcessRunner
  credentialStore(onProblem?: (message: string) => void): Promise<CredentialStore>
  answers(store: CredentialStore): Promise<AnswerBook>
  /** The hub, from a configuration already loaded, for selecting exec's targets. */
  targetHub(config: HubConfig, apiVersion?: string): Promise<TargetHub>
  /** Choosing profiles on a terminal. */
  picker(): Promise<typeof Picker>
  /** Whether cpcred's stdin is a terminal (asked without creating process.stdin). */
  stdinIsTerminal(): boolean
  /** `cpcred version`: this build's stamp, Node, the docs' folder and the kubectl on PATH. */
  buildInfo(): Promise<BuildInfo>
  /** The hub of this configuration for TokenRequest, and private token files (serviceAccountToken). */
  federation(hubConfig: () => Promise<HubConfig>): FederationPorts
}

/**
 * This very cpcred: how kubectl starts it from a kubeconfig (--mode cpcred), the name it was typed
 * by, and how this process starts it again as a child (adapters/self-command.ts).
 */
export {cpcredCommand, invokedName, selfInvocation}

/**
 * The wiring of one run in this environment. Each entry point builds it once (its composition root:
 * the fast-path and exec bundles' `run`, the oclif commands' base class) and hands it down.
 */
export function wire(env: NodeJS.ProcessEnv = process.env): Wiring {
  let printer: Printer | undefined

  const runExecPlugin: ExecPluginRunner = async (request) => {
    const [{runPlugin, pluginLabel}, {pluginRunner}] = await Promise.all([
      import('../usecases/run-plugin.js'),
      import('../adapters/process.js'),
    ])
    return runPlugin(pluginRunner, {...request, label: pluginLabel(undefined, request.exec.command)})
  }
  const hubConnector: HubConnector = {
    async loadConfig(selection) {
      const {loadHubConfig} = await import('../adapters/hub-config.js')
      return loadHubConfig(selection, env)
    },
    async connect(config, options) {
      const {Hub} = await import('../adapters/hub.js')
      // A hub slow to answer is named on a terminal's status line (never in a CI log or a pipe).
      const onWaiting = (what: string | undefined) =>
        wiring.printer.status(what ? `waiting for ${what}${wiring.printer.glyphs.ellipsis}` : '')
      return Hub.fromConfig(config, {onWaiting, ...options, runExecPlugin})
    },
  }
  const target: TargetPort = {
    endpoint: async (cluster) => (await import('../adapters/self-review.js')).targetPort.endpoint(cluster),
    reviewSelf: async (resolution, credential) =>
      (await import('../adapters/self-review.js')).targetPort.reviewSelf(resolution, credential),
    reviewRules: async (resolution, credential, namespace) =>
      (await import('../adapters/self-review.js')).targetPort.reviewRules(resolution, credential, namespace),
    reviewAccess: async (resolution, credential, question) =>
      (await import('../adapters/self-review.js')).targetPort.reviewAccess(resolution, credential, question),
  }
  const targetApis: TargetApis = {
    open(target) {
      // The adapter loads on the first request, not when a target is opened.
      const opened = import('../adapters/target-api.js').then(({targetApis: apis}) => apis.open(target))
      return {
        get: async (request, action) => (await opened).get(request, action),
        watch: async (request, action, onEvent, signal) =>
          (await opened).watch(request, action, onEvent, signal),
        close: async () => (await opened).close(),
      }
    },
  }
  const wiring: Wiring = {
    env,
    ...fleetWiring(env, () => wiring.printer),
    async savedHub() {
      const {readSavedHub, savedHubFile, writeSavedHub} = await import('../adapters/hub-choice.js')
      return {
        file: savedHubFile(env),
        read: () => readSavedHub(env),
        write: (saved) => writeSavedHub(saved, env),
      }
    },
    get printer() {
      return (printer ??= processPrinter(env))
    },
    notices: {
      warn: (message) => wiring.printer.warn(message),
      note: (message) => wiring.printer.note(message),
      pluginStderr: (text) => wiring.printer.text(text, 'stderr'),
    },
    async session(flags) {
      const [hub, providers] = await Promise.all([
        wiring.openHub(hubSelection(flags)),
        wiring.providers.load({
          providerFile: flags['provider-file'],
          accessProviders: flags['access-provider'],
        }),
      ])
      for (const warning of providers.warnings) wiring.printer.warn(warning)
      return {hub, providers}
    },
    async kubeconfigFiles() {
      return (await import('../adapters/kubeconfig-files.js')).kubeconfigFiles
    },
    async kubectlPreferences() {
      return (await import('../adapters/kuberc.js')).kubectlPreferences(env)
    },
    async completionHub(selection) {
      const {hubIdentity} = await import('../adapters/hub-config.js')
      const config = await hubConnector.loadConfig(selection)
      return {
        identity: hubIdentity(config),
        namespace: config.namespace,
        connect: () =>
          hubConnector.connect(config, {
            stdinIsTTY: false,
            onPluginStderr: () => undefined,
            onWaiting: undefined,
          }),
      }
    },
    async completionTargets() {
      const [{CompletionTargets}, {cacheDir}] = await Promise.all([
        import('../adapters/completion-targets.js'),
        import('../adapters/cache-dir.js'),
      ])
      return new CompletionTargets(cacheDir('completion', env), selfInvocation(), env)
    },
    async completionLists() {
      const [{CompletionCache}, {cacheDir}] = await Promise.all([
        import('../adapters/completion-cache.js'),
        import('../adapters/cache-dir.js'),
      ])
      return new CompletionCache(cacheDir('completion', env))
    },
    chooser(question, providers) {
      return {
        interactive: wiring.printer.interactive,
        pickOne: async (profiles) =>
          (await wiring.picker()).pickProfile(profiles, question, {
            reachable: providers && (await wiring.reachability(providers)),
          }),
      }
    },
    async reachability(providers) {
      try {
        const [{providers: loaded}, {chooseProvider}] = await Promise.all([
          wiring.providers.load(providers),
          import('../core/access/resolve-access.js'),
        ])
        return (profile) => chooseProvider(profile, loaded) !== undefined
      } catch {
        // The run itself says what is wrong with the providers.
        return undefined
      }
    },

    runExecPlugin,
    hubConnector,
    async openHub(selection, options = {}) {
      const config = await hubConnector.loadConfig(selection)
      return hubConnector.connect(config, {apiVersion: selection.apiVersion, ...options})
    },
    target,
    targetApis,
    discoveryCache() {
      const loaded = Promise.all([
        import('../adapters/discovery-cache.js'),
        import('../adapters/cache-dir.js'),
      ]).then(([{discoveryCache}, {cacheDir}]) => discoveryCache(cacheDir('discovery', env)))
      return {
        read: async (server) => (await loaded).read(server),
        write: async (server, value) => (await loaded).write(server, value),
      }
    },
    async doctorPorts() {
      const [{doctorProbes}, {pluginRunner}, kubectl] = await Promise.all([
        import('../adapters/doctor-probes.js'),
        import('../adapters/process.js'),
        wiring.kubectlPreferences(),
      ])
      return {
        // Doctor's status line already says which check waits.
        hub: {
          ...hubConnector,
          connect: (config, options) => hubConnector.connect(config, {...options, onWaiting: undefined}),
        },
        async hubChain(selection) {
          const [{sourceChain}, saved] = await Promise.all([
            import('../core/kubeconfig/hub-choice.js'),
            wiring.savedHub(),
          ])
          return sourceChain(selection, env, await saved.read(), saved.file)
        },
        target,
        probes: doctorProbes(),
        loadProviders: (selection) => wiring.providers.load(selection),
        runner: pluginRunner,
        now: () => new Date(),
        env,
        stdinIsTTY: wiring.printer.stdinIsTTY,
        tokenFiles: wiring.federation(() => Promise.reject(new Error('doctor opens its own hub'))).files,
        kubectl,
        cpcredCommand: cpcredCommand(),
      }
    },

    // The credential pipeline and exec
    interrupts,
    heap: () => import('../adapters/heap.js'),
    async recentProfiles(selection, apiVersion) {
      const [{summarizeHub}, {ProfileSnapshots}, {cacheDir}, {isOutage}] = await Promise.all([
        import('../adapters/hub-summary.js'),
        import('../adapters/profile-snapshots.js'),
        import('../adapters/cache-dir.js'),
        import('../adapters/kube-errors.js'),
      ])
      const summarized = await summarizeHub(selection, cacheDir('hubs', env), env)
      const snapshots = new ProfileSnapshots(cacheDir('profiles', env))
      const {identity, pin, namespace} = summarized.summary
      return {
        now: Date.now,
        snapshots,
        hubConfig: summarized.config,
        hub: {
          identity,
          pin,
          namespace,
          connect: async ({remember, idleTimeoutMs}) =>
            hubConnector.connect(await summarized.config(), {
              apiVersion,
              versionCache: remember ? snapshots.servedVersion(identity) : undefined,
              idleTimeoutMs,
            }),
          isOutage,
        },
      }
    },
    async sessionHub(selection, providers) {
      const hub = await wiring.openHub(selection)
      return {
        identity: hub.identity(),
        pin: hub.pin(),
        namespace: hub.config.namespace,
        profiles: hub,
        chooser: wiring.chooser('Which ClusterProfile?', providers),
        close: () => hub.close(),
      }
    },
    providers: {
      // The one loader of the providers: sessions, the credential pipeline and doctor read through it.
      async load(selection) {
        const {loadProviders, requireProviders} = await import('../adapters/providers.js')
        const loaded = await loadProviders(selection, env)
        return {...loaded, required: () => requireProviders(loaded, env)}
      },
    },
    plugins: {
      run: async (request) => (await import('../adapters/process.js')).pluginRunner.run(request),
    },
    async credentialStore(onProblem) {
      const {CredentialStore, defaultCredentialCacheDir} = await import('../adapters/credential-store.js')
      return new CredentialStore(defaultCredentialCacheDir(env), {onProblem})
    },
    async answers(store) {
      return (await import('../adapters/answer-book.js')).answerBook(store, env)
    },
    async targetHub(config, apiVersion) {
      const hub = await hubConnector.connect(config, {apiVersion})
      return {
        namespace: hub.config.namespace,
        getProfile: (namespace, name) => hub.getProfile(namespace, name),
        listProfilePage: (options, continueToken) => hub.listProfilePage(options, continueToken),
        listNamespaceLabels: () => hub.listNamespaceLabels(),
        getPlacementDecision: (namespace, name) => hub.getPlacementDecision(namespace, name),
        listPlacementDecisions: (namespace, selector) => hub.listPlacementDecisions(namespace, selector),
        close: () => hub.close(),
      }
    },
    picker: () => import('../adapters/picker.js'),
    stdinIsTerminal: () => isTerminal(0),
    buildInfo: async () => (await import('../adapters/build-info.js')).readBuildInfo(env),
    federation(hubConfig) {
      const temp = import('../adapters/temp-kubeconfigs.js').then(({tempKubeconfigs}) => tempKubeconfigs(env))
      return {
        openHub: async () => hubConnector.connect(await hubConfig(), {}),
        files: {
          create: async (content, kind) => (await temp).create(content, kind),
          remove: async (file) => (await temp).remove(file),
          sweepStale: async () => (await temp).sweepStale(),
          dispose: async () => (await temp).dispose(),
        },
      }
    },
  }
  return wiring
}
