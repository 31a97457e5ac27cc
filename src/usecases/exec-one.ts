// One target of `cpcred exec` whose kubeconfig is ready: written to a private temporary file, the
// command run with the terminal, cpcred's exit code the command's; the file removed however the
// command ends. Shared by the full path and by the answer fast path (src/cli/answer.ts), so it
// imports nothing heavy.
import {CpcredError, DiedOfSignal} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import type {
  ChildResult,
  ChildRunner,
  ForwardingSignals,
  RenewCredential,
  RunningChild,
  TempKubeconfigs,
} from './ports.js'
import {renderTargetKubeconfig, TARGET_EXEC_API, type TargetConnection} from '../core/kubeconfig/target.js'

/** How cpcred renews a target's credential file while its command runs. */
export interface CredentialRefresh {
  /** Epoch milliseconds at which the credential has only `minLifetimeSeconds` left. */
  at: number
  minLifetimeSeconds: number
  /**
   * `cpcred credential` for the target, with the hub and provider flags of this run (no secret):
   * it prints the current ExecCredential, from the cache or the plugin, and during a hub outage
   * obeys --profile-max-stale as any other run.
   */
  command: string[]
}

/** A target ready to run: its cluster, its credential (an ExecCredential), and its environment. */
export interface PreparedTarget {
  connection: TargetConnection
  /** The ExecCredential (TARGET_EXEC_API, JSON) the command's kubectl reads. */
  credential: string
  /** Absent when the credential does not expire. */
  refresh?: CredentialRefresh
  /** CPCRED_PROFILE and CPCRED_NAMESPACE; KUBECONFIG is added when the file is written. */
  env: Record<string, string>
}

export type {RenewCredential, TempKubeconfigs} from './ports.js'

export interface TerminalDeps {
  children: ChildRunner
  temp: TempKubeconfigs
  /** Signals for cpcred go to `forward` while `action` runs. */
  forwardingSignals: ForwardingSignals
  renew: RenewCredential
}

/** timeout(1)'s status for a command it stopped: scripts already know it. */
export const TIMED_OUT_EXIT_CODE = 124

export async function runWithTerminal(
  deps: TerminalDeps,
  command: string[],
  target: PreparedTarget,
  options: {
    timeoutMs?: number
    onVerbose?: (message: string) => void
    onWarning?: (message: string) => void
  } = {},
): Promise<number> {
  const written = await writeTarget(deps, target, options.onWarning ?? (() => undefined))
  options.onVerbose?.(`temporary kubeconfig ${written.kubeconfig}`)
  try {
    const child = deps.children.inherited(
      {command: command[0]!, args: command.slice(1), env: {...target.env, KUBECONFIG: written.kubeconfig}},
      {ownGroup: options.timeoutMs !== undefined},
    )
    const timer = stopAfter(child, options.timeoutMs)
    // Housekeeping while the command runs, off the path to its start.
    const sweeping = deps.temp.sweepStale()
    const result = await deps.forwardingSignals(
      (signal) => child.kill(signal),
      () => child.result,
    )
    timer.cancel()
    await sweeping
    if (timer.fired) {
      throw new CpcredError(`${command[0]} timed out after ${formatDuration(options.timeoutMs!)}`, {
        exitCode: TIMED_OUT_EXIT_CODE,
        hint: 'raise --timeout, or look at why the command hangs',
      })
    }
    return commandOutcome(result, command[0]!)
  } finally {
    await written.remove()
  }
}

/** The first renewal after a failed one comes this much later, doubling up to RENEW_RETRY_MAX_MS. */
const RENEW_RETRY_MS = 5_000
const RENEW_RETRY_MAX_MS = 60_000
/** Never renew more often than this, even for a plugin whose credentials are born nearly expired. */
const RENEW_MIN_INTERVAL_MS = 2_000

/**
 * Writes the target's credential file and kubeconfig, and keeps the credential current until
 * `remove`: shortly before it has only its minimum lifetime left, `cpcred credential` is asked for
 * the current one, which replaces the file. A renewal that fails is retried with a backoff and
 * reported once; kubectl then holds the old credential until it expires, and the target's 401 says
 * why.
 */
