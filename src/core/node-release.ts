// The Node release lines and when each stops getting fixes (https://github.com/nodejs/release): what
// `cpcred version` shows beside the running Node, and what version and doctor warn about once it has
// passed. The even lines are LTS, each maintained until the day below; an odd line is never LTS and
// is maintained for months only, so it has no day here.

/** The end of life of each LTS line, by major version. */
export const LTS_END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
  26: '2029-04-30',
}

export interface NodeSupport {
  /** The running Node as it names itself (process.version). */
  version: string
  /** Its line, when the version reads as one. */
  major?: number
  /** The day its line ends (YYYY-MM-DD), for the LTS lines of the table. */
  endOfLife?: string
  /** Whether its line has ended at `now`: past its day, or older than every line of the table. */
  ended: boolean
  /** The LTS lines still maintained at `now`, oldest first: what to move to. */
  maintained: number[]
}

const DAY_MS = 24 * 60 * 60 * 1000
/** A line is maintained through its last day (UTC). */
const endsAt = (day: string) => Date.parse(`${day}T00:00:00Z`) + DAY_MS

/** What is known of `version`'s line at `now`. */
export function nodeSupport(version: string, now: Date): NodeSupport {
  const lines = Object.entries(LTS_END_OF_LIFE).map(([major, day]) => ({major: Number(major), day}))
  const maintained = lines.filter(({day}) => now.getTime() < endsAt(day)).map(({major}) => major)
  const match = /^v?(\d+)\.\d+\.\d+/.exec(version)
  if (!match) return {version, ended: false, maintained}
  const major = Number(match[1])
  const endOfLife = LTS_END_OF_LIFE[major]
  const oldest = Math.min(...lines.map((line) => line.major))
  const ended = endOfLife ? now.getTime() >= endsAt(endOfLife) : major < oldest
  return {version, major, ...(endOfLife ? {endOfLife} : {}), ended, maintained}
}

/** The node row of `cpcred version`: the version and what is known of its line's end. */
export function nodeSupportText(support: NodeSupport): string {
  const {version, major, endOfLife, ended} = support
  if (major === undefined) return version
  if (endOfLife) return `${version} (LTS, end of life ${endOfLife}${ended ? ', passed' : ''})`
  if (ended) return `${version} (past its end of life)`
  // An odd line is never LTS: it is maintained for months; a newer even line is LTS from its October.
  return `${version} (${major % 2 ? 'not an LTS line' : 'end of life not known to this cpcred'})`
}

/** The warning for a Node past its end of life, or undefined while its line is maintained. */
export function nodeEndOfLifeWarning(support: NodeSupport): string | undefined {
  if (!support.ended) return undefined
  const when = support.endOfLife ? ` on ${support.endOfLife}` : ''
  const {maintained} = support
  const lines = maintained.length
    ? ` (${maintained.length > 1 ? `${maintained.slice(0, -1).join(', ')} or ` : ''}${maintained.at(-1)})`
    : ''
  return `Node ${support.version} reached its end of life${when} and gets no more security fixes: run cpcred with a maintained LTS Node${lines}, or from a standalone archive, which carries its own`
}
