// `cpcred credential <profile>`: cpcred as an exec credential plugin. kubectl runs it on every
// command through a `--mode cpcred` kubeconfig, so it starts without oclif (its flag table is read
// by cli/flag-table.ts, in kubectl's grammar) and loads only what the warm path needs. stdout
// carries the ExecCredential and nothing else.
import {UsageError} from '../core/errors.js'
import {EXEC_API_V1, EXEC_API_VERSIONS, type ExecApiVersion} from '../core/access/exec-config.js'
import {EXEC_INFO_ENV} from '../core/exec-credential/protocol.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  pipelineInput,
  PROVIDER_FLAGS,
  VERBOSE_FLAG,
} from './flags.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {parseProfileRef, type ProfileRef} from '../usecases/profile-ref.js'
import type {Wiring} from './wiring.js'
import {questionOf} from './answer-question.js'

export const CREDENTIAL_USAGE = usageLine('credential', 'NAMESPACE/NAME')

/** The flags of `cpcred credential`, read by this fast path and by the oclif class for help. */
export const CREDENTIAL_FLAGS = {
  ...HUB_FLAGS,
  ...PROVIDER_FLAGS,
  ...CREDENTIAL_RUN_FLAGS,
  ...VERBOSE_FLAG,
} as const satisfies FlagTable

/** What the words of `cpcred credential` (and KUBERNETES_EXEC_INFO) ask for. */
export interface CredentialRequest {
  /** The profile named. */
  ref: ProfileRef
  /** The ExecCredential apiVersion kubectl asked for. */
  apiVersion: ExecApiVersion
  flags: FlagValues<typeof CREDENTIAL_FLAGS>
}

/** The words of `cpcred credential` and KUBERNETES_EXEC_INFO, read and checked without the hub. */
export function parseCredential(argv: string[], env: NodeJS.ProcessEnv = {}): CredentialRequest {
  const {flags, positionals} = parseFlags(CREDENTIAL_FLAGS, argv, CREDENTIAL_USAGE)
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length ? `expected one profile, got ${positionals.length}` : 'a profile is required',
      CREDENTIAL_USAGE,
    )
  }
  const apiVersion = requestedApiVersion(env[EXEC_INFO_ENV])
  return {ref: parseProfileRef(positionals[0]!), apiVersion, flags}
}

/** The ExecCredential apiVersion kubectl asked for in KUBERNETES_EXEC_INFO; v1 when run by hand. */
export function requestedApiVersion(execInfo: string | undefined): ExecApiVersion {
  if (!execInfo) return EXEC_API_V1
  try {
    const apiVersion = (JSON.parse(execInfo) as {apiVersion?: string}).apiVersion
    if (apiVersion && (EXEC_API_VERSIONS as readonly string[]).includes(apiVersion))
      return apiVersion as ExecApiVersion
  } catch {
    // fall through to the error below
  }
  throw new UsageError(
    `${EXEC_INFO_ENV} does not name a supported ExecCredential apiVersion (${EXEC_API_VERSIONS.join(', ')})`,
  )
}

export async function runCredential(wiring: Wiring, argv: string[]): Promise<void> {
  const {ref, apiVersion, flags} = parseCredential(argv, wiring.env)
  const {credentialCommand} = await import('../usecases/credential.js')
  let recent: ReturnType<typeof wiring.recentProfiles> | undefined
  const recentProfiles = () => (recent ??= wiring.recentProfiles(hubSelection(flags), flags['api-version']))
  await credentialCommand(
    {
      recentProfiles,
      federation: () => wiring.federation(async () => (await recentProfiles()).hubConfig()),
      providers: wiring.providers,
      plugins: wiring.plugins,
      store: (onProblem) => wiring.credentialStore(onProblem),
      answers: (store) => wiring.answers(store),
      stdinIsTTY: () => wiring.stdinIsTerminal(),
      notices: wiring.notices,
      print: (output) => wiring.printer.data(output),
    },
    {
      question: questionOf(['credential', ...argv]),
      ref,
      apiVersion,
      ...pipelineInput(flags),
    },
  )
}
