// Starting programs in a process group of their own, and stopping the whole group. Real credential
// plugins are shell wrappers around cloud CLIs: signalling only the wrapper leaves its children
// running, and their copy of the wrapper's stdout keeps a reader waiting until they end.
import {spawn, type ChildProcess, type StdioOptions} from 'node:child_process'
import {EventEmitter} from 'node:events'
import {signalExitCode} from '../core/errors.js'
import {onSignals, STOPPING_SIGNALS} from './interrupts.js'

/** How long a stopped group gets between SIGTERM and SIGKILL. */
export const STOP_GRACE_MS = 2000
/**
 * How long to keep reading after the process is gone when something else still holds its stdout
 * (a daemon it left behind, or a grandchild that escaped the group with setsid).
 */
const STDIO_DRAIN_MS = 500

export interface GroupExit {
  /** The exit code; null when the process died of a signal or never started. */
  code: number | null
  signal: NodeJS.Signals | null
  /** The spawn error (ENOENT, EACCES…), when the program could not be started. */
  spawnError?: NodeJS.ErrnoException
}

export interface GroupProcess {
  readonly child: ChildProcess
  /** The process has exited and its stdio is closed (or was given up on). */
  readonly ended: Promise<GroupExit>
  /** Sends a signal to the whole group (to the process alone when it has no group of its own). */
  signal(signal: NodeJS.Signals): void
  /** SIGTERM to the group, SIGKILL after the grace, then stops waiting for its stdio. */
  stop(): void
}

export interface GroupOptions {
  env: NodeJS.ProcessEnv
  stdio: StdioOptions
  /**
   * A new session and process group (setsid). False for a program that must own the terminal:
   * it has to stay in the terminal's foreground group to read it and receive ^C.
   */
  ownGroup: boolean
}

export function startProcess(command: string, args: string[], options: GroupOptions): GroupProcess {
  let child: ChildProcess
  try {
    child = spawn(command, args, {env: options.env, stdio: options.stdio, detached: options.ownGroup})
  } catch (error) {
    // Node throws some start failures instead of emitting them (E2BIG: arguments and environment
    // beyond the OS limit, which a profile's exec extension can reach through KUBERNETES_EXEC_INFO).
    // They are the same kind of outcome as ENOENT: the program never started.
    if (typeof (error as NodeJS.ErrnoException)?.code !== 'string') throw error
    return neverStarted(error as NodeJS.ErrnoException)
  }
  let exit: GroupExit | undefined
  let finish: (exit: GroupExit) => void = () => undefined
  const ended = new Promise<GroupExit>((resolve) => (finish = resolve))
  let settled = false
  let stopping = false
  let drain: NodeJS.Timeout | undefined
  const settle = (value: GroupExit) => {
    if (settled) return
    settled = true
    clearTimeout(drain)
    finish(value)
  }
  // Stop reading what the process left behind, and end with what it did.
  const abandonStdio = () => {
    for (const stream of [child.stdout, child.stderr]) stream?.destroy()
    settle(exit ?? {code: null, signal: 'SIGKILL'})
  }

  child.on('error', (error: NodeJS.ErrnoException) => {
    // 'error' without a pid: the program never started ('close' follows, without an exit code).
    if (child.pid === undefined) settle({code: null, signal: null, spawnError: error})
  })
  child.on('exit', (code, signal) => {
    exit = {code, signal}
    // It ended by itself, but something it started still holds its stdout (a helper daemon):
    // take what is in the pipe, then stop waiting. Those helpers are not cpcred's to stop.
    if (!stopping) drain = setTimeout(abandonStdio, STDIO_DRAIN_MS).unref()
  })
  child.on('close', (code, signal) => settle(exit ?? {code, signal}))

  const sendToGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return
    try {
      // A negative pid addresses the process group; the leader's pid is the group id, and it
      // stays valid while any member lives, even after the leader has exited.
      process.kill(options.ownGroup ? -child.pid : child.pid, signal)
    } catch {
      // ESRCH: the group is already gone.
    }
  }
  return {
    child,
    ended,
    signal: (signal) => {
      if (!settled) sendToGroup(signal)
    },
    stop() {
      if (stopping || settled) return
      stopping = true
      clearTimeout(drain)
      sendToGroup('SIGTERM')
      // Whatever ignored SIGTERM is killed, even when the leader is gone and the pipes are closed.
      setTimeout(() => {
        sendToGroup('SIGKILL')
        setTimeout(abandonStdio, STDIO_DRAIN_MS).unref()
      }, STOP_GRACE_MS).unref()
    },
  }
}

function neverStarted(spawnError: NodeJS.ErrnoException): GroupProcess {
  const child = new EventEmitter() as ChildProcess
  Object.assign(child, {stdin: null, stdout: null, stderr: null, pid: undefined})
  return {
    child,
    ended: Promise.resolve({code: null, signal: null, spawnError}),
    signal: () => undefined,
    stop: () => undefined,
  }
}

/** The exit code, or 128+n for death by signal n, as a shell reports it. */
export function exitStatus(exit: Pick<GroupExit, 'code' | 'signal'>): number {
  return exit.signal ? signalExitCode(exit.signal) : (exit.code ?? 1)
}

/**
 * Processes to stop when cpcred itself is asked to stop. A program in a group of its own does not
 * get the ^C typed at the terminal, and would outlive cpcred; so while any is registered, those
 * signals stop them all and are reported to `onInterrupt` instead of ending cpcred at once.
 */
export class StopOnSignal {
  private readonly running = new Map<GroupProcess, (signal: NodeJS.Signals) => void>()
  private off: (() => void) | undefined

  /** Registers a process until it ends; `onInterrupt` hears which signal stopped it. */
  watch(group: GroupProcess, onInterrupt: (signal: NodeJS.Signals) => void): void {
    if (this.running.size === 0) this.off = onSignals(STOPPING_SIGNALS, (signal) => this.interrupt(signal))
    this.running.set(group, onInterrupt)
    void group.ended.then(() => {
      this.running.delete(group)
      if (this.running.size === 0) {
        this.off?.()
        this.off = undefined
      }
    })
  }

  private interrupt(signal: NodeJS.Signals): void {
    for (const [group, onInterrupt] of this.running) {
      onInterrupt(signal)
      group.stop()
    }
  }
}

export const stopOnSignal = new StopOnSignal()
