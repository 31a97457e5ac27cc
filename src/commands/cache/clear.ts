import {Command} from '@oclif/core'
import {CredentialStore, defaultCredentialCacheDir} from '../../adapters/credential-store.js'
import {requireProviders} from '../../adapters/providers.js'
import {processPrinter} from '../../adapters/printer.js'
import {resolveAccess} from '../../core/resolve-access.js'
import {HUB_FLAGS, PROVIDER_FLAGS} from '../../cli/flags.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {profileArg} from '../../cli/profile-args.js'
import {findProfile, parseProfileRef} from '../../usecases/find-profiles.js'
import {pluginRun} from '../../usecases/obtain-credential.js'
import {openSession} from '../../cli/session.js'

export default class CacheClear extends Command {
  static override summary = 'Remove cached credentials: all of them, or the one a profile would use.'
  static override examples = [
    '<%= config.bin %> cache clear',
    '<%= config.bin %> cache clear fleet-prod/eu-west-1',
  ]
  static override args = {profile: profileArg}
  static override flags = oclifFlags({...HUB_FLAGS, ...PROVIDER_FLAGS})

  async run(): Promise<void> {
    const {args, flags} = await this.parse(CacheClear)
    const printer = processPrinter()
    const store = new CredentialStore(defaultCredentialCacheDir())
    if (!args.profile) {
      const removed = await store.clear()
      printer.note(`Removed ${removed} cached credential(s) from ${store.dir}.`)
      return
    }
    // The entry's name is the hash of the resolved identity, so the profile is resolved as
    // `cpcred credential` would resolve it.
    const {hub, providers: loaded} = await openSession(flags, printer)
    const profile = await findProfile(hub, parseProfileRef(args.profile), {
      namespace: hub.config.namespace,
      allNamespaces: false,
    })
    const {key} = pluginRun(resolveAccess(profile, requireProviders(loaded)), hub.identity(), hub.pin())
    await hub.client.close()
    const removed = await store.clear([key])
    printer.note(
      removed
        ? `Removed the cached credential of ${args.profile}.`
        : `No cached credential for ${args.profile} (as this hub user and provider file).`,
    )
  }
}
