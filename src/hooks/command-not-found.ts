// An unknown command, as kubectl answers it: a usage error (exit 2) that names the nearest command,
// on stderr, with or without a terminal, and never a prompt: "Did you mean exec? (Y/n)" with Enter
// would start a fan-out. oclif's not-found plugin suggested only on a terminal, and its colour codes
// reached the message as text.
import type {Hook} from '@oclif/core'
import {distance} from 'fastest-levenshtein'
import {UsageError} from '../core/errors.js'
import {printable} from '../core/text/printable.js'

const hook: Hook<'command_not_found'> = async function (options) {
  const spoken = (id: string) => id.replaceAll(':', ' ')
  const typed = spoken(options.id)
  const commands = options.config.commands
    .filter((command) => !command.hidden)
    .flatMap((command) => [command.id, ...command.aliases])
    .map(spoken)
  const nearest = commands
    .map((command) => ({command, score: distance(typed, command)}))
    .filter(({score}) => score <= Math.max(2, Math.floor(typed.length / 3)))
    .sort((a, b) => a.score - b.score)[0]?.command
  throw new UsageError(
    `unknown command "${printable(typed)}" for "${options.config.bin}"`,
    `${nearest ? `Did you mean "${options.config.bin} ${nearest}"? ` : ''}Run '${options.config.bin} help' for the commands.`,
  )
}

export default hook
