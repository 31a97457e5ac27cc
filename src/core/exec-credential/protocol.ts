// The client-go exec credential protocol (KEP-541, client.authentication.k8s.io/v1 and v1beta1), as
// client-go's plugin/pkg/client/auth/exec/exec.go speaks it: what a plugin is told in KUBERNETES_EXEC_INFO,
// how its stdout is judged, and the ExecCredential cpcred itself prints when kubectl runs it as a plugin.
// Pure: the caller says whether stdin is a terminal and does the running.

import type {ProfileCluster} from '../profiles/cluster-profile.js'
import {toExecInfoCluster} from '../access/connection.js'
import {CpcredError, ExitCode} from '../errors.js'
import {EXEC_API_V1, EXEC_API_VERSIONS, INTERACTIVE_MODES} from '../access/exec-config.js'
import type {ExecApiVersion, ExecConfig, InteractiveMode} from '../access/exec-config.js'

export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO'
export const EXEC_CREDENTIAL_KIND = 'ExecCredential'

/** What a plugin returned. The secrets are here and nowhere else: never log or print this object. */
export interface Credential {
  token?: string
  /** PEM, with intermediates if any. */
  clientCertificateData?: string
  /** PEM. */
  clientKeyData?: string
  /** As the plugin wrote it (RFC 3339). */
  expirationTimestamp?: string
  /** expirationTimestamp, parsed. */
  expiresAt?: Date
}

/**
 * Whether the plugin gets stdin, with client-go's rules: v1 has no default, v1beta1 defaults to IfAvailable,
 * IfAvailable means "stdin is a terminal", and Always fails before the plugin runs when it is not — so a CI
 * job fails at once instead of hanging on a prompt nobody can answer.
 */
