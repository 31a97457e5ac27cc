// `cpcred cache clear [PROFILE]`: its flags, its ports from the wiring, and what is said of what
// was removed (src/commands/cache/clear.ts gives it help text).
import {HUB_FLAGS, hubSelection, PROVIDER_FLAGS} from './flags.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import type {Wiring} from './wiring.js'
import {cacheClearCommand} from '../usecases/cache-clear.js'

export const CACHE_CLEAR_FLAGS = {...HUB_FLAGS, ...PROVIDER_FLAGS} as const satisfies FlagTable
const CACHE_CLEAR_USAGE = usageLine('cache clear', '[PROFILE]')

/** What the words of `cpcred cache clear` ask for. */
export interface CacheClearRequest {
  flags: FlagValues<typeof CACHE_CLEAR_FLAGS>
  /** The profile whose credential goes; none: every cached credential. */
  profile: string | undefined
}

/** The words of `cpcred cache clear`, read and checked without the hub or the cache. */
export function parseCacheClear(argv: string[], _env: NodeJS.ProcessEnv = {}): CacheClearRequest {
  const {flags, positionals} = parseFlags(CACHE_CLEAR_FLAGS, argv, CACHE_CLEAR_USAGE)
  return {flags, profile: atMostOneOperand(positionals, CACHE_CLEAR_USAGE)}
}

export async function runCacheClear(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, profile} = parseCacheClear(argv, wiring.env)
  const {printer} = wiring
  const outcome = await cacheClearCommand(
    {
      store: await wiring.credentialStore(),
      openHub: () => wiring.sessionHub(hubSelection(flags)),
      federation: () => wiring.federation(() => wiring.hubConnector.loadConfig(hubSelection(flags))),
      providers: wiring.providers,
      notices: wiring.notices,
    },
    {profile, providers: {providerFile: flags['provider-file'], accessProviders: flags['access-provider']}},
  )
  if (outcome.all) printer.note(`Removed ${outcome.removed} cached credential(s) from ${outcome.dir}.`)
  else
    printer.note(
      outcome.removed
        ? `Removed the cached credential of ${profile}.`
        : `No cached credential for ${profile} (as this hub user and provider file).`,
    )
}
