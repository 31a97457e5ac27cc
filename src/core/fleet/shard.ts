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
  /** 1-based, as GitLab numbers its parallel jobs; `auto` turns every other numbering into this. */
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

const HINT =
  'write it as INDEX/COUNT, 1-based (e.g. --shard 2/8), or auto in a parallel CI job or a Kubernetes Indexed Job'

/**
 * What `auto` reads: each system's variable for this job's index, its base, and its variable for
 * the count. Checked against each system's documentation: GitLab's `parallel:` numbers from 1;
 * Kubernetes' Indexed Job (completionMode: Indexed), CircleCI's `parallelism` and Buildkite's
 * `parallelism` from 0. A Job's pods are not told its completions, so its count comes from
 * `auto/COUNT` or $CPCRED_SHARD_COUNT.
 */
export interface AutoShardSource {
  name: string
  index: string
  base: 0 | 1
  count?: string
}

export const AUTO_SHARD_SOURCES: readonly AutoShardSource[] = [
  {name: 'GitLab parallel:', index: 'CI_NODE_INDEX', base: 1, count: 'CI_NODE_TOTAL'},
  {name: 'a Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', base: 0},
  {
    name: 'Buildkite parallelism',
    index: 'BUILDKITE_PARALLEL_JOB',
    base: 0,
    count: 'BUILDKITE_PARALLEL_JOB_COUNT',
  },
  {name: 'CircleCI parallelism', index: 'CIRCLE_NODE_INDEX', base: 0, count: 'CIRCLE_NODE_TOTAL'},
]

/** Where `auto` may take its count from when the system gives none (or to check the one it gives). */
export const SHARD_COUNT_VARIABLE = 'CPCRED_SHARD_COUNT'

type Env = Readonly<Record<string, string | undefined>>

/**
 * Reads `INDEX/COUNT`, or `auto` / `auto/COUNT`: this job's index from the one CI system or
 * Kubernetes Indexed Job whose variables are set (AUTO_SHARD_SOURCES). `source` names where the text
 * came from, for the error.
 */
export function parseShard(text: string, env: Env, source: string): Shard {
  const trimmed = text.trim()
  const auto = /^auto(?:\/(.*))?$/.exec(trimmed)
  if (auto) return autoShard(auto[1], env, source)
  const match = /^(\S+)\/(\S+)$/.exec(trimmed)
  if (!match) throw new UsageError(`${source} "${text}" is not INDEX/COUNT`, HINT)
  return checked(match[1]!, match[2]!, `${source} "${text}"`)
}

function autoShard(countText: string | undefined, env: Env, source: string): Shard {
  const what = countText === undefined ? `${source} auto` : `${source} auto/${countText}`
  const present = AUTO_SHARD_SOURCES.filter((system) => isSet(env[system.index]))
  if (present.length === 0) {
    throw new UsageError(
      `${what} found no parallel job's index: none of ${AUTO_SHARD_SOURCES.map((system) => system.index).join(', ')} is set`,
      'auto works in GitLab parallel:, a Kubernetes Indexed Job, Buildkite and CircleCI parallelism; elsewhere give INDEX/COUNT (e.g. from the CI matrix)',
    )
  }
  if (present.length > 1) {
    throw new UsageError(
      `${what} cannot tell which job it is: ${present.map((system) => `${system.index} (${system.name})`).join(' and ')} are set at once`,
      'unset the one that does not belong to this job, or give INDEX/COUNT',
    )
  }
  const system = present[0]!
  const indexText = env[system.index]!.trim()
  const shown = [`${system.index}=${indexText}`]
  const given = givenCount(countText, env, what)
  const own = system.count === undefined ? undefined : env[system.count]
  let count: string
  if (system.count !== undefined && isSet(own)) {
    shown.push(`${system.count}=${own.trim()}`)
    count = own.trim()
    const ownCount = wholeNumber(count)
    if (given !== undefined && ownCount !== undefined && wholeNumber(given.text) !== ownCount) {
      throw new UsageError(
        `${what}: ${given.from} says ${given.text} jobs but ${system.count} says ${count}`,
        `drop the count and let ${system.name} give it, or make them agree`,
      )
    }
  } else if (given !== undefined) {
    count = given.text
    if (given.from === SHARD_COUNT_VARIABLE) shown.push(`${SHARD_COUNT_VARIABLE}=${given.text}`)
  } else {
    throw new UsageError(
      system.count === undefined
        ? `${what}: ${system.index} is set (${system.name}) but the number of jobs is not`
        : `${what}: ${system.index} is set (${system.name}) but ${system.count} is not`,
      system.count === undefined
        ? `the Job's pods are not told its completions: write --shard auto/N (N = spec.completions) or set ${SHARD_COUNT_VARIABLE}=N`
        : `write --shard auto/N with the number of parallel jobs, or set ${SHARD_COUNT_VARIABLE}=N`,
    )
  }
  return checked(indexText, count, `${what} (${shown.join(', ')})`, system)
}

/** The count written after `auto/`, else $CPCRED_SHARD_COUNT, and where it came from. */
function givenCount(
  countText: string | undefined,
  env: Env,
  what: string,
): {text: string; from: string} | undefined {
  if (countText !== undefined) {
    if (wholeNumber(countText) === undefined || wholeNumber(countText)! < 1) {
      throw new UsageError(`${what}: COUNT must be a whole number, at least 1`, HINT)
    }
    return {text: countText, from: 'auto/COUNT'}
  }
  const fromEnv = env[SHARD_COUNT_VARIABLE]
  if (!isSet(fromEnv)) return undefined
  const text = fromEnv.trim()
  if (wholeNumber(text) === undefined || wholeNumber(text)! < 1) {
    throw new UsageError(
      `${what}: ${SHARD_COUNT_VARIABLE}="${fromEnv}" is not a whole number, at least 1`,
      HINT,
    )
  }
  return {text, from: SHARD_COUNT_VARIABLE}
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== ''
}

/** `system`: the index is in that system's numbering, turned into the 1-based one of a Shard. */
function checked(indexText: string, countText: string, what: string, system?: AutoShardSource): Shard {
  const index = wholeNumber(indexText)
  const count = wholeNumber(countText)
  if (index === undefined || count === undefined || count < 1) {
    throw new UsageError(`${what}: INDEX and COUNT must be whole numbers, COUNT at least 1`, HINT)
  }
  const base = system?.base ?? 1
  if (index < base || index > count - 1 + base) {
    const name = system?.index ?? 'INDEX'
    throw new UsageError(`${what}: ${name} must be from ${base} to ${count - 1 + base}`, HINT)
  }
  return {index: index - base + 1, count}
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined
}
