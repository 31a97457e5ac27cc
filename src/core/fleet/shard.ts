// `--shard INDEX/COUNT`: one CI job's part of a fleet. The CI system runs the jobs in parallel; each
// job must pick its part alone, with no coordination, and every profile must land in exactly one.
//
// The assignment is Jump Consistent Hash (Lamping & Veach, 2014) of the first 8 bytes of
// sha256("namespace/name"): it depends only on the profile and the count, so adding or removing a
// profile moves no other, and going from N to N+1 jobs moves only about 1/(N+1) of the profiles,
// all to the new shard. Other tools can reproduce it from this description (docs/ci.md).
import {createHash} from 'node:crypto'
import {memberIdOf, type ClusterProfile} from '../profiles/cluster-profile.js'
import {UsageError} from '../errors.js'

export interface Shard {
  /** 1-based, as CI systems number their parallel jobs. */
  index: number
  count: number
}

const MASK_64 = (1n << 64n) - 1n
const LCG_MULTIPLIER = 2862933555777941757n

/** The shard (1..count) a key belongs to. */
export function shardOf(key: string, count: number): number {
  let hash = createHash('sha256').update(key).digest().readBigUInt64BE(0)
  let bucket = -1
  let next = 0
  while (next < count) {
    bucket = next
    hash = (hash * LCG_MULTIPLIER + 1n) & MASK_64
    next = Math.floor((bucket + 1) * (2 ** 31 / (Number(hash >> 33n) + 1)))
  }
  return bucket + 1
}

/**
 * What a profile is sharded by: its namespace and name, or its namespace and inventory member id,
 * so profiles that stand for one member cluster land in one shard, where member folding keeps one
 * of them; two jobs never reach the same cluster.
 */
export function shardKey(profile: ClusterProfile): string {
  const namespace = profile.metadata.namespace ?? ''
  const memberId = memberIdOf(profile)
  return memberId === undefined
    ? `${namespace}/${profile.metadata.name}`
    : `${namespace}/<member:${memberId}>`
}

export function inShard(profile: ClusterProfile, shard: Shard): boolean {
  return shard.count === 1 || shardOf(shardKey(profile), shard.count) === shard.index
}

const HINT = 'write it as INDEX/COUNT, 1-based (e.g. --shard 2/8), or auto in a GitLab parallel: job'

/**
 * Reads `INDEX/COUNT`, or `auto`: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL (1-based, as `parallel:`
 * sets them). `source` names where the text came from, for the error.
 */
export function parseShard(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  source: string,
): Shard {
  const trimmed = text.trim()
  if (trimmed === 'auto') {
    const index = env.CI_NODE_INDEX
    const total = env.CI_NODE_TOTAL
    if (index === undefined || total === undefined) {
      throw new UsageError(
        `${source} auto needs CI_NODE_INDEX and CI_NODE_TOTAL, which are not set`,
        'they are set in GitLab jobs with parallel:; elsewhere give INDEX/COUNT (e.g. from the CI matrix)',
      )
    }
    return checked(index, total, `${source} auto (CI_NODE_INDEX=${index}, CI_NODE_TOTAL=${total})`)
  }
  const match = /^(\S+)\/(\S+)$/.exec(trimmed)
  if (!match) throw new UsageError(`${source} "${text}" is not INDEX/COUNT`, HINT)
  return checked(match[1]!, match[2]!, `${source} "${text}"`)
}

function checked(indexText: string, countText: string, what: string): Shard {
  const index = wholeNumber(indexText)
  const count = wholeNumber(countText)
  if (index === undefined || count === undefined || count < 1) {
    throw new UsageError(`${what}: INDEX and COUNT must be whole numbers, COUNT at least 1`, HINT)
  }
  if (index < 1 || index > count) {
    throw new UsageError(`${what}: INDEX must be from 1 to ${count}`, HINT)
  }
  return {index, count}
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined
}
