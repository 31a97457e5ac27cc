// `cpcred whoami [PROFILE]`: its flags, its ports from the wiring, and how the review is shown
// (src/commands/whoami.ts gives it help text).
import {atMostOneOperand, parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  ALL_NAMESPACES_FLAG,
  CREDENTIAL_RUN_FLAGS,
  DOCUMENT_OUTPUT_FLAG,
  HUB_FLAGS,
  hubSelection,
  PROVIDER_FLAGS,
} from './flags.js'
import {present} from './present.js'
import type {Wiring} from './wiring.js'
import {renderSelf, whoamiCommand} from '../usecases/whoami.js'

export const WHOAMI_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...PROVIDER_FLAGS,
  'no-cache': CREDENTIAL_RUN_FLAGS['no-cache'],
  'plugin-timeout': CREDENTIAL_RUN_FLAGS['plugin-timeout'],
  ...DOCUMENT_OUTPUT_FLAG,
} as const satisfies FlagTable

const WHOAMI_USAGE = usageLine('whoami', '[PROFILE]')

/** What the words of `cpcred whoami` ask for. */
export interface WhoamiRequest {
  flags: FlagValues<typeof WHOAMI_FLAGS>
  /** The profile named, if any (else one is picked). */
  profile: string | undefined
}

/** The words of `cpcred whoami`, read and checked without the hub. */
export function parseWhoami(argv: string[], _env: NodeJS.ProcessEnv = {}): WhoamiRequest {
  const {flags, positionals} = parseFlags(WHOAMI_FLAGS, argv, WHOAMI_USAGE)
  return {flags, profile: atMostOneOperand(positionals, WHOAMI_USAGE)}
}

export async function runWhoami(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, profile} = parseWhoami(argv, wiring.env)
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
      notices: wiring.notices,
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
  await present(printer, flags.output, review, {
    text: (outcome) => printer.cells(renderSelf(outcome)),
    data: (outcome) => outcome,
  })
}
