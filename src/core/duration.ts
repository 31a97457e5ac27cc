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
