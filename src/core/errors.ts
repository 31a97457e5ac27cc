// Every failure a user can cause or meet is a CpcredError: a one-line message that says what went
// wrong and what to do, and the exit code that scripts can rely on (docs/design.md §4).

import os from 'node:os'

export const ExitCode = {
  Success: 0,
  Failure: 1,
  Usage: 2,
  /** Hub or target unreachable, or the API is not served there. */
  Unreachable: 3,
  /** Authentication or authorization denied. */
  Denied: 4,
  /** Credential plugin missing, exited non-zero, gave invalid output, or timed out. */
  PluginFailed: 5,
} as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** The status of a process stopped by `signal`, as a shell reports it (130 for SIGINT). */
export function signalExitCode(signal: string): number {
  return 128 + (os.constants.signals[signal as NodeJS.Signals] ?? 0)
}

export interface CpcredErrorOptions {
  /** One of ExitCode, or 128+n when cpcred was stopped by signal n. */
  exitCode?: number
  /** What to do next, printed on its own line after the message. */
  hint?: string
  cause?: unknown
}

/**
 * Marks cpcred's errors across copies of this module: the fast path (credential, built-in plugins)
 * runs from a bundle, and its errors are reported by the unbundled entry point.
 */
const CPCRED_ERROR = Symbol.for('cpcred.error')

export class CpcredError extends Error {
  readonly [CPCRED_ERROR] = true
  readonly exitCode: number
  readonly hint?: string

  constructor(message: string, options: CpcredErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = 'CpcredError'
    this.exitCode = options.exitCode ?? ExitCode.Failure
    this.hint = options.hint
  }
}

export class UsageError extends CpcredError {
  constructor(message: string, hint?: string) {
    super(message, {exitCode: ExitCode.Usage, hint})
    this.name = 'UsageError'
  }
}

/**
 * Ends cpcred with `exitCode` and nothing more to say: the reader of its output has gone (a closed
 * pipe: 141, as a shell reports SIGPIPE), and a message would have nowhere useful to go.
 */
export class QuietExit extends CpcredError {
  constructor(exitCode: number) {
    super('', {exitCode})
    this.name = 'QuietExit'
  }
}

/**
 * The command cpcred ran for the user died of SIGINT (^C): cpcred, once it has cleaned up, dies of
 * it too, so a shell loop around it stops as it would around the command itself.
 */
export class DiedOfSignal extends QuietExit {
  constructor(readonly reraise: 'SIGINT') {
    super(signalExitCode(reraise))
    this.name = 'DiedOfSignal'
  }
}

/** 141: what a shell reports for a writer whose reader went away (SIGPIPE), as kubectl exits then. */
export const OUTPUT_CLOSED_EXIT_CODE = 128 + 13

export function isCpcredError(error: unknown): error is CpcredError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as {[CPCRED_ERROR]?: boolean})[CPCRED_ERROR] === true
  )
}

/** A paginated list's continue token expired on the server (HTTP 410 Gone). */
export class ContinueExpiredError extends CpcredError {
  constructor() {
    super('the list continue token expired on the server (410 Gone)')
    this.name = 'ContinueExpiredError'
  }
}

/** A watch's resourceVersion is too old for the server (410 Gone): list again, then watch. */
export class WatchExpiredError extends CpcredError {
  constructor() {
    super('the watch of ClusterProfiles expired on the server (410 Gone)')
    this.name = 'WatchExpiredError'
  }
}
