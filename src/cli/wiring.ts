// The one place where adapters are built and handed to use cases. Every front end (the fast-path
// commands in src/cli and the oclif classes in src/commands) calls `wire()` and gets the ports it
// needs from it; no front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs).
// Members are getters that import their adapter on first use, so a command loads only what it
// touches: `cpcred credential` runs on every kubectl call and must not pay for the rest.
import path from 'node:path'
import {isTerminal, processPrinter, type Printer} from '../adapters/printer.js'
import type {fanOutView} from '../adapters/fan-out-view.js'
import type {LogFile, makeDirectory, writeFileAtomic} from '../adapters/files.js'
import type * as Picker from '../adapters/picker.js'
import type {spoolStdin} from '../adapters/stdin-spool.js'
import * as interrupts from '../adapters/interrupts.js'
import type {HubConfig, HubSelection} from '../adapters/hub.js'
import type {
  AnswerBook,
  ChildRunner,
  CredentialStore,
  ForwardingSignals,
  PluginProcessRunner,
  ProviderSource,
  RenewCredential,
  SelfReviewer,
  SessionHub,
  TempKubeconfigs,
} from '../usecases/ports.js'
import type {RecentProfilePorts} from '../usecases/recent-profile.js'
import type {TargetHub} from '../usecases/exec-targets.js'

export interface Wiring {
  /** This process's output boundary (stdout/stderr through the output sink). */
  readonly printer: Printer

  // ─── The credential pipeline and exec ────────────────────────────────────────────────────────
  /** The signals sent to cpcred and a reader of stdout that has gone (src/adapters/interrupts.ts). */
  readonly interrupts: typeof interrupts
  /** The hub from its summary (kept per kubeconfig content), its profiles and their snapshots. */
  recentProfiles(
    selection: HubSelection,
    apiVersion?: string,
  ): Promise<RecentProfilePorts & {hubConfig(): Promise<HubConfig>}>
  /** The hub, connected, for commands that may pick a profile on a terminal. */
  sessionHub(selection: HubSelection, printer: Printer): Promise<SessionHub>
  readonly providers: ProviderSource
  /** Plugins; the runner's module loads only when one runs (a cached credential needs none). */
  readonly plugins: PluginProcessRunner
  credentialStore(onProblem?: (message: string) => void): Promise<CredentialStore>
  answers(store: CredentialStore): Promise<AnswerBook>
  selfReviewer(): Promise<SelfReviewer>
  /** The hub, from a configuration already loaded, for selecting exec's targets. */
  targetHub(config: HubConfig, apiVersion?: string): Promise<TargetHub>
  /** Choosing profiles on a terminal. */
  picker(): Promise<typeof Picker>
  /** What a fan-out writes with: its view, log files, reports, and the copy of stdin for each target. */
  fanOutPorts(): Promise<{
    fanOutView: typeof fanOutView
    LogFile: typeof LogFile
    makeDirectory: typeof makeDirectory
    writeFileAtomic: typeof writeFileAtomic
    spoolStdin: typeof spoolStdin
  }>
  /** Whether cpcred's stdin is a terminal (asked without creating process.stdin). */
  stdinIsTerminal(): boolean
  /** What `cpcred exec` runs a target's command with. */
  execPorts(): Promise<{
    children: ChildRunner
    temp: TempKubeconfigs
    renew: RenewCredential
    forwardingSignals: ForwardingSignals
  }>
}

