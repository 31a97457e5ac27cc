// bin/run.js's first stop for `cpcred credential` and `cpcred exec`: the last answer to exactly this
// question, when it may be given again (src/adapters/credential-answers.ts). A bundle of its own,
// small, so a hit loads little else; a miss goes on to the fast path. For that it builds what it
// runs with itself rather than through src/cli/wiring.ts, whose lazy members esbuild would bundle.
import {defaultCredentialCacheDir} from '../adapters/cache-dir.js'
import {answerKey, findAnswer} from '../adapters/credential-answers.js'
import {outputSink} from '../adapters/output-sink.js'
import type {PreparedTarget} from '../usecases/exec-target.js'
import {printableLines} from '../core/text/printable.js'

/** Flags after which the full path must run: it explains itself, skips the cache, or shows help. */
const FULL_PATH_FLAGS = /^(?:-v|--verbose|--no-cache|-h|--help)(?:=|$)/

/** true when the answer is given (for exec: the command runs, and cpcred exits with its code). */
export function main(argv: string[]): boolean {
  const [command, ...args] = argv
  if (command === 'credential') {
    const answer = find('credential', args)
    if (!answer) return false
    outputSink(1).write(answer)
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
  if (args.some((arg) => FULL_PATH_FLAGS.test(arg))) return undefined
  const env = process.env
  const key = answerKey(command, args, env, process.cwd())
  return findAnswer(defaultCredentialCacheDir(env), key, Date.now())?.payload
}

async function runPrepared(command: string[], target: PreparedTarget): Promise<void> {
  const [
    {runToExitWith},
    {runWithTerminal},
    {nodeChildRunner},
    {tempKubeconfigs},
    {renewCredential},
    interrupts,
  ] = await Promise.all([
    import('./exit.js'),
    import('../usecases/exec-one.js'),
    import('../adapters/child-process.js'),
    import('../adapters/temp-kubeconfigs.js'),
    import('../adapters/credential-renewal.js'),
    import('../adapters/interrupts.js'),
  ])
  const deps = {
    children: nodeChildRunner,
    temp: tempKubeconfigs(),
    forwardingSignals: interrupts.forwardingSignals,
    renew: renewCredential,
  }
  const stderr = outputSink(2)
  // Loaded only on failure, and not through src/cli/wiring.ts: this bundle stays small.
  const ending = async () => ({
    printer: (await import('../adapters/printer.js')).processPrinter(),
    interrupts,
  })
  await runToExitWith(async () => {
    try {
      return await runWithTerminal(deps, command, target, {
        onWarning: (message) => stderr.write(`warning: ${printableLines(message)}\n`),
      })
    } finally {
      await deps.temp.dispose()
    }
  }, ending)
}
