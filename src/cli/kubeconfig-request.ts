// What `cpcred kubeconfig` and `cpcred sync` both need to render entries: the hub, how users run the
// plugin, and the names (the consumer's providers are asked for apart: none is a usage error).
import type {HubPort} from '../usecases/ports.js'
import {cpcredCommand} from './wiring.js'
import type {ProvidersRead} from '../usecases/ports.js'
import {resolveAccessProviderFlag} from '../core/access/plugin-commands.js'
import type {KubeconfigWrite} from '../usecases/write-kubeconfig.js'
import type {FlagValues} from './flag-table.js'
import type {KUBECONFIG_ENTRY_FLAGS, PROVIDER_FLAGS} from './flags.js'

type EntryFlags = FlagValues<typeof KUBECONFIG_ENTRY_FLAGS & typeof PROVIDER_FLAGS>

export function kubeconfigRequest(
  // Repeatable flags as parseFlags gives them: undefined when not used.
  flags: Omit<EntryFlags, 'access-provider' | 'as-group'> & {
    'access-provider'?: string[]
    'as-group'?: string[]
  },
  hub: HubPort,
  loaded: Pick<ProvidersRead, 'file'>,
): Omit<KubeconfigWrite, 'profiles' | 'providers'> {
  return {
    hub: hub.pin(),
    hubServer: hub.config.server,
    mode: flags.mode,
    pinHub: !flags['no-pin-hub'],
    // cpcred mode: kubectl runs this very cpcred (adapters/self-command.ts).
    cpcredCommand: cpcredCommand(),
    providerFile: loaded.file,
    accessProviders: (flags['access-provider'] ?? []).map((value) =>
      resolveAccessProviderFlag(value, process.cwd()),
    ),
    as: flags.as,
    asGroups: flags['as-group'] ?? [],
    contextNameTemplate: flags['context-name'],
  }
}
