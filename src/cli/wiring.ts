// The one place where adapters are built and handed to use cases. Every front end (the fast-path
// commands in src/cli and the oclif classes in src/commands) calls `wire()` and gets the ports it
// needs from it; no front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs).
// Members are getters that import their adapter on first use, so a command loads only what it
// touches: `cpcred credential` runs on every kubectl call and must not pay for the rest.
import {processPrinter, type Printer} from '../adapters/printer.js'
import type {DoctorDeps} from '../usecases/doctor.js'
import type {
  ExecPluginRunner,
  HubConnectOptions,
  HubConnector,
  HubPort,
  HubSelection,
  TargetPort,
} from '../usecases/ports.js'

export interface Wiring {
  /** This process's output boundary (stdout/stderr through the output sink). */
  readonly printer: Printer

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
  return {
    get printer() {
      return (printer ??= processPrinter(env))
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
        stdinIsTTY: Boolean(process.stdin.isTTY),
      }
    },
  }
}
