// The adapters of the answer fast path (src/cli/answer.ts), gathered here because that bundle must
// stay small: src/cli/wiring.ts reaches every adapter through import(), and esbuild would put all
// of them in it. What a hit needs is loaded at once; what running a prepared target needs, when it
// runs; what failing needs, only on failure.
import {defaultCredentialCacheDir} from './cache-dir.js'
import {answerKey, findAnswer} from './credential-answers.js'
import {outputSink} from './output-sink.js'
import {printableLines, warningLine} from '../core/text/printable.js'
import type {Printer} from './printer.js'
import type {
  AnswerQuestion,
  ChildRunner,
  ForwardingSignals,
  RenewCredential,
  TempKubeconfigs,
} from '../usecases/ports.js'

/** The payload of the last answer to exactly this question, when it may be given again. */
export function answerFor(question: AnswerQuestion, env = process.env): string | undefined {
  const key = answerKey(question, env, process.cwd())
  return findAnswer(defaultCredentialCacheDir(env), key, Date.now())?.payload
}

export function writeStdout(text: string): void {
  outputSink(1).write(text)
}

export interface AnsweredExecPorts {
  children: Pick<ChildRunner, 'inherited'>
  temp: TempKubeconfigs
  forwardingSignals: ForwardingSignals
  renew: RenewCredential
  warn(message: string): void
  /** What failing needs (src/cli/exit.ts). */
  ending(): Promise<{printer: Printer; interrupts: {dieOfSignal(signal: NodeJS.Signals): Promise<void>}}>
}

export async function answeredExecPorts(): Promise<AnsweredExecPorts> {
  const [{terminalChildren}, {tempKubeconfigs}, {renewCredential}, interrupts] = await Promise.all([
    import('./child-process.js'),
    import('./temp-kubeconfigs.js'),
    import('./credential-renewal.js'),
    import('./interrupts.js'),
  ])
  const stderr = outputSink(2)
  return {
    children: terminalChildren,
    temp: tempKubeconfigs(),
    forwardingSignals: interrupts.forwardingSignals,
    renew: renewCredential,
    warn: (message) => stderr.write(warningLine(printableLines(message))),
    ending: async () => ({printer: (await import('./printer.js')).processPrinter(), interrupts}),
  }
}
