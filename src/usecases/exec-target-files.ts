// A target of `cpcred exec` ready to run, and its files: the credential file and the kubeconfig
// whose user reads it, written privately and kept current while the command runs (renewed through
// `cpcred credential`), removed when it ends. Shared by the full path and by the answer fast path
// (src/cli/answer.ts), so it imports nothing heavy.
import {renderTargetKubeconfig, TARGET_EXEC_API, type TargetConnection} from '../core/kubeconfig/target.js'
import type {RenewCredential, TempKubeconfigs} from './ports.js'

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
  deps: {temp: TempKubeconfigs; renew: RenewCredential},
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
  // The command has ended: a renewal under way (a slow plugin) is stopped, not waited for. Made
  // with the first renewal: most commands end before one, and an AbortController's first use
  // costs a warm `cpcred exec` about half a millisecond.
  let ended: AbortController | undefined
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
        {quiet: failures > 0, signal: (ended ??= new AbortController()).signal},
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
      ended?.abort()
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
