import type {Printer} from '../adapters/printer.js'
import {ExitCode, isCpcredError} from '../core/errors.js'

interface OclifError {
  message: string
  stack?: string
  oclif?: {exit?: number}
  code?: string
}

/** Prints a failure for a person (never a stack trace for their mistakes) and returns the exit code. */
export function reportError(
  error: unknown,
  printer: Pick<Printer, 'error' | 'note'>,
  options: {debug: boolean},
): number {
  if (isCpcredError(error)) {
    if (error.message) printer.error(error.message, error.hint)
    if (options.debug && error.cause instanceof Error) printer.note(`${error.cause.stack}`)
    return error.exitCode
  }
  const oclif = error as OclifError
  // this.exit(n) inside a command: the command already said what it had to say.
  if (oclif?.code === 'EEXIT') return oclif.oclif?.exit ?? ExitCode.Failure
  if (typeof oclif?.oclif?.exit === 'number') {
    // Flag and argument parsing failures, unknown commands: usage errors.
    printer.error(firstParagraph(oclif.message), "See 'cpcred --help' or 'cpcred COMMAND --help'.")
    return oclif.oclif.exit === ExitCode.Failure ? ExitCode.Failure : ExitCode.Usage
  }
  const system = systemErrorMessage(error)
  if (system) {
    // A path the user named or the environment chose (full disk, missing directory, permissions):
    // their environment, not a bug.
    printer.error(system, 'check the path, its parent directories and their permissions')
    return ExitCode.Failure
  }
  const message = error instanceof Error ? error.message : String(error)
  printer.error(message)
  if (options.debug && error instanceof Error) printer.note(`${error.stack}`)
  else printer.note('This is unexpected; run again with CPCRED_DEBUG=1 for details and report it.')
  return ExitCode.Failure
}

function firstParagraph(message: string): string {
  return message.split('\nSee more help with')[0]!.trim()
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'it already exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  // Operating-system limits: the environment, not a bug.
  E2BIG: 'the arguments and environment exceed the operating system limit',
  EMFILE: 'too many open files (raise ulimit -n)',
  ENFILE: 'too many open files on the system',
  ENOMEM: 'out of memory',
  EAGAIN: 'resource temporarily unavailable (process or thread limit?)',
  ENAMETOOLONG: 'the file name is too long',
  ELOOP: 'too many symbolic links',
  EFBIG: 'the file is too large',
  EDQUOT: 'disk quota exceeded',
  ETXTBSY: 'the file is busy',
}

/** "cannot open /x: permission denied" for Node's file system errors, undefined for anything else. */
function systemErrorMessage(error: unknown): string | undefined {
  const {code, syscall, path} = (error ?? {}) as NodeJS.ErrnoException
  if (typeof code !== 'string' || typeof syscall !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined
  return `cannot ${syscall}${path ? ` ${path}` : ''}: ${SYSTEM_REASONS[code] ?? code}`
}
