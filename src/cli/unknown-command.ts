// An unknown command, as kubectl (cobra) answers it: a usage error (exit 2) naming what was typed as
// the command (its first word, or a topic's two: `hub usee`, never the arguments after it) and the
// nearest command, on stderr, with or without a terminal, and never a prompt: "Did you mean exec?
// (Y/n)" with Enter would start a fan-out. Used for `cpcred WORDS…` and `cpcred help WORDS…` alike.
import type {Interfaces} from '@oclif/core'
import {distance} from 'fastest-levenshtein'
import {UsageError} from '../core/errors.js'
import {printable} from '../core/text/printable.js'

/**
 * `words`: what oclif could not find a command for (the words before the first flag); `commands`:
 * every command's words (`hub use`), aliases included.
 */
export function unknownCommand(
  bin: string,
  words: readonly string[],
  commands: readonly string[],
): UsageError {
  const topics = new Set(
    commands.filter((command) => command.includes(' ')).map((command) => command.split(' ')[0]!),
  )
  let count = words.length > 1 && topics.has(words[0]!) ? 2 : 1
  // `version extra`: the command exists and takes no such word, so the word is part of what is unknown.
  if (count < words.length && commands.includes(words.slice(0, count).join(' '))) count++
  const typed = words.slice(0, count).join(' ')
  const nearest = commands
    .map((command) => ({command, score: distance(typed, command)}))
    .filter(({score}) => score > 0 && score <= Math.max(2, Math.floor(typed.length / 3)))
    .sort((a, b) => a.score - b.score)[0]?.command
  return new UsageError(
    `unknown command "${printable(typed)}" for "${bin}"`,
    `${nearest ? `Did you mean "${bin} ${nearest}"? ` : ''}Run '${bin} help' for the commands.`,
  )
}

/** Every visible command's words (`hub use`), aliases included. */
export function commandWords(config: Interfaces.Config): string[] {
  return config.commands
    .filter((command) => !command.hidden)
    .flatMap((command) => [command.id, ...command.aliases])
    .map((id) => id.replaceAll(':', ' '))
}
