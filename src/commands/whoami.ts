import {Command} from '@oclif/core'
import {CredentialStore, defaultCredentialCacheDir} from '../adapters/credential-store.js'
import {pluginRunner} from '../adapters/process.js'
import {requireProviders} from '../adapters/providers.js'
import {processPrinter} from '../adapters/printer.js'
import {resolveAccess} from '../core/access/resolve-access.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../cli/flag-table.js'
import {ALL_NAMESPACES_FLAG, CREDENTIAL_RUN_FLAGS, HUB_FLAGS, PROVIDER_FLAGS} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {chosenProfile, profileArg} from '../cli/profile-args.js'
import {obtainCredential} from '../usecases/obtain-credential.js'
import {renderSelf, reviewSelf} from '../usecases/whoami.js'
import {exportData} from '../core/text/export.js'
import {openSession} from '../cli/session.js'

const WHOAMI_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...PROVIDER_FLAGS,
  'no-cache': CREDENTIAL_RUN_FLAGS['no-cache'],
  'plugin-timeout': CREDENTIAL_RUN_FLAGS['plugin-timeout'],
  output: {
    kind: 'option',
    char: 'o',
    summary: 'Output format.',
    options: ['table', 'json', 'yaml'],
    default: 'table',
  },
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
    const profileText = atMostOneOperand(positionals, WHOAMI_USAGE)
    const printer = processPrinter()
    const {hub, providers: loaded} = await openSession(flags, printer)
    const profile = await chosenProfile(hub, profileText, flags['all-namespaces'], printer)
    const resolution = resolveAccess(profile, requireProviders(loaded))
    for (const warning of resolution.warnings) printer.warn(warning)
    const {credential} = await obtainCredential(
      {
        runner: pluginRunner,
        cache: flags['no-cache'] ? undefined : new CredentialStore(defaultCredentialCacheDir()),
      },
      {
        resolution,
        hubIdentity: hub.identity(),
        hubPin: hub.pin(),
        stdinIsTTY: printer.stdinIsTTY,
        timeoutMs: flags['plugin-timeout'],
        onPluginStderr: (text) => printer.text(text, 'stderr'),
      },
    )
    await hub.client.close()
    const review = await reviewSelf(resolution, credential)
    if (flags.output === 'table') printer.cells(renderSelf(review))
    else printer.data(await exportData(review, flags.output))
  }
}
