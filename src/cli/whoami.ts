// `cpcred whoami [PROFILE]`: its flags, its ports from the wiring, and how the review is shown
// (src/commands/whoami.ts gives it help text).
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from './flag-table.js'
import {ALL_NAMESPACES_FLAG, CREDENTIAL_RUN_FLAGS, HUB_FLAGS, hubSelection, PROVIDER_FLAGS} from './flags.js'
import {wire} from './wiring.js'
import {renderSelf, whoamiCommand} from '../usecases/whoami.js'

export const WHOAMI_FLAGS = {
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

export async function runWhoami(argv: string[]): Promise<void> {
  const {flags, positionals} = parseFlags(WHOAMI_FLAGS, argv, WHOAMI_USAGE)
  const profile = atMostOneOperand(positionals, WHOAMI_USAGE)
  const wiring = wire()
  const {printer} = wiring
  const providers = {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}
  const review = await whoamiCommand(
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
  if (flags.output === 'table') printer.cells(renderSelf(review))
  else printer.data(await (await import('../core/text/export.js')).exportData(review, flags.output))
}
