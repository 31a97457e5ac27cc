// Running credential plugins. The command and its arguments always come from the consumer's
// provider file or kubeconfig; secrets travel only through the child's stdout, never its argv.
//
// node:child_process rather than execa: a plugin runs in a process group of its own so that a
// timeout or a ^C stops a shell wrapper together with the cloud CLI it started, and cpcred stops
// waiting for stdio that an escaped grandchild still holds. execa signals only the direct child and
// waits for every holder of the pipe; it also takes about 80 ms to load on a path kubectl runs often.
import type {PluginProcessRunner} from '../usecases/ports.js'
import {startProcess, stopOnSignal, type GroupProcess} from './process-group.js'

export type {PluginProcessRunner, PluginRunRequest, PluginRunResult} from '../usecases/ports.js'

/** Of a plugin's stderr only the end is kept: enough for the error message, bounded in memory. */
const STDERR_KEPT_BYTES = 64 * 1024

export const pluginRunner: PluginProcessRunner = {
  async run(request) {
    // An interactive plugin stays in the terminal's process group: in a group of its own it could
    // not read the terminal or get ^C. Everything else gets a group of its own.
    const group = startProcess(request.command, request.args, {
      env: {...process.env, ...request.env},
      stdio: [request.interactive ? 'inherit' : 'ignore', 'pipe', request.interactive ? 'inherit' : 'pipe'],
      ownGroup: !request.interactive,
    })
    let timedOut = false
    let outputTooLarge = false
    let interrupted: NodeJS.Signals | undefined
    stopOnSignal.watch(group, (signal) => (interrupted ??= signal))
    const timer = setTimeout(() => {
      timedOut = true
      group.stop()
    }, request.timeoutMs)

    const stdout = collect(group, 'stdout', request.maxStdoutBytes, () => {
      outputTooLarge = true
      group.stop()
    })
    const stderr = collect(group, 'stderr', Infinity)
    const exit = await group.ended
    clearTimeout(timer)
    const stopped = timedOut || outputTooLarge || interrupted !== undefined
    return {
      exitCode: exit.code === null || stopped ? undefined : exit.code,
      stdout: stdout.text(),
      stderr: stderr.text(),
      notFound: exit.spawnError?.code === 'ENOENT',
      startError:
        exit.spawnError && exit.spawnError.code !== 'ENOENT'
          ? (exit.spawnError.code ?? exit.spawnError.message)
          : undefined,
      timedOut,
      outputTooLarge,
      interrupted,
      signal: exit.signal ?? undefined,
    }
  },
}

/** Reads one pipe: all of stdout up to a limit, or the last STDERR_KEPT_BYTES of stderr. */
function collect(
  group: GroupProcess,
  name: 'stdout' | 'stderr',
  limit: number,
  onLimit?: () => void,
): {text(): string} {
  const chunks: Buffer[] = []
  let size = 0
  group.child[name]?.on('data', (chunk: Buffer) => {
    if (size + chunk.length > limit) {
      onLimit?.()
      return
    }
    chunks.push(chunk)
    size += chunk.length
    while (name === 'stderr' && size > STDERR_KEPT_BYTES && chunks.length > 1) size -= chunks.shift()!.length
  })
  return {text: () => Buffer.concat(chunks).toString('utf8')}
}