export async function writeTarget(
  deps: Pick<TerminalDeps, 'temp' | 'renew'>,
  target: PreparedTarget,
  onWarning: (message: string) => void,
): Promise<{kubeconfig: string; remove(): Promise<void>}> {
  const credentialFile = await deps.temp.create(target.credential, 'credential')
  const kubeconfig = await deps.temp.create(
    renderTargetKubeconfig(target.connection, {reader: deps.temp.credentialReader, file: credentialFile}),
  )
  const {refresh} = target
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  // The command has ended: a renewal under way (a slow plugin) is stopped, not waited for.
  const ended = new AbortController()
  let renewing: Promise<void> | undefined
  let warned = false
  let failures = 0
  const schedule = (at: number) => {
    if (stopped) return
    // setTimeout's limit is about 24.8 days; a later renewal is scheduled again when that one fires.
    const delay = Math.min(Math.max(at - Date.now(), RENEW_MIN_INTERVAL_MS), 2 ** 31 - 1)
    timer = setTimeout(() => {
      renewing = renew(at)
    }, delay)
    timer.unref()
  }
  const renew = async (at: number) => {
    if (!refresh || stopped) return
    if (Date.now() < at) return schedule(at)
    try {
      const output = await deps.renew(
        [...refresh.command, `--min-credential-lifetime=${refresh.minLifetimeSeconds}s`],
        // The first failure was shown with its reason; retries do not repeat it every minute.
        {quiet: failures > 0, signal: ended.signal},
      )
      const expiresAt = renewedExpiry(output)
      if (stopped) return
      await deps.temp.replace(credentialFile, output.trim())
      failures = 0
      warned = false
      if (expiresAt !== undefined) schedule(renewalTime(expiresAt, refresh.minLifetimeSeconds, Date.now()))
    } catch (error) {
      if (stopped) return
      if (!warned) {
        warned = true
        onWarning(
          `could not renew the credential of ${target.env.CPCRED_NAMESPACE}/${target.env.CPCRED_PROFILE} for the running command ` +
            `(${(error as Error).message}); retrying`,
        )
      }
      failures++
      schedule(Date.now() + Math.min(RENEW_RETRY_MS * 2 ** (failures - 1), RENEW_RETRY_MAX_MS))
    }
  }
  if (refresh) schedule(refresh.at)
  return {
    kubeconfig,
    async remove() {
      stopped = true
      clearTimeout(timer)
      ended.abort()
      await renewing?.catch(() => undefined)
      await Promise.all([deps.temp.remove(kubeconfig), deps.temp.remove(credentialFile)])
    },
  }
}

/**
 * When to renew a credential that expires at `expiresAt`: once it has only its minimum lifetime
 * left, but not before half of what is left now has passed. A plugin whose credentials live less
 * than the minimum lifetime (--min-credential-lifetime above their lifetime) is thus asked about
 * twice per lifetime, not every few seconds.
 */
export function renewalTime(expiresAt: number, minLifetimeSeconds: number, now: number): number {
  return Math.max(expiresAt - minLifetimeSeconds * 1000, now + (expiresAt - now) / 2)
}

/** The expiry of a renewed ExecCredential; throws when the output is not one with a credential. */
function renewedExpiry(output: string): number | undefined {
  let status: {token?: unknown; clientCertificateData?: unknown; expirationTimestamp?: unknown} | undefined
  try {
    const parsed = JSON.parse(output) as {kind?: unknown; apiVersion?: unknown; status?: typeof status}
    if (parsed.kind === 'ExecCredential' && parsed.apiVersion === TARGET_EXEC_API) status = parsed.status
  } catch {
    // reported below
  }
  if (!status || (typeof status.token !== 'string' && typeof status.clientCertificateData !== 'string'))
    throw new Error('cpcred credential did not print an ExecCredential')
  if (typeof status.expirationTimestamp !== 'string') return undefined
  const expiresAt = Date.parse(status.expirationTimestamp)
  return Number.isNaN(expiresAt) ? undefined : expiresAt
}

/** --timeout: stops the child (TERM to its group, KILL after a grace) when the time is up. */
export function stopAfter(
  child: RunningChild,
  timeoutMs: number | undefined,
): {fired: boolean; cancel(): void} {
  const timer = {fired: false, cancel: () => {}}
  if (timeoutMs === undefined) return timer
  const handle = setTimeout(() => {
    timer.fired = true
    child.stop()
  }, timeoutMs)
  timer.cancel = () => clearTimeout(handle)
  return timer
}

function commandOutcome(result: ChildResult, command: string): number {
  if (result.startError !== undefined) {
    // As a shell says it, with its status (127 not found, 126 not executable), so scripts can tell.
    throw new CpcredError(`${command}: ${result.startError}`, {
      exitCode: result.exitCode,
      hint: result.notFound
        ? 'check the command after --, or your PATH'
        : 'check that the command is executable',
    })
  }
  if (result.signal === 'SIGINT') throw new DiedOfSignal('SIGINT')
  return result.exitCode
}
