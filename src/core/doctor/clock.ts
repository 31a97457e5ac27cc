// Doctor's clock links: this machine's clock against a server's Date header.
import {humanDuration} from '../text/format.js'
import {ok, warn, type CheckOutcome} from './checks.js'
import type {HttpAnswer, ServerProbe} from './server-tls.js'

/** Differences up to this much between this machine and a server are normal. */
export const MAX_CLOCK_SKEW_MS = 30_000

/**
 * How far the server's clock is ahead of this one (negative: behind), from its Date header. The header
 * has whole seconds, so the server's time is taken as the middle of that second, and this machine's as
 * the middle of the request.
 */
export function clockSkewMs(answer: HttpAnswer): number | undefined {
  const serverTime = answer.date === undefined ? NaN : Date.parse(answer.date)
  if (Number.isNaN(serverTime)) return undefined
  const localTime = (answer.sentAt.getTime() + answer.receivedAt.getTime()) / 2
  return serverTime + 500 - localTime
}

export function judgeClock(answer: HttpAnswer | undefined, name: string, why?: string): CheckOutcome {
  if (!answer) return warn(`could not read ${name}'s clock${why ? `: ${why}` : ''}`)
  const skew = clockSkewMs(answer)
  if (skew === undefined) return warn(`${name} sent no usable Date header, so its clock cannot be compared`)
  const size = Math.abs(skew)
  if (size <= MAX_CLOCK_SKEW_MS) {
    return ok(`this machine's clock is within ${Math.max(1, Math.ceil(size / 1000))}s of ${name}'s`)
  }
  return warn(
    `this machine's clock is ${humanDuration(size)} ${skew > 0 ? 'behind' : 'ahead of'} ${name}'s (its Date header)`,
    "sync this machine's clock (e.g. timedatectl set-ntp true): a skew makes fresh tokens look expired or not yet valid",
  )
}

/** Why a probe brought no answer to read a clock from. */
export function whyNoAnswer(probe: ServerProbe | undefined): string | undefined {
  return probe?.proxy ? 'it is reached through a proxy' : probe?.httpError
}
