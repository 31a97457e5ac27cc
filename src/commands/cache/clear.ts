import {Args} from '@oclif/core'
import {FrontCommand} from '../../cli/front-command.js'
import {CACHE_CLEAR_FLAGS} from '../../cli/cache-clear.js'
import {oclifFlags} from '../../cli/oclif-flags.js'

export default class CacheClear extends FrontCommand {
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
}
