// Runs one exec credential plugin to the letter of the client-go protocol: KUBERNETES_EXEC_INFO in,
// an ExecCredential of the same apiVersion out, every failure named after the plugin (exit code 5).
import {EXEC_EXTENSION, type ProfileCluster} from '../core/profiles/cluster-profile.js'
import {CpcredError, ExitCode, signalExitCode} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import {
  buildExecInfo,
  decideInteractive,
  EXEC_INFO_ENV,
  parseExecCredential,
  type Credential,
} from '../core/exec-credential/protocol.js'
import type {ExecConfig} from '../core/access/exec-config.js'
import {missingCommandHint} from '../core/access/plugin-commands.js'
import type {PluginProcessRunner} from './ports.js'

export const DEFAULT_PLUGIN_TIMEOUT_MS = 2 * 60 * 1000
const MAX_STDOUT_BYTES = 1024 * 1024

export interface RunPluginInput {
  exec: ExecConfig
  /** The target cluster, passed to the plugin when provideClusterInfo is true. */
  cluster?: ProfileCluster
  /** The client.authentication.k8s.io/exec extension value (spec.cluster.config). */
  clusterConfig?: unknown
  /** Names the plugin in messages, e.g. `provider "x" (/usr/bin/plugin)`. */
  label: string
  /** `namespace/name` of the profile the plugin runs for, when there is one. */
  profile?: string
  stdinIsTTY: boolean
  timeoutMs?: number
  /** Receives what a successful plugin wrote on stderr (it belongs to the user, as in client-go). */
  onStderr?: (text: string) => void
  /** Set by cpcred over the provider's env (the token file of a serviceAccountToken block). */
  extraEnv?: Record<string, string>
}

export async function runPlugin(runner: PluginProcessRunner, input: RunPluginInput): Promise<Credential> {
  const {exec, label} = input
  const interactive = decideInteractive(exec.interactiveMode, exec.apiVersion, input.stdinIsTTY, label)
  const env: Record<string, string> = {}
  for (const variable of exec.env ?? []) env[variable.name] = variable.value
  Object.assign(env, input.extraEnv)
  env[EXEC_INFO_ENV] = buildExecInfo(
    exec,
    exec.provideClusterInfo ? input.cluster : undefined,
    input.clusterConfig,
    interactive,
  )

  const timeoutMs = input.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS
  const result = await runner.run({
    command: exec.command,
    args: exec.args ?? [],
    env,
    interactive,
    timeoutMs,
    maxStdoutBytes: MAX_STDOUT_BYTES,
  })
  const stderr = stderrExcerpt(result.stderr)
  if (result.notFound) {
    throw new CpcredError(`${label}: command not found: ${exec.command}`, {
      exitCode: ExitCode.PluginFailed,
      hint:
        exec.installHint?.trim() ||
        missingCommandHint(exec.command, 'install the plugin or fix execConfig.command in the provider file'),
    })
  }
  if (result.startError === 'E2BIG') throw tooLargeToStart(input, env)
  if (result.startError) {
    throw new CpcredError(`${label} could not be started (${result.startError}): ${exec.command}`, {
      exitCode: ExitCode.PluginFailed,
      hint: 'check that the command is an executable file (chmod +x) and that you may run it',
    })
  }
  if (result.interrupted) {
    throw new CpcredError(`${label} was stopped: cpcred received ${result.interrupted}${stderr}`, {
      exitCode: signalExitCode(result.interrupted),
    })
  }
  if (result.timedOut) {
    throw new CpcredError(
      `${label} did not finish within ${formatDuration(timeoutMs)} and was stopped (with its child processes)${stderr}`,
      {
        exitCode: ExitCode.PluginFailed,
        hint: 'a plugin that waits for input needs a terminal; raise the limit with --plugin-timeout',
      },
    )
  }
  if (result.outputTooLarge) {
    throw new CpcredError(
      `${label} printed more than ${MAX_STDOUT_BYTES} bytes on stdout, which is not an ExecCredential, and was stopped`,
      {exitCode: ExitCode.PluginFailed},
    )
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === undefined
        ? `was killed${result.signal ? ` by ${result.signal}` : ''}`
        : `exited with code ${result.exitCode}`
    throw new CpcredError(`${label} ${how}${stderr}`, {exitCode: ExitCode.PluginFailed})
  }
  const credential = parseExecCredential(result.stdout, exec.apiVersion, label)
  // client-go would send it, get a 401 and run the plugin again, to the same end.
  if (credential.expiresAt && credential.expiresAt.getTime() <= Date.now()) {
    throw new CpcredError(
      `${label} returned a credential that had already expired (at ${credential.expirationTimestamp})`,
      {
        exitCode: ExitCode.PluginFailed,
        hint: "check the plugin's own cache, and that this machine's clock is right (date -u)",
      },
    )
  }
  // The plugin's stderr is the user's, but CI logs keep it forever: what it says about the
  // credential it just returned (a debug line with the token) is cut out before it is shown.
  if (result.stderr) input.onStderr?.(redactCredential(result.stderr, credential))
  return credential
}

