import {UsageError} from './errors.js'

const UNITS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/**
 * Durations as kubectl takes them (Go's time.ParseDuration units ms, s, m, h, combinable as "1h30m");
 * a bare number means seconds, as in kubectl's --request-timeout. Returns milliseconds.
 */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (!trimmed || parts.map((part) => part[0]).join('') !== trimmed) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)} is not a duration`,
      'write it like 90s, 5m or 1h30m',
    )
  }
  return parts.reduce((total, [, value, unit]) => total + Number(value) * UNITS[unit!]!, 0)
}

/** A duration the way Go prints one (time.Duration.String): 500ms, 2s, 1m30s, 1h0m5s. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)}ms`
  const hours = Math.floor(milliseconds / 3_600_000)
  const minutes = Math.floor((milliseconds % 3_600_000) / 60_000)
  const seconds = (milliseconds % 60_000) / 1000
  const secondsText = `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')}s`
  if (hours) return `${hours}h${minutes}m${secondsText}`
  return minutes ? `${minutes}m${secondsText}` : secondsText
}

/**
 * How long cpcred waits for one hub request when --request-timeout is not given. kubectl has no
 * limit (0), so a hub that accepts connections and never answers holds it until the job's own
 * timeout; half a minute is far beyond a healthy API server's answer to anything cpcred asks, and
 * within the minute the API server itself allows a request (kube-apiserver --request-timeout).
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/** The grammar of --request-timeout, in kubectl's words, for errors and help. */
export const REQUEST_TIMEOUT_GRAMMAR =
  'a whole number of seconds, or a number with a unit (e.g. 1s, 2m, 3h); 0 means no timeout'

const GO_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5
  μs: 1e-3, // U+03BC
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}

/**
 * A timeout as kubectl's --request-timeout reads it (clientcmd.ParseTimeout): a whole number of
 * seconds, else Go's time.ParseDuration (ns, us, ms, s, m, h, combinable, fractions allowed: 1.5s,
 * 1h30m); 0 means no timeout. kubectl lets a negative duration through, to mean no timeout by
 * accident; here it is refused, like anything else that is not a timeout. Returns milliseconds.
 */
export function parseRequestTimeout(text: string, flag = '--request-timeout'): number {
  if (/^[+-]?\d+$/.test(text)) {
    const seconds = Number(text)
    if (seconds > 0) return seconds * 1000
    if (seconds === 0) return 0
  }
  const sign = /^[+-]/.test(text) ? text[0] : ''
  const rest = sign ? text.slice(1) : text
  const component = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy
  let total = 0
  let at = 0
  if (rest !== '0') {
    for (let match = component.exec(rest); match; match = component.exec(rest)) {
      total += Number(match[1]) * GO_UNITS_MS[match[2]!]!
      at = component.lastIndex
    }
    if (rest === '' || at !== rest.length) {
      throw new UsageError(
        `${flag} ${JSON.stringify(text)} is not a timeout: write ${REQUEST_TIMEOUT_GRAMMAR}`,
      )
    }
  }
  if (sign === '-' && total > 0) {
    throw new UsageError(`${flag} ${JSON.stringify(text)} is negative: write ${REQUEST_TIMEOUT_GRAMMAR}`)
  }
  return total
}
