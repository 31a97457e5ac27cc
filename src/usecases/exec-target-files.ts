// A target of `cpcred exec` ready to run, and its files: the credential files (a token file, a
// certificate-and-key file) and the kubeconfig whose user names them, written privately and kept
// current while the command runs (renewed through `cpcred credential`), removed when it ends.
// Shared by the full path and by the answer fast path (src/cli/answer.ts), so it imports nothing
// heavy.
import {
  renderTargetKubeconfig,
  targetCredential,
  type TargetConnection,
  type TargetCredential,
} from '../core/kubeconfig/target.js'
import type {RenewCredential, TempKubeconfigs} from './ports.js'

/** The ExecCredential version `cpcred credential` prints for a renewal (KUBERNETES_EXEC_INFO unset). */
const RENEWAL_EXEC_API = 'client.authentication.k8s.io/v1'

/** How cpcred renews a target's credential files while its command runs. */
export interface CredentialRefresh {
  /**
   * Epoch milliseconds at which the credential has only `minLifetimeSeconds` left: the lifetime a
   * command must start with, or longer, so that the command's client has re-read the files before
   * the old credential expires (fileRereadSeconds).
   */
  at: number
  minLifetimeSeconds: number
  /**
   * `cpcred credential` for the target, with the hub and provider flags of this run (no secret):
   * it prints the current ExecCredential, from the cache or the plugin, and during a hub outage
   * obeys --profile-max-stale as any other run.
   */
  command: string[]
}

/** A target ready to run: its cluster, its credential, and its environment. */
export interface PreparedTarget {
  connection: TargetConnection
  /** What the credential files the command's kubectl reads hold. */
  credential: TargetCredential
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
 * Writes the target's credential files and kubeconfig, and keeps the credential current until
 * `remove`: shortly before it has only its minimum lifetime left, `cpcred credential` is asked for
 * the current one, which replaces the files. A renewal that fails is retried with a backoff and
 * reported once; kubectl then holds the old credential until it expires, and the target's 401 says
 * why.
 */
export async function writeTarget(
  ports: {temp: TempKubeconfigs; renew: RenewCredential},
  target: PreparedTarget,
  onWarning: (message: string) => void,
): Promise<{kubeconfig: string; remove(): Promise<void>}> {
  const files: {tokenFile?: string; certificateFile?: string} = {}
  if (target.credential.token !== undefined)
    files.tokenFile = await ports.temp.create(target.credential.token, 'token')
  if (target.credential.certificate !== undefined)
    files.certificateFile = await ports.temp.create(target.credential.certificate, 'certificate')
  const kubeconfig = await ports.temp.create(renderTargetKubeconfig(target.connection, files))
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
      const output = await ports.renew(
        [...refresh.command, `--min-credential-lifetime=${refresh.minLifetimeSeconds}s`],
        // The first failure was shown with its reason; retries do not repeat it every minute.
        {quiet: failures > 0, signal: (ended ??= new AbortController()).signal},
      )
      const renewed = renewedCredential(output)
      if (stopped) return
      // The kubeconfig names the files the command started with; kubectl reads it once.
      if (files.tokenFile && renewed.credential.token === undefined)
        throw new Error('cpcred credential printed no token, and the command reads one')
      if (files.certificateFile && renewed.credential.certificate === undefined)
        throw new Error('cpcred credential printed no client certificate, and the command reads one')
      if (files.tokenFile) await ports.temp.replace(files.tokenFile, renewed.credential.token!)
      if (files.certificateFile)
        await ports.temp.replace(files.certificateFile, renewed.credential.certificate!)
      const {expiresAt} = renewed
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
      await Promise.all(
        [kubeconfig, files.tokenFile, files.certificateFile].flatMap((file) =>
          file ? [ports.temp.remove(file)] : [],
        ),
      )
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

/** A renewed ExecCredential's content and expiry; throws when the output is not one with a credential. */
function renewedCredential(output: string): {credential: TargetCredential; expiresAt?: number} {
  let status: Record<string, unknown> | undefined
  try {
    const parsed = JSON.parse(output) as {kind?: unknown; apiVersion?: unknown; status?: typeof status}
    if (parsed.kind === 'ExecCredential' && parsed.apiVersion === RENEWAL_EXEC_API) status = parsed.status
  } catch {
    // reported below
  }
  const text = (name: string) => (typeof status?.[name] === 'string' ? (status[name] as string) : undefined)
  const credential = targetCredential({
    token: text('token'),
    clientCertificateData: text('clientCertificateData'),
    clientKeyData: text('clientKeyData'),
  })
  if (credential.token === undefined && credential.certificate === undefined)
    throw new Error('cpcred credential did not print an ExecCredential')
  const expiry = text('expirationTimestamp')
  const expiresAt = expiry === undefined ? undefined : Date.parse(expiry)
  return {credential, expiresAt: expiresAt === undefined || Number.isNaN(expiresAt) ? undefined : expiresAt}
}