export function decideInteractive(
  mode: InteractiveMode | undefined,
  apiVersion: ExecApiVersion,
  stdinIsTTY: boolean,
  pluginLabel: string,
): boolean {
  if (!(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) {
    throw new CpcredError(`${pluginLabel} has an unsupported execConfig.apiVersion "${apiVersion}"`, {
      hint: `Use one of ${EXEC_API_VERSIONS.join(', ')} in the provider file.`,
    })
  }
  const effective = mode ?? (apiVersion === EXEC_API_V1 ? undefined : 'IfAvailable')
  switch (effective) {
    case 'Never':
      return false
    case 'IfAvailable':
      return stdinIsTTY
    case 'Always':
      if (!stdinIsTTY) {
        throw new CpcredError(
          `${pluginLabel} needs an interactive terminal (interactiveMode Always), but standard input is not a terminal`,
          {
            exitCode: ExitCode.PluginFailed,
            hint: 'Run the command from a terminal, or use a provider whose plugin can run without one (interactiveMode IfAvailable or Never).',
          },
        )
      }
      return true
    case undefined:
      throw new CpcredError(
        `${pluginLabel} has no execConfig.interactiveMode, which ${EXEC_API_V1} requires`,
        {
          hint: `Set interactiveMode to one of ${INTERACTIVE_MODES.join(', ')} in the provider file.`,
        },
      )
    default:
      throw new CpcredError(
        `${pluginLabel} has an invalid execConfig.interactiveMode "${String(effective)}"`,
        {
          hint: `Use one of ${INTERACTIVE_MODES.join(', ')} in the provider file.`,
        },
      )
  }
}

/**
 * The KUBERNETES_EXEC_INFO value. Shape, key order and omissions follow client-go's encoding of its
 * clientauthentication Cluster: server always, the optional strings and booleans only when set, CA data as
 * base64 of the bytes, and `config` always — null when the cluster has no client.authentication.k8s.io/exec
 * extension, because client-go marshals an empty runtime.RawExtension as null.
 */
export function buildExecInfo(
  exec: ExecConfig,
  cluster: ProfileCluster | undefined,
  clusterConfig: unknown,
  interactive: boolean,
): string {
  const spec: Record<string, unknown> = {}
  if (exec.provideClusterInfo === true) {
    if (cluster === undefined) {
      throw new CpcredError(
        `provideClusterInfo is set for ${exec.command}, but the profile gives no cluster connection to pass to it`,
      )
    }
    spec.cluster = toExecInfoCluster(cluster, clusterConfig)
  }
  spec.interactive = interactive
  return JSON.stringify({kind: EXEC_CREDENTIAL_KIND, apiVersion: exec.apiVersion, spec})
}

/**
 * Reads a plugin's stdout as strictly as client-go does, and a little more: stdout must be exactly one
 * JSON ExecCredential (client-go would also take YAML; no real plugin writes it, and a log line on stdout
 * deserves a clear error). Messages name the plugin and the rule broken, never a value that could be secret.
 * A token together with a certificate is accepted, as client-go does (bearer token plus TLS client cert).
 */
export function parseExecCredential(
  stdout: string,
  expectedApiVersion: ExecApiVersion,
  pluginLabel: string,
): Credential {
  const fail = (what: string, hint?: string): CpcredError =>
    new CpcredError(`${pluginLabel} gave invalid output: ${what}`, {exitCode: ExitCode.PluginFailed, hint})
  const stdoutOnly =
    'A plugin must print only the ExecCredential JSON on stdout; logs and prompts belong on stderr.'

  const text = stdout.trim()
  if (text === '') throw fail('nothing on stdout, expected an ExecCredential JSON object')
  const document = parseJsonDocument(text)
  if (document.kind === 'invalid') throw fail(document.problem, stdoutOnly)
  const object = document.value
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw fail('stdout is JSON but not an object, expected an ExecCredential', stdoutOnly)
  }
  const root = object as Record<string, unknown>
  const status = root.status
  const secrets = collectSecrets(status)

  if (root.kind === undefined || root.kind === null || root.kind === '') {
    throw fail(`the JSON has no kind, expected "${EXEC_CREDENTIAL_KIND}"`)
  }
  if (root.kind !== EXEC_CREDENTIAL_KIND) {
    const kind = shown(root.kind, secrets)
    throw fail(
      kind === undefined
        ? `kind is not "${EXEC_CREDENTIAL_KIND}"`
        : `kind is ${kind}, expected "${EXEC_CREDENTIAL_KIND}"`,
    )
  }
  if (root.apiVersion === undefined || root.apiVersion === null || root.apiVersion === '') {
    throw fail(`the ExecCredential has no apiVersion, expected "${expectedApiVersion}"`)
  }
  if (root.apiVersion !== expectedApiVersion) {
    const apiVersion = shown(root.apiVersion, secrets)
    throw fail(
      apiVersion === undefined
        ? `apiVersion is not "${expectedApiVersion}", the version the plugin was run with`
        : `apiVersion is ${apiVersion}, but the plugin was run with "${expectedApiVersion}"`,
      'The provider file must name the apiVersion the plugin speaks (execConfig.apiVersion).',
    )
  }

  if (status === undefined || status === null) throw fail('the ExecCredential has no status')
  if (typeof status !== 'object' || Array.isArray(status)) throw fail('status is not an object')
  const fields = status as Record<string, unknown>
  const token = optionalString(fields, 'token', fail)
  const clientCertificateData = optionalString(fields, 'clientCertificateData', fail)
  const clientKeyData = optionalString(fields, 'clientKeyData', fail)
  const expirationTimestamp = optionalString(fields, 'expirationTimestamp', fail)

  if (!token && !clientCertificateData && !clientKeyData) {
    throw fail('status has neither a token nor a client certificate and key')
  }
  if (clientCertificateData && !clientKeyData)
    throw fail('status has clientCertificateData but no clientKeyData')
  if (clientKeyData && !clientCertificateData)
    throw fail('status has clientKeyData but no clientCertificateData')

  const credential: Credential = {}
  if (token) credential.token = token
  if (clientCertificateData && clientKeyData) {
    credential.clientCertificateData = clientCertificateData
    credential.clientKeyData = clientKeyData
  }
  // metav1.Time reads an empty string as an error and a JSON null as "no expiry"; the same here.
  if (expirationTimestamp !== undefined) {
    const expiresAt = parseRfc3339(expirationTimestamp)
    if (expiresAt === undefined) {
      const timestamp = shown(expirationTimestamp, secrets)
      throw fail(
        `status.expirationTimestamp ${timestamp === undefined ? '' : `${timestamp} `}is not an RFC 3339 time`,
      )
    }
    credential.expirationTimestamp = expirationTimestamp
    credential.expiresAt = expiresAt
  }
  return credential
}

type JsonDocument = {kind: 'ok'; value: unknown} | {kind: 'invalid'; problem: string}

