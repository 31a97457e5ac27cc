// The one place where adapters are built and handed to use cases. Every front end (the fast-path
// commands in src/cli and the oclif classes in src/commands) calls `wire()` and gets the ports it
// needs from it; no front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs).
// Members import their adapter on first use, so a command loads only what it touches: `cpcred
// credential` runs on every kubectl call and must not pay for the rest.
import {processPrinter, type Printer} from '../adapters/printer.js'
import type {Hub, HubSelection} from '../adapters/hub.js'
import type {LoadedProviders} from '../adapters/providers.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import type {Chooser, CompletionHub, CompletionLists, KubeconfigFiles} from '../usecases/ports.js'
import {hubSelection, type HubFlagValues} from './flags.js'

/** The flags most commands start from: the hub (kubectl's selection rules) and the provider file. */
export interface SessionFlags extends HubFlagValues {
  'provider-file'?: string
  'access-provider'?: string[]
  selector?: string
}

/** The hub and the consumer's providers, read side by side. */
export interface Session {
  hub: Hub
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
  completionHub(selection: HubSelection): Promise<CompletionHub & {connect(): Promise<Hub>}>
  /** The lists of profile names offered at TAB, beside the credential cache. */
  completionLists(): Promise<CompletionLists>
}

export function wire(env: NodeJS.ProcessEnv = process.env): Wiring {
  let printer: Printer | undefined
  const wiring: Wiring = {
    get printer() {
      return (printer ??= processPrinter(env))
    },
    async session(flags) {
      checkLabelSelector(flags.selector)
      const [{Hub}, {loadProviders}] = await Promise.all([
        import('../adapters/hub.js'),
        import('../adapters/providers.js'),
      ])
      const [hub, providers] = await Promise.all([
        Hub.connect(hubSelection(flags)),
        loadProviders({providerFile: flags['provider-file'], accessProviders: flags['access-provider']}),
      ])
      for (const warning of providers.warnings) wiring.printer.warn(warning)
      return {hub, providers}
    },
    async kubeconfigFiles() {
      return (await import('../adapters/kubeconfig-files.js')).kubeconfigFiles
    },
    async completionHub(selection) {
      const {Hub, hubIdentity, loadHubConfig} = await import('../adapters/hub.js')
      const config = await loadHubConfig(selection, env)
      return {
        identity: hubIdentity(config),
        namespace: config.namespace,
        connect: () => Hub.fromConfig(config, {stdinIsTTY: false, onPluginStderr: () => undefined}),
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
  }
  return wiring
}
