// bin/run.js's first stop for `cpcred credential` and `cpcred exec`: the last answer to exactly this
// question, when it may be given again (src/adapters/credential-answers.ts). A bundle of its own,
// small, so a hit loads little else; a miss goes on to the fast path. For that its adapters come
// from src/adapters/answered.ts rather than through src/cli/wiring.ts, whose lazy members esbuild
// would all put in this bundle.
import {answeredExecPorts, answerFor, writeStdout} from '../adapters/answered.js'
import type {PreparedTarget} from '../usecases/exec-target-files.js'
import type {AnswerQuestion} from '../usecases/ports.js'

/**
 * true when the answer to `question` (the router's, from `argv`: cli/answer-question.ts) is given;
 * for exec the command runs, and cpcred exits with its code.
 */
export function main(argv: string[], question: AnswerQuestion): boolean {
  const answer = answerFor(question)
  if (!answer) return false
  if (question.command === 'credential') writeStdout(answer)
  else void runPrepared(argv.slice(argv.indexOf('--') + 1), JSON.parse(answer) as PreparedTarget)
  return true
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