/**
 * The OS refused to start the plugin: its arguments and environment exceed ARG_MAX (or one variable
 * exceeds MAX_ARG_STRLEN, 128 KiB on Linux). KEP-5339 warns that KUBERNETES_EXEC_INFO, which carries
 * the profile's exec extension, can get there.
 */
function tooLargeToStart(input: RunPluginInput, env: Record<string, string>): CpcredError {
  const bytes = (text: string) => Buffer.byteLength(text)
  const execInfo = bytes(env[EXEC_INFO_ENV] ?? '')
  const total =
    [input.exec.command, ...(input.exec.args ?? [])].reduce((sum, arg) => sum + bytes(arg) + 1, 0) +
    Object.entries({...process.env, ...env}).reduce(
      (sum, [name, value]) => sum + bytes(`${name}=${value}`) + 1,
      0,
    )
  const profile = input.profile ? ` for ClusterProfile ${input.profile}` : ''
  return new CpcredError(
    `${input.label}${profile} could not be started: its arguments and environment (${total} bytes, ` +
      `${EXEC_INFO_ENV} ${execInfo} bytes) exceed the operating system's limit (E2BIG)`,
    {
      exitCode: ExitCode.PluginFailed,
      hint:
        `the profile's ${EXEC_EXTENSION} extension travels in ${EXEC_INFO_ENV}: ask its cluster manager to ` +
        'make it smaller, or set provideClusterInfo to false for this provider if the plugin does not need it',
    },
  )
}

const REDACTED = '<redacted>'

/**
 * `text` without the secrets of `credential`: the token, the key and the certificate data, whole,
 * base64-encoded, and line by line (a PEM body logged on its own, or wrapped differently).
 */
export function redactCredential(text: string, credential: Credential): string {
  const secrets = new Set<string>()
  for (const value of [credential.token, credential.clientKeyData, credential.clientCertificateData]) {
    if (!value) continue
    secrets.add(value.trim())
    secrets.add(Buffer.from(value).toString('base64'))
    for (const line of value.split(/\r?\n/)) {
      // PEM body lines; the armour lines (-----BEGIN …) are not secret and too common to cut.
      if (line.length >= 16 && !line.startsWith('-----')) secrets.add(line.trim())
    }
  }
  let redacted = text
  // Longest first, so a whole PEM goes before its lines.
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    redacted = redacted.split(secret).join(REDACTED)
  }
  return redacted
}

/** The plugin's own stderr, for the error message: it is the user's to see (and never ours to log). */
function stderrExcerpt(stderr: string): string {
  const text = stderr.trim()
  if (!text) return ''
  const lines = text.split('\n')
  const tail = lines.slice(-20).join('\n')
  return `; its stderr${lines.length > 20 ? ' (last 20 lines)' : ''}:\n${tail}`
}

export function pluginLabel(providerName: string | undefined, command: string): string {
  return providerName ? `provider "${providerName}" (${command})` : `exec plugin ${command}`
}
