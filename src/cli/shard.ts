// Which shard a command works on: --shard, else $CPCRED_SHARD (set once for a whole CI job).
import {UsageError} from '../core/errors.js'
import {parseShard, type Shard} from '../core/fleet/shard.js'

/** The shard a command works on, and the note to say when $CPCRED_SHARD chose it. */
export interface ShardChoice {
  shard: Shard | undefined
  /** Said every time the variable applies: one left in a shell would otherwise quietly cut `list -A`. */
  note: string | undefined
}

/**
 * `selecting`: the command selects profiles with -l, --all or a placement, the selections a shard splits
 * (profiles named as arguments are always included). --shard without one is a mistake; a job-wide
 * $CPCRED_SHARD simply does not apply. Decided by the words and the environment alone: the front
 * says the note (on the printer's stderr).
 */
export function chooseShard(
  flag: string | undefined,
  selecting: boolean,
  env: Readonly<Record<string, string | undefined>>,
): ShardChoice {
  if (flag !== undefined) {
    if (!selecting) {
      throw new UsageError(
        '--shard splits what -l, --all or --placement select, and there is no such selection',
        'add -l SELECTOR, --all or --placement; profiles named as arguments are always included',
      )
    }
    return {shard: parseShard(flag, env, '--shard'), note: undefined}
  }
  const fromEnv = env.CPCRED_SHARD
  if (!selecting || fromEnv === undefined || fromEnv.trim() === '') return {shard: undefined, note: undefined}
  const shard = parseShard(fromEnv, env, 'CPCRED_SHARD')
  return {shard, note: `Working on ${describeShard(shard)} of the selection (CPCRED_SHARD=${fromEnv}).`}
}

/** Says the note of a shard chosen by $CPCRED_SHARD, and gives the shard. */
export function sayShard(choice: ShardChoice, notes: {note(message: string): void}): Shard | undefined {
  if (choice.note !== undefined) notes.note(choice.note)
  return choice.shard
}

export function describeShard(shard: Shard): string {
  return `shard ${shard.index}/${shard.count}`
}
