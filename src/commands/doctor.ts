import {Args} from '@oclif/core'
import {FrontCommand} from '../cli/front-command.js'
import {DOCTOR_FLAGS} from '../cli/doctor.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class Doctor extends FrontCommand {
  static override summary =
    'Walk the chain from the hub to a cluster, name the link that is broken, and how to fix it.'
  static override description = `Checks, in order: the hub kubeconfig, the hub's TLS, who you are on the hub and whether you may read ClusterProfiles, the ClusterProfile API, the provider file; and for a profile: which provider matches and why, the plugin command, whether kubectl's credential-plugin policy (its kuberc) lets it run the plugin and cpcred, a fresh run of the plugin, the target's TLS, whether the target accepts the credential and what it may do there (with --can, one action), the clocks, and the credential cache. Nothing is changed: the plugin runs without the cache, and no credential is ever printed.

Without a profile only the hub and the provider file are checked; with -A, -l or --all every selected profile gets one line. Exit code: 0 when nothing failed, else that of the first failure (3 unreachable or not served, 4 denied, 5 plugin, 1 anything else).`
  static override examples = [
    '<%= config.bin %> doctor fleet-prod/eu-west-1',
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor -A -l env=prod',
    '<%= config.bin %> doctor fleet-prod/eu-west-1 -o json | jq \'.profiles[0].checks[] | select(.status == "fail")\'',
  ]
  static override args = {
    profile: Args.string({
      name: 'PROFILE',
      description:
        'NAME or NAMESPACE/NAME of a ClusterProfile (without one: the hub and the provider file only)',
      required: false,
    }),
  }
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(DOCTOR_FLAGS)
}
