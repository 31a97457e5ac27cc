import {FrontCommand} from '../cli/front-command.js'
import {DESCRIBE_FLAGS} from '../cli/describe.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {profileArg} from '../cli/profile-args.js'

export default class Describe extends FrontCommand {
  static override summary =
    'Show everything about one ClusterProfile and which plugin would reach its cluster.'
  static override examples = [
    '<%= config.bin %> describe eu-west-1 -n fleet-prod',
    '<%= config.bin %> describe fleet-prod/eu-west-1 --show-env',
    '<%= config.bin %> describe fleet-prod/eu-west-1 -o json | jq .resolution',
  ]
  static override args = {profile: profileArg}
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(DESCRIBE_FLAGS)
}
