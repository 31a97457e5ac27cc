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
