// What cpcred and its launcher (launcher-process.ts) say to each other over the IPC channel. The
// launcher is a small Node process that starts a fan-out's commands: fork() copies the page tables
// of the process that calls it, and a process holding a thousand profiles pays for that on every
// target (see docs/performance.md, fanout-1000).

import type {TargetStdin} from '../usecases/ports.js'

/** A target's stdin: /dev/null, or the spooled input (its file, or a pipe cpcred feeds). */
export type LaunchStdin = 'ignore' | TargetStdin

export type ToLauncher =
  | {
      kind: 'start'
      id: number
      command: string
      args: string[]
      /** Added to the launcher's environment, which is cpcred's. */
      env: Record<string, string>
      stdin: LaunchStdin
      /** Send stdout and stderr line by line, as bytes; without it both go to /dev/null. */
      lines: boolean
    }
  | {kind: 'signal'; id: number; signal: NodeJS.Signals}
  | {kind: 'stop'; id: number}
  | {kind: 'stdin'; id: number; chunk: Uint8Array}
  | {kind: 'stdin-end'; id: number}
  | {kind: 'stdin-destroy'; id: number}

export type FromLauncher =
  | {
      kind: 'lines'
      id: number
      stream: 'stdout' | 'stderr'
      /**
       * The command's bytes, never decoded: its lines (core/text/line-splitter.ts) without their
       * newlines, one after another; line i ends at `ends[i]` (and starts where line i-1 ended).
       */
      data: Buffer
      ends: number[]
      /** Which lines no newline ended (a piece of a longer line, a last line without one). */
      open?: number[]
    }
  /** A stdin chunk is written (or could not be: the command closed its stdin). */
  | {kind: 'stdin-written'; id: number}
  /** The command's stdin is gone (it exited or closed it): stop feeding it. */
  | {kind: 'stdin-closed'; id: number}
  | {kind: 'ended'; id: number; exit: LaunchExit}

export interface LaunchExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** errno code and message when the command could not be started. */
  spawnError?: {code?: string; message: string}
}