// JSON.parse's own messages quote the input, which may hold a token, so only positions are reported.
function parseJsonDocument(text: string): JsonDocument {
  try {
    return {kind: 'ok', value: JSON.parse(text)}
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1]
    if (position !== undefined && parsesAsJson(text.slice(0, Number(position)))) {
      return {kind: 'invalid', problem: 'there is other output after the ExecCredential JSON on stdout'}
    }
    // Log lines end with a newline, so the JSON can only begin at the start of a line; a bounded search
    // keeps a megabyte of garbage from costing quadratic time.
    let start = text.indexOf('\n{')
    for (let tries = 0; start >= 0 && tries < 32; tries++, start = text.indexOf('\n{', start + 1)) {
      if (parsesAsJson(text.slice(start + 1))) {
        return {kind: 'invalid', problem: 'there is other output before the ExecCredential JSON on stdout'}
      }
    }
    if (!text.startsWith('{')) {
      return {
        kind: 'invalid',
        problem: `stdout is not JSON (${text.length} characters), expected an ExecCredential`,
      }
    }
    const where = position === undefined ? 'it ends early' : `at character ${position}`
    return {kind: 'invalid', problem: `stdout is not valid JSON (${where})`}
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function optionalString(
  fields: Record<string, unknown>,
  name: string,
  fail: (what: string) => CpcredError,
): string | undefined {
  const value = fields[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw fail(`status.${name} is not a string`)
  return value
}

function collectSecrets(status: unknown): string[] {
  if (status === null || typeof status !== 'object') return []
  const fields = status as Record<string, unknown>
  return ['token', 'clientCertificateData', 'clientKeyData']
    .map((name) => fields[name])
    .filter((value): value is string => typeof value === 'string' && value !== '')
}

// Echoing what the plugin wrote helps, unless it is long, odd, or (part of) one of its secrets.
function shown(value: unknown, secrets: string[]): string | undefined {
  if (typeof value !== 'string')
    return Array.isArray(value) ? 'an array' : `a ${value === null ? 'null' : typeof value}`
  const looksPlain = value.length <= 64 && /^[A-Za-z0-9 ._:/+-]*$/.test(value)
  const isSecret = value !== '' && secrets.some((secret) => secret.includes(value) || value.includes(secret))
  return looksPlain && !isSecret ? `"${value}"` : undefined
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/

/**
 * Go's time.Parse(time.RFC3339, …), which metav1.Time uses: upper-case T and Z, optional fraction of any
 * length, real calendar dates, seconds below 60. Sub-millisecond digits are dropped (toward the past).
 */
export function parseRfc3339(text: string): Date | undefined {
  const match = RFC3339.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const fraction = match[7] ?? ''
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  let offsetMinutes = 0
  if (match[8] !== 'Z') {
    const offsetHours = Number(match[10])
    const offsetMins = Number(match[11])
    if (offsetHours > 23 || offsetMins > 59) return undefined
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'))
  const utc = new Date(0)
  utc.setUTCFullYear(year, month - 1, day)
  utc.setUTCHours(hour, minute, second, millis)
  return new Date(utc.getTime() - offsetMinutes * 60_000)
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

/** metav1.Time's JSON form: UTC, whole seconds (truncated, so never later than the real expiry). */
export function formatRfc3339(date: Date): string {
  const seconds = Math.floor(date.getTime() / 1000) * 1000
  return new Date(seconds).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * The ExecCredential `cpcred credential` prints for kubectl: kind, apiVersion and status, with the status
 * fields in client-go's order and omit-empty rules. Callers add the trailing newline.
 */
export function renderExecCredential(credential: Credential, apiVersion: ExecApiVersion): string {
  const status: Record<string, string> = {}
  const expiresAt =
    credential.expiresAt ??
    (credential.expirationTimestamp === undefined ? undefined : parseRfc3339(credential.expirationTimestamp))
  if (expiresAt !== undefined) status.expirationTimestamp = formatRfc3339(expiresAt)
  if (credential.token) status.token = credential.token
  if (credential.clientCertificateData) status.clientCertificateData = credential.clientCertificateData
  if (credential.clientKeyData) status.clientKeyData = credential.clientKeyData
  return JSON.stringify({kind: EXEC_CREDENTIAL_KIND, apiVersion, status})
}

/** For logs and --verbose: what kind of credential and until when, never any part of a secret. */
export function describeCredential(credential: Credential): string {
  const kinds: string[] = []
  if (credential.token) kinds.push('bearer token')
  if (credential.clientCertificateData && credential.clientKeyData) kinds.push('client certificate')
  const what = kinds.length === 0 ? 'empty credential' : kinds.join(' and ')
  const expiresAt =
    credential.expiresAt ??
    (credential.expirationTimestamp === undefined ? undefined : parseRfc3339(credential.expirationTimestamp))
  return expiresAt === undefined ? `${what}, no expiry` : `${what}, expires ${formatRfc3339(expiresAt)}`
}
