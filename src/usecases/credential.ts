// `cpcred credential PROFILE`: the credential pipeline in a straight line, for kubectl. The result
// is the ExecCredential text for stdout; everything else goes to the notices (stderr).
import type {ExecApiVersion} from '../core/access/exec-config.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {describeCredential, renderExecCredential} from '../core/exec-credential/protocol.js'
import {
  keepAnswer,
  obtainFor,
  openCredentialRun,
  openFederation,
  profileFreshness,
  readRecentProfile,
  resolveProfile,
  seconds,
  staleProfileWarning,
  type PipelineInput,
  type PipelinePorts,
} from './credential-pipeline.js'
import {describeFederation} from './federated-token.js'
import type {ProfileRef} from './profile-ref.js'
import type {AnswerQuestion, Notices} from './ports.js'

export interface CredentialInput extends PipelineInput {
  /** The question of this command line, for the answer kept for the next identical one (none: not kept). */
  question?: AnswerQuestion
  ref: ProfileRef
  apiVersion: ExecApiVersion
}

export interface CredentialPorts extends PipelinePorts {
  /** Asked only if the plugin runs: creating process.stdin costs a warm run milliseconds. */
  stdinIsTTY(): boolean
  notices: Notices
  /** stdout: the ExecCredential and nothing else. */
  print(output: string): void
}

/** Prints the ExecCredential, then keeps it as the answer to the same question when it may be. */
export async function credentialCommand(ports: CredentialPorts, input: CredentialInput): Promise<void> {
  const {notices} = ports
  const {store, draft, hub: recent, providers} = await openCredentialRun(ports, input, input.question)
  const {profile, snapshot, stale} = await readRecentProfile(recent, input.ref, profileFreshness(input))
  const resolution = resolveProfile(profile, providers)
  const warnings = [
    ...(stale ? [staleProfileWarning(resolution.profile, stale)] : []),
    ...providers.warnings,
    ...resolution.warnings,
  ]
  for (const warning of warnings) notices.warn(warning)

  const federation = openFederation(ports)
  let obtained
  try {
    obtained = await obtainFor({plugins: ports.plugins, cache: store, federation}, recent.hub, resolution, {
      get stdinIsTTY() {
        return ports.stdinIsTTY()
      },
      timeoutMs: input.pluginTimeoutMs,
      ttlSeconds: seconds(input.cacheTtlMs),
      lifetimeRule: lifetimeRule(seconds(input.minCredentialLifetimeMs), false),
      cacheOnly: stale?.reason,
      onPluginStderr: (text) => notices.pluginStderr(text),
    })
  } finally {
    await federation?.close()
  }
  if (input.verbose && obtained.federation) {
    notices.note(
      `provider "${resolution.provider.name}" federates: ${describeFederation(obtained.federation)}`,
    )
  }
  if (input.verbose) {
    notices.note(
      `credential for ${resolution.profile} via provider "${resolution.provider.name}": ` +
        `${describeCredential(obtained.credential)}, ${obtained.fromCache ? 'from the cache' : 'from the plugin'}`,
    )
  }
  const output = `${renderExecCredential(obtained.credential, input.apiVersion)}\n`
  ports.print(output)
  await keepAnswer(draft, output, {
    obtained,
    snapshot,
    profileMaxAgeMs: input.profileMaxAgeMs,
    warned: warnings.length > 0,
  })
}
