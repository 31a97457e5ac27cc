// Every command's front, by oclif's command id: what the oclif base class (front-command.ts) runs.
// Loaded only on the oclif side; the fast-path and exec bundles call their own commands' fronts
// directly (fast-path.ts, exec.ts), so that their files stay small.
import {BUILTIN_PLUGINS} from './plugins/names.js'
import type {Wiring} from './wiring.js'

/** The one signature of a front: the words after the command's name, in the run's wiring. */
export type Front = (wiring: Wiring, argv: string[]) => Promise<number | void>

export const FRONTS: Readonly<Record<string, () => Promise<Front>>> = {
  'cache:clear': async () => (await import('./cache-clear.js')).runCacheClear,
  credential: async () => (await import('./credential.js')).runCredential,
  describe: async () => (await import('./describe.js')).runDescribe,
  doctor: async () => (await import('./doctor.js')).runDoctor,
  exec: async () => (await import('./exec.js')).runExec,
  hub: async () => (await import('./hub.js')).runHubShow,
  'hub:use': async () => (await import('./hub.js')).runHubUse,
  kubeconfig: async () => (await import('./kubeconfig.js')).runKubeconfig,
  list: async () => (await import('./list.js')).runList,
  sync: async () => (await import('./sync.js')).runSync,
  version: async () => (await import('./version.js')).runVersion,
  whoami: async () => (await import('./whoami.js')).runWhoami,
  ...Object.fromEntries(
    BUILTIN_PLUGINS.map((name) => [
      `plugin:${name}`,
      async (): Promise<Front> => {
        const {runBuiltinPlugin} = await import('./plugins/run.js')
        return (wiring, argv) => runBuiltinPlugin(wiring, [name, ...argv])
      },
    ]),
  ),
}
