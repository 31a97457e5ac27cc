// The one command router: which code runs a command line. bin/run.js calls `main` (this module is
// the small bundle dist/fast/router.cjs); bin/dev.mjs calls `route` on the sources. What kubectl and
// CI run all the time (src/cli/command-table.ts) comes from CommonJS bundles in dist/fast,
// loaded with require: no ES module loader and no oclif on the way. `credential` and `exec` first ask
// for the last answer to the same question (dist/fast/answer.cjs); everything else, and --help, goes
// to oclif (src/cli/main.ts).
import {COMMANDS, COMPLETE_COMMAND, HELP_FLAGS, commandOf, type Runner} from './command-table.js'
import {questionOf} from './answer-question.js'
import type {AnswerQuestion} from '../usecases/ports.js'
import {isBuiltinPlugin} from './plugins/names.js'
import {keepCompiledCode} from '../adapters/compile-cache.js'

export {COMPLETE_COMMAND}

/** A bundle of dist/fast that runs a command line, or oclif. */
export type Route = Runner

const asksForHelp = (args: string[]) => args.some((arg) => HELP_FLAGS.includes(arg))

/** Where these arguments run. Help is oclif's; completion words are the user's, never a request for help. */
export function route(argv: string[]): Route {
  const command = commandOf(argv[0])
  if (command === undefined) return 'oclif'
  const {runs} = COMMANDS[command]
  if (command === COMPLETE_COMMAND) return runs
  if (command === 'plugin' && !isBuiltinPlugin(argv[1])) return 'oclif'
  // After exec's -- the words are the user's command's (`cpcred exec x -- kubectl --help`).
  const separator = command === 'exec' ? argv.indexOf('--') : -1
  return asksForHelp(separator === -1 ? argv : argv.slice(0, separator)) ? 'oclif' : runs
}

/** Whether the last answer to the same question may be given before any command code loads. */
export function answerable(argv: string[]): boolean {
  return questionOf(argv) !== undefined
}

/** dist/fast/answer.cjs (src/cli/answer.ts). */
interface AnswerBundle {
  main(argv: string[], question: AnswerQuestion): boolean
}

interface Bundle {
  /** Runs the command line and exits the process with its code. */
  run(argv: string[]): void
}

/** bin/run.js's entry, run from dist/fast/router.cjs. */
export function main(argv: string[]): void {
  // A path esbuild cannot resolve, so that each bundle stays a file of its own, loaded only here;
  // require, because the bundles are CommonJS and the ES module loader costs milliseconds.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (name: string): unknown => require(`${__dirname}/${name}.cjs`)
  // The question is worked out once, here, and handed on: the answer bundle does not read argv again.
  const question = questionOf(argv)
  if (question && (load('answer') as AnswerBundle).main(argv, question)) return
  // After the answer, which loads little and must stay the cheapest path there is.
  keepCompiledCode()
  const where = route(argv)
  if (where !== 'oclif') return (load(where) as Bundle).run(argv)
  void import(`${__dirname}/../cli/main.js`).then((cli: {run(argv: string[]): Promise<void>}) =>
    cli.run(argv),
  )
}
