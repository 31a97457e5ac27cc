// bin/run.js's first stop for `cpcred credential` and `cpcred exec`: the last answer to exactly this
// question, when it may be given again (src/adapters/credential-answers.ts). A bundle of its own,
// small, so a hit loads little else; a miss goes on to the fast path. For that its adapters come
// from src/adapters/answered.ts rather than through src/cli/wiring.ts, whose lazy members esbuild
// would all put in this bundle.
import {answeredExecPorts, answerFor, writeStdout} from '../adapters/answered.js'
import type {PreparedTarget} from '../usecases/exec-target-files.js'
import {HELP_FLAGS} from './fast-path-commands.js'
import {NO_CACHE_FLAG, setsFlagOf, VERBOSE_FLAG} from './pipeline-flags.js'

/** Flags after which the full path must run: it explains itself or skips the cache. */
const FULL_PATH_FLAGS = {...VERBOSE_FLAG, ...NO_CACHE_FLAG}

/** Whether this word asks for the full path, or for help (oclif's). */
export const asksForFullPath = (arg: string): boolean =>
  setsFlagOf(FULL_PATH_FLAGS, arg) || HELP_FLAGS.some((help) => arg === help || arg.startsWith(`${help}=`))

/** true when the answer is given (for exec: the command runs, and cpcred exits with its code). */
export function main(argv: string[]): boolean {
  const [command, ...args] = argv
  if (command === 'credential') {
    const answer = find('credential', args)
    if (!answer) return false
    writeStdout(answer)
    return true
  }
  if (command === 'exec') {
    const separator = args.indexOf('--')
    if (separator < 1 || separator === args.length - 1) return false
    const answer = find('exec', args.slice(0, separator))
    if (!answer) return false
    void runPrepared(args.slice(separator + 1), JSON.parse(answer) as PreparedTarget)
    return true
  }
  return false
}

function find(command: 'credential' | 'exec', args: string[]): string | undefined {
  if (args.some(asksForFullPath)) return undefined
  return answerFor(command, args)
}

async function runPrepared(command: string[], target: PreparedTarget): Promise<void> {
  const [{runToExitWith}, {runWithTerminal}, ports] = await Promise.all([
    import('./exit.js'),
    import('../usecases/exec-one.js'),
    answeredExecPorts(),
  ])
  await runToExitWith(async () => {
    try {
      return await runWithTerminal(ports, command, target, {onWarning: ports.warn})
    } finally {
      await ports.temp.dispose()
    }
  }, ports.ending)
}
