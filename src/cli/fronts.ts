// Every command's front, by oclif's id (src/cli/command-table.ts lists them): what the oclif base
// class (front-command.ts) runs. Loaded only on the oclif side; the fast-path and exec bundles call
// their own commands' fronts directly (fast-path.ts, exec.ts), so that their files stay small.
import type {Front, FrontedCommand} from './command-table.js'
import {FAST_FRONTS} from './fast-path.js'
import {BUILTIN_PLUGINS, type BuiltinPlugin} from './plugins/names.js'

export type {Front}

/** The built-in plugins are oclif commands of their own, `plugin:NAME`, each a front of `plugin`. */
type OclifId = Exclude<FrontedCommand, 'plugin'> | `plugin:${BuiltinPlugin}`

export const FRONTS: Readonly<Record<OclifId, () => Promise<Front>>> = {
  'cache:clear': async () => (await import('./cache-clear.js')).runCacheClear,
  credential: FAST_FRONTS.credential,
  describe: async () => (await import('./describe.js')).runDescribe,
  doctor: async () => (await import('./doctor.js')).runDoctor,
  exec: async () => (await import('./exec.js')).runExec,
  get: async () => (await import('./get.js')).runGet,
  hub: async () => (await import('./hub.js')).runHubShow,
  'hub:use': async () => (await import('./hub.js')).runHubUse,
  kubeconfig: async () => (await import('./kubeconfig.js')).runKubeconfig,
  lint: async () => (await import('./lint.js')).runLint,
  list: FAST_FRONTS.list,
  sync: async () => (await import('./sync.js')).runSync,
  version: async () => (await import('./version.js')).runVersion,
  whoami: async () => (await import('./whoami.js')).runWhoami,
  ...(Object.fromEntries(
    BUILTIN_PLUGINS.map((name) => [
      `plugin:${name}`,
      async (): Promise<Front> => {
        const runPlugin = await FAST_FRONTS.plugin()
        return (wiring, argv) => runPlugin(wiring, [name, ...argv])
      },
    ]),
  ) as Record<`plugin:${BuiltinPlugin}`, () => Promise<Front>>),
}

/** The front of an oclif command id, if it has one. */
export function frontOf(id: string | undefined): (() => Promise<Front>) | undefined {
  return Object.hasOwn(FRONTS, id ?? '') ? FRONTS[id as OclifId] : undefined
}
