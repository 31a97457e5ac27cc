// bin/run.js's first stop for `cpcred credential`: the last answer for exactly this question, when it
// may be given again (src/adapters/credential-answers.ts). A bundle of its own, a few kilobytes, so
// a hit loads nothing else; a miss goes on to the fast path.
import {defaultCredentialCacheDir} from '../adapters/cache-dir.js'
import {answerKey, findAnswer} from '../adapters/credential-answers.js'
import {descriptorWriter} from '../adapters/descriptor-writer.js'

/** Flags after which the full path must run: it explains itself, skips the cache, or shows help. */
const FULL_PATH_FLAGS = /^(?:-v|--verbose|--no-cache|-h|--help)(?:=|$)/

/** `args` follow `credential`; true when the answer was given. */
export function main(args: string[]): boolean {
  if (args.some((arg) => FULL_PATH_FLAGS.test(arg))) return false
  const env = process.env
  const answer = findAnswer(defaultCredentialCacheDir(env), answerKey(args, env, process.cwd()), Date.now())
  if (!answer) return false
  descriptorWriter(1)(answer.stdout)
  return true
}
