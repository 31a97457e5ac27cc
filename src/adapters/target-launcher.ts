// cpcred's side of the launcher (launcher-process.ts): the fan-out's commands are started by a small
// Node process of cpcred's (two for a wide fan-out), started once per run, rather than by cpcred
// itself. Starting a command forks the process that asks; from cpcred, which holds the whole fleet
// in memory, that fork cost more than everything else a target needs (docs/performance.md,
// fanout-1000).
import {fork, type ChildProcess} from 'node:child_process'
import {Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import type {ChildRequest, ChildStdin, OnLine} from '../usecases/ports.js'
import type {FromLauncher, LaunchExit, ToLauncher} from './launcher-protocol.js'

export interface LaunchedTarget {
  /** The command has ended and all of its output has been handed to `onLine`. */
  ended: Promise<LaunchExit>
  signal(signal: NodeJS.Signals): void
  /** SIGTERM to its group, SIGKILL after the grace. */
  stop(): void
}

interface Target {
  onLine?: OnLine
  stdin?: StdinProxy
  finish(exit: LaunchExit): void
}

// Both builds keep it at dist/fast/launcher-process.cjs: the bundles are in dist/fast, the
// compiled modules one level below dist as well. Worked out when a fan-out starts it, not when this
// module loads: the full path's single `cpcred exec` loads it too (child-runner.ts) and never
// needs it.
const launcherPath = () => fileURLToPath(new URL('../fast/launcher-process.cjs', import.meta.url))

/**
 * A launcher waits for each command it starts to exec before it can start the next (Node's spawn
 * is synchronous up to the exec), so one launcher starts commands one at a time however many cores
 * there are: a second one is started once the first runs this many, and each command goes to the
 * launcher running the fewest. 3,000 `true` started by two Node processes, 16 at a time each, took
 * 1.1 and 1.4 times as long as `xargs -P32`; by one, 32 at a time, 1.5 and 2.7 times
 * (docs/performance.md, fanout-10000).
 */
const COMMANDS_PER_LAUNCHER = 8
const MAX_LAUNCHERS = 2

class Launchers {
  private readonly started: Launcher[] = []

  launch(request: ChildRequest, onLine: OnLine | undefined, stdin: ChildStdin | undefined): LaunchedTarget {
    return this.leastBusy().launch(request, onLine, stdin)
  }

  async close(): Promise<void> {
    await Promise.all(this.started.map((one) => one.close()))
  }

  private leastBusy(): Launcher {
    let least: Launcher | undefined
    for (const one of this.started) if (!least || one.running < least.running) least = one
    if (!least || (least.running >= COMMANDS_PER_LAUNCHER && this.started.length < MAX_LAUNCHERS)) {
      least = new Launcher()
      this.started.push(least)
    }
    return least
  }
}

class Launcher {
  private child: ChildProcess | undefined
  private readonly targets = new Map<number, Target>()
  private nextId = 0

  /** How many of its commands have not ended yet. */
  get running(): number {
    return this.targets.size
  }

  launch(request: ChildRequest, onLine: OnLine | undefined, stdin: ChildStdin | undefined): LaunchedTarget {
    const id = this.nextId++
    let finish: (exit: LaunchExit) => void = () => undefined
    const ended = new Promise<LaunchExit>((resolve) => (finish = resolve))
    const pipe = stdin?.stdio === 'pipe' ? new StdinProxy((message) => this.send(message), id) : undefined
    this.targets.set(id, {onLine, stdin: pipe, finish})
    this.send({
      kind: 'start',
      id,
      command: request.command,
      args: request.args,
      env: request.env,
      stdin: stdin ? stdin.stdio : 'ignore',
      lines: onLine !== undefined,
    })
    this.holdOpen(true)
    stdin?.started(pipe ?? null)
    let settled = false
    void ended.then(() => (settled = true))
    return {
      ended,
      signal: (signal) => {
        if (!settled) this.send({kind: 'signal', id, signal})
      },
      stop: () => {
        if (!settled) this.send({kind: 'stop', id})
      },
    }
  }

  /** Lets the launcher go, and waits for it to exit: it does once nothing it started runs. */
  async close(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    // Held while it is waited for: an unreferenced child lets cpcred end before the wait does.
    child.ref()
    if (child.connected) child.disconnect()
    await exited
  }

  /** Only a start starts the launcher: the rest concerns commands it is (or was) running. */
  private send(message: ToLauncher): void {
    const child = message.kind === 'start' ? this.start() : this.child
    // A failed send means the launcher is going: its 'exit' reports what it was running.
    if (child?.connected) child.send(message, undefined, undefined, () => undefined)
  }

  private start(): ChildProcess {
    if (this.child) return this.child
    const child = fork(launcherPath(), [], {
      // Each start forks the launcher, and the kernel copies its mappings and page tables while
      // the launcher waits for the exec: the smaller it is, the sooner the next command starts.
      // Without V8's worker threads (their stacks and heaps), a fan-out of 1,000 `true` took about
      // 5% less wall time. (--lite-mode did no better, and prints a warning on every start.) A
      // young generation of 1 MB rather than 16 keeps fewer pages for each fork to copy: 10,000
      // `true` cost about 10% less CPU in three of three pairs of runs.
      execArgv: ['--single-threaded', '--max-semi-space-size=1'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    child.on('message', (message: FromLauncher) => this.receive(message))
    // It ends only with cpcred; if it dies first, what it was running is reported as not started.
    child.on('exit', (code, signal) => this.lost(child, `exited (${signal ?? `status ${code}`})`))
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Without a pid it never started, and no 'exit' follows; later errors are failed sends to a
      // launcher that is exiting, which 'exit' reports.
      if (child.pid === undefined) this.lost(child, `could not be started (${error.code ?? error.message})`)
    })
    this.child = child
    return child
  }

  private lost(child: ChildProcess, why: string): void {
    if (this.child === child) this.child = undefined
    const spawnError = {message: `cpcred's launcher ${why}`}
    for (const id of [...this.targets.keys()]) this.end(id, {code: null, signal: null, spawnError})
  }

  private receive(message: FromLauncher): void {
    const target = this.targets.get(message.id)
    if (!target) return
    switch (message.kind) {
      case 'lines': {
        const {data, ends, open, stream} = message
        let start = 0
        ends.forEach((end, index) => {
          const line = data.subarray(start, end)
          start = end
          if (open === undefined) target.onLine?.(stream, line)
          else target.onLine?.(stream, line, !open.includes(index))
        })
        return
      }
      case 'stdin-written':
        return target.stdin?.written()
      case 'stdin-closed':
        return void target.stdin?.destroy()
      case 'ended':
        return this.end(message.id, message.exit)
    }
  }

  private end(id: number, exit: LaunchExit): void {
    const target = this.targets.get(id)
    if (!target) return
    this.targets.delete(id)
    target.stdin?.destroy()
    if (this.targets.size === 0) this.holdOpen(false)
    target.finish(exit)
  }

  /** The launcher keeps cpcred running only while it runs something for it. */
  private holdOpen(hold: boolean): void {
    const child = this.child
    if (!child) return
    if (hold) {
      child.ref()
      child.channel?.ref()
    } else {
      child.unref()
      child.channel?.unref()
    }
  }
}

/** The command's stdin, in cpcred: what is written goes to the launcher, one chunk at a time. */
class StdinProxy extends Writable {
  private readonly callbacks: Array<(error?: Error | null) => void> = []

  constructor(
    private readonly sendToLauncher: (message: ToLauncher) => void,
    private readonly id: number,
  ) {
    super()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.callbacks.push(callback)
    this.sendToLauncher({kind: 'stdin', id: this.id, chunk})
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.sendToLauncher({kind: 'stdin-end', id: this.id})
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.sendToLauncher({kind: 'stdin-destroy', id: this.id})
    callback(error)
  }

  written(): void {
    this.callbacks.shift()?.()
  }
}

export const launcher = new Launchers()
