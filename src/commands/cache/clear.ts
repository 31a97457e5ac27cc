import {Command} from '@oclif/core'
import {CredentialStore, defaultCredentialCacheDir} from '../../adapters/credential-store.js'
import {requireProviders} from '../../adapters/providers.js'
import {processPrinter} from '../../adapters/printer.js'
import {resolveAccess} from '../../core/access/resolve-access.js'
import {HUB_FLAGS, PROVIDER_FLAGS} from '../../cli/flags.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../../cli/flag-table.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {profileArg} from '../../cli/profile-args.js'
import {findProfile, parseProfileRef} from '../../usecases/find-profiles.js'
import {pluginRun} from '../../usecases/obtain-credential.js'
import {openSession} from '../../cli/session.js'

const CACHE_CLEAR_FLAGS = {...HUB_FLAGS, ...PROVIDER_FLAGS} as const satisfies FlagTable
const CACHE_CLEAR_USAGE = usageLine('cache clear', '[PROFILE]')

export default class CacheClear extends Command {
  static override summary = 'Remove cached credentials: all of them, or the one a profile would use.'
  static override examples = [
    '<%= config.bin %> cache clear',
    '<%= config.bin %> cache clear fleet-prod/eu-west-1',
  ]
  static override args = {profile: profileArg}
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(CACHE_CLEAR_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(CACHE_CLEAR_FLAGS, this.argv, CACHE_CLEAR_USAGE)
    const profileText = atMostOneOperand(positionals, CACHE_CLEAR_USAGE)
    const printer = processPrinter()
    const store = new CredentialStore(defaultCredentialCacheDir())
    if (!profileText) {
      const removed = await store.clear()
      printer.note(`Removed ${removed} cached credential(s) from ${store.dir}.`)
      return
    }
    // The entry's name is the hash of the resolved identity, so the profile is resolved as
    // `cpcred credential` would resolve it.
    const {hub, providers: loaded} = await openSession(flags, printer)
    const profile = await findProfile(hub, parseProfileRef(profileText), {
      namespace: hub.config.namespace,
      allNamespaces: false,
    })
    const {key} = pluginRun(resolveAccess(profile, requireProviders(loaded)), hub.identity(), hub.pin())
    await hub.client.close()
    const removed = await store.clear([key])
    printer.note(
      removed
        ? `Removed the cached credential of ${profileText}.`
        : `No cached credential for ${profileText} (as this hub user and provider file).`,
    )
  }
}
