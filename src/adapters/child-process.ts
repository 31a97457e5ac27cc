// The command `cpcred exec` runs for the user with the terminal (one target), and how any of its
// commands ended, as a shell tells it. A fan-out's commands start through the launcher
// (child-runner.ts); this module does not load it, so a warm single `cpcred exec` does not either.
import type {ChildRequest, ChildResult, ChildRunner, RunningChild} from '../usecases/ports.js'
import type {LaunchExit} from './launcher-protocol.js'
import {exitStatus, startProcess} from './process-group.js'

/** What bash says when it cannot run a program, by errno; it exits 126 for all of them. */
const SHELL_WORDS: Record<string, string> = {
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ENOEXEC: 'cannot execute binary file: Exec format error',
  E2BIG: "Argument list too long (its arguments and environment exceed the operating system's limit)",
  ENOTDIR: 'Not a directory',
}

/** The shell's status and words for a command that could not be started. */
export function startFailure(error: {code?: string; message: string}): {exitCode: number; reason: string} {
  if (error.code === 'ENOENT') return {exitCode: 127, reason: 'command not found'}
  return {exitCode: 126, reason: (error.code && SHELL_WORDS[error.code]) ?? error.code ?? error.message}
}

// node:child_process rather than execa here: execa takes about 80 ms to load, paid on every
// `cpcred exec` right before the user's command starts, and this needs none of its features.
// A fan-out's commands are started by the launcher (target-launcher.ts), the same way.
export const terminalChildren: Pick<ChildRunner, 'inherited'> = {
  inherited: (request, options) => inheritedChild(request, options?.ownGroup ?? false),
}

function inheritedChild(request: ChildRequest, ownGroup: boolean): RunningChild {
  const group = startProcess(request.command, request.args, {
    env: {...process.env, ...request.env},
    stdio: 'inherit',
    ownGroup,
  })
  return {
    result: group.ended.then(childResult),
    kill: (signal) => group.signal(signal),
    stop: () => group.stop(),
  }
}

/** How a command ended, as a shell would tell it. */
export function childResult(exit: LaunchExit): ChildResult {
  const failed = exit.spawnError && startFailure(exit.spawnError)
  return {
    exitCode: failed ? failed.exitCode : exitStatus(exit),
    signal: exit.signal ?? undefined,
    notFound: exit.spawnError?.code === 'ENOENT',
    ...(failed ? {startError: failed.reason} : {}),
  }
}
