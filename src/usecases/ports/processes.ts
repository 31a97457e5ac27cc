// The ports of processes and their private files: the user's command as `cpcred exec` runs it (its
// stdin, its lines, its process group), the private files a target's credential is written to, the
// renewal of that credential while the command runs, and the signals forwarded to it meanwhile.
import type {Writable} from 'node:stream'

export interface ChildRequest {
  command: string
  args: string[]
  /** Added to cpcred's own environment. */
  env: Record<string, string>
}

export interface ChildResult {
  /**
   * The exit code, or 128+n when the command died of signal n, or as a shell reports a command it
   * cannot start: 127 when there is no such command, 126 when it cannot be run (not executable).
   */
  exitCode: number
  signal?: string
  notFound: boolean
  /** Why the command could not start, in the shell's words ("command not found", "Permission denied"). */
  startError?: string
}

export interface RunningChild {
  result: Promise<ChildResult>
  /** Passes a signal on (to the command's whole process group when it has one). */
  kill(signal: NodeJS.Signals): void
  /** Ends it: SIGTERM, then SIGKILL after a grace (--fail-fast). */
  stop(): void
}

/**
 * A line of a command's output, its bytes as written (never decoded; a `\r` before the newline kept),
 * without the newline; `newline` is false when none ended it (a cut piece, the last line).
 */
export type OnLine = (stream: 'stdout' | 'stderr', line: Buffer, newline?: boolean) => void

/** A fan-out target's stdin: a file to read from its start, or a pipe that is fed once the child runs. */
export type TargetStdin = {file: string} | 'pipe'

export interface ChildStdin {
  stdio: TargetStdin
  /** The child has been started; `stdin` is its pipe (null when it was given the file). */
  started(stdin: Writable | null): void
}

/** The user's command, as `cpcred exec` runs it. */
export interface ChildRunner {
  /**
   * stdio inherited: the command owns the terminal and stays in its foreground process group,
   * unless `ownGroup` (--timeout), so that stopping it stops what it started too, as timeout(1) does.
   */
  inherited(request: ChildRequest, options?: {ownGroup?: boolean}): RunningChild
  /**
   * stdin from `stdin` or else /dev/null; each line of stdout and stderr handed to `onLine`, or both
   * sent to /dev/null without one (nobody reads them). The command gets a process group of its own,
   * so stopping it stops what it started too.
   */
  prefixed(request: ChildRequest, onLine?: OnLine, stdin?: ChildStdin): RunningChild
  /** After the last `prefixed` command has ended: whatever started them is gone when this settles. */
  close(): Promise<void>
}

export interface TempKubeconfigs {
  /** Writes the content to a new private file (0600 in a 0700 directory); returns its path. */
  create(content: string, kind?: 'kubeconfig' | 'token' | 'certificate'): Promise<string>
  /** Replaces a file create made with new content, atomically (a reader sees the old or the new). */
  replace(file: string, content: string): Promise<void>
  /** Removes the file. */
  remove(file: string): Promise<void>
  /** A path in the run's private directory for a file the caller creates; it goes with the directory. */
  pathFor(name: string): Promise<string>
  /** Removes the run's private directory (and anything left in it); called once, at the end. */
  dispose(): Promise<void>
  /** Removes what runs killed before they could clean up left behind (housekeeping, never fails). */
  sweepStale(): Promise<unknown>
}

/**
 * Runs a renewal command and hands back its stdout; stdin is closed, stderr is the user's unless
 * `quiet` (a retry after a failure that was already reported).
 */
export type RenewCredential = (
  command: string[],
  options?: {quiet?: boolean; signal?: AbortSignal},
) => Promise<string>

/** While `action` runs, signals sent to cpcred go to `forward` instead of ending it. */
export type ForwardingSignals = <T>(
  forward: (signal: NodeJS.Signals) => void,
  action: () => Promise<T>,
) => Promise<T>
