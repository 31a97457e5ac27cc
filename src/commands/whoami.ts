import {Command} from '@oclif/core'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../cli/flag-table.js'
import {
  ALL_NAMESPACES_FLAG,
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  PROVIDER_FLAGS,
  DOCUMENT_OUTPUT_FLAG,
} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {profileArg} from '../cli/profile-args.js'
import {processWiring} from '../cli/wiring.js'
import {renderSelf, whoami} from '../usecases/whoami.js'

const WHOAMI_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...PROVIDER_FLAGS,
  'no-cache': CREDENTIAL_RUN_FLAGS['no-cache'],
  'plugin-timeout': CREDENTIAL_RUN_FLAGS['plugin-timeout'],
  ...DOCUMENT_OUTPUT_FLAG,
} as const satisfies FlagTable

const WHOAMI_USAGE = usageLine('whoami', '[PROFILE]')

export default class Whoami extends Command {
  static override summary =
    'Show who the credential for a profile makes you on its cluster (SelfSubjectReview).'
  static override examples = [
    '<%= config.bin %> whoami fleet-prod/eu-west-1',
    '<%= config.bin %> whoami eu-west-1 -n fleet-prod -o json',
  ]
  static override args = {profile: profileArg}
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(WHOAMI_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(WHOAMI_FLAGS, this.argv, WHOAMI_USAGE)
    const profile = atMostOneOperand(positionals, WHOAMI_USAGE)
    const wiring = processWiring()
    const {printer} = wiring
    const providers = {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}
    const review = await whoami(
      {
        // The picker marks the profiles these providers do not reach.
        openHub: () => wiring.sessionHub(hubSelection(flags), providers),
        federation: () => wiring.federation(() => wiring.hubConnector.loadConfig(hubSelection(flags))),
        providers: wiring.providers,
        plugins: wiring.plugins,
        cache: () => wiring.credentialStore(),
        target: wiring.target,
        notices: {
          warn: (message) => printer.warn(message),
          note: (message) => printer.note(message),
          pluginStderr: (text) => printer.text(text, 'stderr'),
        },
      },
      {
        profile,
        allNamespaces: flags['all-namespaces'],
        providers,
        noCache: flags['no-cache'],
        pluginTimeoutMs: flags['plugin-timeout'],
        stdinIsTTY: printer.stdinIsTTY,
      },
    )
    if (flags.output === 'text') printer.cells(renderSelf(review))
    else printer.data(await (await import('../core/text/export.js')).exportData(review, flags.output))
  }
}
