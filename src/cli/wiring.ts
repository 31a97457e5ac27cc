// The one place where adapters are built and handed to use cases. Every front end (the fast-path
// commands in src/cli and the oclif classes in src/commands) calls `wire()` and gets the ports it
// needs from it; no front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs).
// Members import their adapter on first use, so a command loads only what it touches: `cpcred
// credential` runs on every kubectl call and must not pay for the rest.
import {processPrinter, type Printer} from '../adapters/printer.js'
import type {LoadedProviders} from '../adapters/providers.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import type {DoctorDeps} from '../usecases/doctor.js'
import type {
  Chooser,
  CompletionHub,
  CompletionLists,
  ExecPluginRunner,
  HubConnectOptions,
  HubConnector,
  HubPort,
  HubSelection,
  KubeconfigFiles,
  TargetPort,
} from '../usecases/ports.js'
import {hubSelection, type HubFlagValues} from './flags.js'

/** The flags most commands start from: the hub (kubectl's selection rules) and the provider file. */
export interface SessionFlags extends HubFlagValues {
  'provider-file'?: string
  'access-provider'?: string[]
  selector?: string
}

/** The hub and the consumer's providers, read side by side. */
export interface Session {
  hub: HubPort
  providers: LoadedProviders
}

export interface Wiring {
  /** This process's output boundary (stdout/stderr through the output sink). */
  readonly printer: Printer
  /** The hub and the providers of these flags; provider-file warnings are said once, here. */
  session(flags: SessionFlags): Promise<Session>
  /** The user's kubeconfig files: atomic, through symlinks, locked while merging. */
  kubeconfigFiles(): Promise<KubeconfigFiles>
  /** The person at the terminal, asked this question to choose one profile (when interactive). */
  chooser(question: string): Chooser
  /**
   * The hub a completion is for, from the kubeconfig alone; `connect` opens it quietly (a plugin of
   * the hub's user never prompts or prints at TAB).
   */
  completionHub(selection: HubSelection): Promise<CompletionHub & {connect(): Promise<HubPort>}>
  /** The lists of profile names offered at TAB, beside the credential cache. */
  completionLists(): Promise<CompletionLists>

  // -------------------------------------------------------------------------------------------
  // The hub, the targets and doctor's probes

  /** Runs a hub kubeconfig user's exec plugin (client-go's protocol, cpcred's plugin runner). */
  readonly runExecPlugin: ExecPluginRunner
  /** Loads the hub's kubeconfig and connects to it, exec plugins run by runExecPlugin. */
  readonly hubConnector: HubConnector
  /** The hub as `selection` names it, connected. */
  openHub(selection: HubSelection, options?: Omit<HubConnectOptions, 'runExecPlugin'>): Promise<HubPort>
  /** Target clusters reached with a credential. */
  readonly target: TargetPort
  /** Doctor's ports: the hub, the targets, the probes, the provider file and the plugin runner. */
  doctorPorts(): Promise<Omit<DoctorDeps, 'onCheck'>>
}

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
      return Hub.fromConfig(config, {...options, runExecPlugin})
    },
  }
  const target: TargetPort = {
    async endpoint(cluster) {
      const {targetEndpoint} = await import('../usecases/whoami.js')
      return targetEndpoint(cluster)
    },
    async reviewSelf(resolution, credential) {
      const {reviewSelf} = await import('../usecases/whoami.js')
      return reviewSelf(resolution, credential)
    },
  }
  const wiring: Wiring = {
    get printer() {
      return (printer ??= processPrinter(env))
    },
    async session(flags) {
      checkLabelSelector(flags.selector)
      const {loadProviders} = await import('../adapters/providers.js')
      const [hub, providers] = await Promise.all([
        wiring.openHub(hubSelection(flags)),
        loadProviders({providerFile: flags['provider-file'], accessProviders: flags['access-provider']}, env),
      ])
      for (const warning of providers.warnings) wiring.printer.warn(warning)
      return {hub, providers}
    },
    async kubeconfigFiles() {
      return (await import('../adapters/kubeconfig-files.js')).kubeconfigFiles
    },
    async completionHub(selection) {
      const {hubIdentity} = await import('../adapters/hub-config.js')
      const config = await hubConnector.loadConfig(selection)
      return {
        identity: hubIdentity(config),
        namespace: config.namespace,
        connect: () => hubConnector.connect(config, {stdinIsTTY: false, onPluginStderr: () => undefined}),
      }
    },
    async completionLists() {
      const [{CompletionCache}, {cacheDir}] = await Promise.all([
        import('../adapters/completion-cache.js'),
        import('../adapters/cache-dir.js'),
      ])
      return new CompletionCache(cacheDir('completion', env))
    },
    chooser(question) {
      return {
        interactive: wiring.printer.interactive,
        pickOne: async (profiles) => (await import('../adapters/picker.js')).pickProfile(profiles, question),
      }
    },

    runExecPlugin,
    hubConnector,
    async openHub(selection, options = {}) {
      const config = await hubConnector.loadConfig(selection)
      return hubConnector.connect(config, {apiVersion: selection.apiVersion, ...options})
    },
    target,
    async doctorPorts() {
      const [{doctorProbes}, {loadProviders}, {pluginRunner}] = await Promise.all([
        import('../adapters/doctor-probes.js'),
        import('../adapters/providers.js'),
        import('../adapters/process.js'),
      ])
      return {
        hub: hubConnector,
        target,
        probes: doctorProbes(),
        loadProviders: (selection) => loadProviders(selection, env),
        runner: pluginRunner,
        now: () => new Date(),
        env,
        stdinIsTTY: wiring.printer.stdinIsTTY,
      }
    },
  }
  return wiring
}
