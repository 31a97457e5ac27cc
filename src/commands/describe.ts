import {Command} from '@oclif/core'
import {processPrinter} from '../adapters/printer.js'
import {describeProfile, describeProfileData} from '../core/describe/describe.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../cli/flag-table.js'
import {ALL_NAMESPACES_FLAG, HUB_FLAGS, PROVIDER_FLAGS} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {chosenProfile, profileArg} from '../cli/profile-args.js'
import {exportData} from '../core/text/export.js'
import {openSession} from '../cli/session.js'

const DESCRIBE_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...PROVIDER_FLAGS,
  'show-env': {
    kind: 'boolean',
    summary: "Show the values of the plugin's environment variables (redacted by default).",
  },
  output: {
    kind: 'option',
    char: 'o',
    summary: 'Output format.',
    options: ['text', 'json', 'yaml'],
    default: 'text',
  },
} as const satisfies FlagTable

const DESCRIBE_USAGE = usageLine('describe', '[PROFILE]')

export default class Describe extends Command {
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

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(DESCRIBE_FLAGS, this.argv, DESCRIBE_USAGE)
    const profileText = atMostOneOperand(positionals, DESCRIBE_USAGE)
    const printer = processPrinter()
    const {hub, providers: loaded} = await openSession(flags, printer)
    const profile = await chosenProfile(hub, profileText, flags['all-namespaces'], printer)
    const input = {
      profile,
      clusterset: await hub.clustersetOf(profile.metadata.namespace ?? ''),
      providers: loaded.providers,
      providerSource: loaded.source,
      now: new Date(),
      showEnv: flags['show-env'],
      hubPin: hub.pin(),
    }
    if (flags.output === 'text') {
      printer.cells(describeProfile(input))
      return
    }
    const data = describeProfileData(input)
    printer.data(await exportData(data, flags.output))
  }
}
