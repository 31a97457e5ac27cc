// `cpcred describe [PROFILE]`: its flags, and how the description is shown (src/commands/describe.ts
// gives it help text).
import {atMostOneOperand, parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {ALL_NAMESPACES_FLAG, DOCUMENT_OUTPUT_FLAG, HUB_FLAGS, PROVIDER_FLAGS} from './flags.js'
import {present} from './present.js'
import type {Wiring} from './wiring.js'

export const DESCRIBE_FLAGS = {
  ...HUB_FLAGS,
  ...ALL_NAMESPACES_FLAG,
  ...PROVIDER_FLAGS,
  'show-env': {
    kind: 'boolean',
    summary: "Show the values of the plugin's environment variables (redacted by default).",
  },
  ...DOCUMENT_OUTPUT_FLAG,
} as const satisfies FlagTable

const DESCRIBE_USAGE = usageLine('describe', '[PROFILE]')

/** What the words of `cpcred describe` ask for. */
export interface DescribeRequest {
  flags: FlagValues<typeof DESCRIBE_FLAGS>
  /** The profile named, if any (else one is picked). */
  profile: string | undefined
}

/** The words of `cpcred describe`, read and checked without the hub. */
export function parseDescribe(argv: string[], _env: NodeJS.ProcessEnv = {}): DescribeRequest {
  const {flags, positionals} = parseFlags(DESCRIBE_FLAGS, argv, DESCRIBE_USAGE)
  return {flags, profile: atMostOneOperand(positionals, DESCRIBE_USAGE)}
}

export async function runDescribe(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, profile} = parseDescribe(argv, wiring.env)
  const [{describeCommand}, {describeProfile, describeProfileData}] = await Promise.all([
    import('../usecases/describe-profile.js'),
    import('../core/describe/describe.js'),
  ])
  const {printer} = wiring
  const {hub, providers} = await wiring.session(flags)
  const described = await describeCommand(
    {hub, chooser: wiring.chooser('Which ClusterProfile?')},
    {
      profile,
      scope: {namespace: hub.config.namespace, allNamespaces: flags['all-namespaces']},
      providers: providers.providers,
      providerSource: providers.source,
      showEnv: flags['show-env'],
      now: new Date(),
    },
  )
  await present(printer, flags.output, described, {
    text: (outcome) => printer.cells(describeProfile(outcome)),
    data: describeProfileData,
  })
}
