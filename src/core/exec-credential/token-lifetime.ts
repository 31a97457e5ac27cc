// How long a hub-issued ServiceAccount token lives: the bounds of the TokenRequest API and cpcred's
// cap, for `plugin token-request` and for a provider's serviceAccountToken block alike.
import {UsageError} from '../errors.js'

/** The TokenRequest API refuses less than 10 minutes. */
export const MIN_EXPIRATION_SECONDS = 600
/** A credential plugin runs again when its token expires; a day is long enough for any session. */
export const MAX_EXPIRATION_SECONDS = 86_400
export const DEFAULT_EXPIRATION_SECONDS = 3600

/** A lifetime in whole seconds within the bounds; `source` names where it was written, for the message. */
export function parseExpirationSeconds(value: unknown, source: string): number {
  const seconds =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : NaN
  if (!Number.isSafeInteger(seconds)) {
    throw new UsageError(
      `${source} ${typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value)} is not a whole number of seconds`,
    )
  }
  if (seconds < MIN_EXPIRATION_SECONDS || seconds > MAX_EXPIRATION_SECONDS) {
    throw new UsageError(
      `${source} ${seconds} is out of range: use ${MIN_EXPIRATION_SECONDS} to ${MAX_EXPIRATION_SECONDS} ` +
        `(the TokenRequest API's minimum is 10 minutes; cpcred caps tokens at 24 hours)`,
    )
  }
  return seconds
}
