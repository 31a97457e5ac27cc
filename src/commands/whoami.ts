import {FrontCommand} from '../cli/front-command.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {profileArg} from '../cli/profile-args.js'
import {WHOAMI_FLAGS} from '../cli/whoami.js'

export default class Whoami extends FrontCommand {
  static override summary =
    'Show who the credential for a profile makes you on its cluster (SelfSubjectReview).'
  static override examples = [
    '<%= config.bin %> whoami fleet-prod/eu-west-1',
    '<%= config.bin %> whoami eu-west-1 -n fleet-prod -o json',
  ]
  static override args = {profile: profileArg}
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(WHOAMI_FLAGS)
}