export function wire(env: NodeJS.ProcessEnv = process.env): Wiring {
  let printer: Printer | undefined
  return {
    get printer() {
      return (printer ??= processPrinter(env))
    },

    // ─── The credential pipeline and exec ──────────────────────────────────────────────────────
    interrupts,
    async recentProfiles(selection, apiVersion) {
      const [{summarizeHub}, {ProfileSnapshots}, {defaultCredentialCacheDir}] = await Promise.all([
        import('../adapters/hub-summary.js'),
        import('../adapters/profile-snapshots.js'),
        import('../adapters/cache-dir.js'),
      ])
      // ~/.cache/cpcred (XDG_CACHE_HOME/cpcred), beside the credentials.
      const root = path.dirname(defaultCredentialCacheDir(env))
      const summarized = await summarizeHub(selection, path.join(root, 'hubs'), env)
      const snapshots = new ProfileSnapshots(path.join(root, 'profiles'))
      const {identity, pin, namespace} = summarized.summary
      let isOutage: ((error: unknown) => boolean) | undefined
      return {
        now: Date.now,
        snapshots,
        hubConfig: summarized.config,
        hub: {
          identity,
          pin,
          namespace,
          async readProfile(ref, {remember, idleTimeoutMs}) {
            const [{Hub}, {findProfile}, kubeErrors] = await Promise.all([
              import('../adapters/hub.js'),
              import('../usecases/find-profiles.js'),
              import('../adapters/kube-errors.js'),
            ])
            isOutage = kubeErrors.isOutage
            const client = await Hub.fromConfig(await summarized.config(), {
              apiVersion,
              versionCache: remember ? snapshots.servedVersion(identity) : undefined,
              idleTimeoutMs,
            })
            try {
              return await findProfile(client, ref, {namespace, allNamespaces: false})
            } finally {
              await client.client.close()
            }
          },
          isOutage: (error) => isOutage?.(error) ?? false,
        },
      }
    },
    async sessionHub(selection, printer) {
      const [{Hub}, {oneProfile}] = await Promise.all([
        import('../adapters/hub.js'),
        import('../usecases/find-profiles.js'),
      ])
      const hub = await Hub.connect(selection)
      const namespace = hub.config.namespace
      return {
        identity: hub.identity(),
        pin: hub.pin(),
        namespace,
        chooseProfile: (text, allNamespaces) =>
          oneProfile(
            hub,
            text,
            {namespace, allNamespaces},
            {
              interactive: printer.interactive,
              pickOne: async (profiles) =>
                (await import('../adapters/picker.js')).pickProfile(profiles, 'Which ClusterProfile?'),
            },
          ),
        close: () => hub.client.close(),
      }
    },
    providers: {
      async load(selection) {
        const {loadProviders, requireProviders} = await import('../adapters/providers.js')
        const loaded = await loadProviders(selection, env)
        return {warnings: loaded.warnings, required: () => requireProviders(loaded, env)}
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
    async selfReviewer() {
      return (await import('../adapters/self-review.js')).selfReviewer
    },
    async targetHub(config, apiVersion) {
      const {Hub} = await import('../adapters/hub.js')
      const hub = await Hub.fromConfig(config, {apiVersion})
      return {
        namespace: hub.config.namespace,
        getProfile: (namespace, name) => hub.getProfile(namespace, name),
        listProfilePage: (options, continueToken) => hub.listProfilePage(options, continueToken),
        listNamespaceLabels: () => hub.listNamespaceLabels(),
        close: () => hub.client.close(),
      }
    },
    picker: () => import('../adapters/picker.js'),
    stdinIsTerminal: () => isTerminal(0),
    async fanOutPorts() {
      const [{fanOutView}, {LogFile, makeDirectory, writeFileAtomic}, {spoolStdin}] = await Promise.all([
        import('../adapters/fan-out-view.js'),
        import('../adapters/files.js'),
        import('../adapters/stdin-spool.js'),
      ])
      return {fanOutView, LogFile, makeDirectory, writeFileAtomic, spoolStdin}
    },
    async execPorts() {
      const [{nodeChildRunner}, {tempKubeconfigs}, {renewCredential}] = await Promise.all([
        import('../adapters/child-process.js'),
        import('../adapters/temp-kubeconfigs.js'),
        import('../adapters/credential-renewal.js'),
      ])
      return {
        children: nodeChildRunner,
        temp: tempKubeconfigs(env),
        renew: renewCredential,
        forwardingSignals: interrupts.forwardingSignals,
      }
    },
  }
}

/** What every run needs when it fails: the printer and the signal it must die of (runToExit). */
export function wireEnding(env: NodeJS.ProcessEnv = process.env): Pick<Wiring, 'printer' | 'interrupts'> {
  return {printer: processPrinter(env), interrupts}
}
