// Which shard a command works on: --shard, else $CPCRED_SHARD (set once for a whole CI job).
import {UsageError} from '../core/errors.js'
import {parseShard, type Shard} from '../core/fleet/shard.js'

/**
 * `selecting`: the command selects profiles with -l, --all or a placement, the selections a shard splits
 * (profiles named as arguments are always included). --shard without one is a mistake; a job-wide
 * $CPCRED_SHARD simply does not apply. `notes` hears that the variable applies (the printer's stderr).
 */
export function chosenShard(
  flag: string | undefined,
  selecting: boolean,
  notes: {note(message: string): void},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Shard | undefined {
  if (flag !== undefined) {
    if (!selecting) {
      throw new UsageError(
        '--shard splits what -l, --all or --placement select, and there is no such selection',
        'add -l SELECTOR, --all or --placement; profiles named as arguments are always included',
      )
    }
    return parseShard(flag, env, '--shard')
  }
  const fromEnv = env.CPCRED_SHARD
  if (!selecting || fromEnv === undefined || fromEnv.trim() === '') return undefined
  const shard = parseShard(fromEnv, env, 'CPCRED_SHARD')
  // Said every time: a variable left in a shell would otherwise quietly cut `list -A` to a part.
  notes.note(`Working on ${describeShard(shard)} of the selection (CPCRED_SHARD=${fromEnv}).`)
  return shard
}

export function describeShard(shard: Shard): string {
  return `shard ${shard.index}/${shard.count}`
}
