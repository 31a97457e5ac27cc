// The question a command line asks that a kept answer may be given for (src/adapters/credential-
// answers.ts): the one definition that the answer path (src/cli/answer.ts), which looks an answer up
// before anything is parsed, and the fronts of credential and exec, which keep it, both use. Its words
// are cpcred's own as typed: parsing them first would load what a hit exists to skip, so words that
// ask the same in another order are another question, and only miss once.
import type {AnswerQuestion} from '../usecases/ports.js'
import {HELP_FLAGS} from './command-table.js'
import {NO_CACHE_FLAG, setsFlagOf, VERBOSE_FLAG} from './pipeline-flags.js'

/** Flags after which the full path must run: it explains itself or skips the cache. */
const FULL_PATH_FLAGS = {...VERBOSE_FLAG, ...NO_CACHE_FLAG}

/** Whether this word asks for the full path, or for help (oclif's). */
export const asksForFullPath = (arg: string): boolean =>
  setsFlagOf(FULL_PATH_FLAGS, arg) || HELP_FLAGS.some((help) => arg === help || arg.startsWith(`${help}=`))

/**
 * The question of `cpcred credential …` or `cpcred exec … -- CMD…` (argv from the command's name),
 * or undefined when no answer may be given or kept for it: another command, a word that asks for
 * the full path, or exec without a profile or a command around its --.
 */
export function questionOf(argv: readonly string[]): AnswerQuestion | undefined {
  const [command, ...args] = argv
  let words: readonly string[]
  if (command === 'credential') words = args
  else if (command === 'exec') {
    const separator = args.indexOf('--')
    if (separator < 1 || separator === args.length - 1) return undefined
    words = args.slice(0, separator)
  } else return undefined
  return words.some(asksForFullPath) ? undefined : {command, words}
}
