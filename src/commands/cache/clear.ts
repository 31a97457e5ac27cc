import {Args, Command} from '@oclif/core'
import {HUB_FLAGS, hubSelection, PROVIDER_FLAGS} from '../../cli/flags.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../../cli/flag-table.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {processWiring} from '../../cli/wiring.js'
import {clearCache} from '../../usecases/cache-clear.js'

const CACHE_CLEAR_FLAGS = {...HUB_FLAGS, ...PROVIDER_FLAGS} as const satisfies FlagTable
const CACHE_CLEAR_USAGE = usageLine('cache clear', '[PROFILE]')

export default class CacheClear extends Command {
  static override summary = 'Remove cached credentials: all of them, or the one a profile would use.'
  static override examples = [
    '<%= config.bin %> cache clear',
    '<%= config.bin %> cache clear fleet-prod/eu-west-1',
  ]
  // Not the shared profileArg: leaving the profile out clears every credential, it offers no choice.
  static override args = {
    profile: Args.string({
      name: 'PROFILE',
      description:
        'NAME or NAMESPACE/NAME of a ClusterProfile: remove only the credential it would use (omitted: remove every cached credential)',
      required: false,
    }),
  }
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(CACHE_CLEAR_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(CACHE_CLEAR_FLAGS, this.argv, CACHE_CLEAR_USAGE)
    const profile = atMostOneOperand(positionals, CACHE_CLEAR_USAGE)
    const wiring = processWiring()
    const {printer} = wiring
    const result = await clearCache(
      {
        store: await wiring.credentialStore(),
        openHub: () => wiring.sessionHub(hubSelection(flags)),
        federation: () => wiring.federation(() => wiring.hubConnector.loadConfig(hubSelection(flags))),
        providers: wiring.providers,
        notices: printer,
      },
      {profile, providers: {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}},
    )
    if (result.all) printer.note(`Removed ${result.removed} cached credential(s) from ${result.dir}.`)
    else
      printer.note(
        result.removed
          ? `Removed the cached credential of ${profile}.`
          : `No cached credential for ${profile} (as this hub user and provider file).`,
      )
  }
}
