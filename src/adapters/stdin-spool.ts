// `cat app.yaml | cpcred exec --all -- kubectl apply -f -`: cpcred's stdin is read once, into a private
// spool file (0600, in the run's 0700 directory, removed with it and swept after a kill -9), and every
// target gets a copy of all of it from the first byte. Nothing waits for the input to end before a
// target starts: a target whose command never reads stdin finishes as it would without cpcred, and a
// stdin that is never closed (a CI runner's open pipe) holds nobody but the commands that read it.
import {constants} from 'node:fs'
import {open, type FileHandle} from 'node:fs/promises'
import type {Readable, Writable} from 'node:stream'
import {CpcredError, UsageError} from '../core/errors.js'
import type {StdinCopies} from '../usecases/ports.js'

/** More than this is refused: the spool lives in the user's runtime directory, often a tmpfs. */
export const STDIN_SPOOL_LIMIT = 256 * 1024 * 1024
const CHUNK = 64 * 1024

export async function spoolStdin(
  source: Readable,
  file: string,
  limit = STDIN_SPOOL_LIMIT,
): Promise<StdinCopies> {
  // A new file only, never through a link planted at its path.
  const writer = await open(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  )
  let size = 0
  /** The whole input has arrived. */
  let ended = false
  /** More than the limit arrived, or the spool could not be written: the run is being stopped, and no
   * target may see an end of input. */
  let failed = false
  let disposed = false
  let wake: Array<() => void> = []
  const changed = () => {
    for (const resolve of wake.splice(0)) resolve()
  }
  const nextChange = () => new Promise<void>((resolve) => wake.push(resolve))
  // Writes to the spool go one after another; the input has ended only once the last one is done
  // ('end' can come as soon as the last chunk is handed over, before it is written).
  let writing: Promise<unknown> = Promise.resolve()
  let received = 0
  // An unreadable stdin (EIO from a vanished terminal) ends the input where it stopped.
  const end = () =>
    void writing.finally(() => {
      ended = true
      changed()
    })
  let reportFailure: (error: CpcredError) => void = () => undefined
  const failure = new Promise<CpcredError>((resolve) => (reportFailure = resolve))
  const fail = (error: CpcredError) => {
    if (failed) return
    failed = true
    source.destroy()
    reportFailure(error)
    changed()
  }

  source.on('data', (chunk: Buffer) => {
    if (failed || disposed) return
    received += chunk.length
    if (received > limit) {
      fail(
        new UsageError(
          `the input on stdin is larger than ${Math.floor(limit / 1024 / 1024)} MiB, more than cpcred copies to every target`,
          'give each target the file instead (e.g. kubectl apply -f app.yaml), or --stdin=none',
        ),
      )
      return
    }
    // The source waits while the spool catches up.
    source.pause()
    writing = writing
      .then(() => writer.write(chunk, 0, chunk.length, size))
      .then(() => {
        size += chunk.length
        changed()
        if (!disposed) source.resume()
      })
      .catch((error: Error) =>
        fail(
          new CpcredError(`could not keep stdin for the targets in ${file}: ${error.message}`, {
            hint: 'free space there, point XDG_RUNTIME_DIR at a directory with room for it, or use --stdin=none',
          }),
        ),
      )
  })
  source.once('end', end)
  source.once('error', end)

  async function feed(stdin: Writable): Promise<void> {
    let gone = false
    const leave = () => {
      gone = true
      changed()
    }
    // The command may exit, or close its stdin, without reading all of it: not an error.
    stdin.on('error', leave)
    stdin.once('close', leave)
    let reader: FileHandle | undefined
    let complete = false
    try {
      reader = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW)
      let position = 0
      while (!gone && !disposed) {
        if (failed) {
          // Closing the pipe would read as the end of the input: a command such as kubectl apply
          // would act on part of it. The run stops the commands first; the pipe closes with them.
          await nextChange()
        } else if (position < size) {
          const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size - position))
          const {bytesRead} = await reader.read(buffer, 0, buffer.length, position)
          position += bytesRead
          if (!stdin.write(buffer.subarray(0, bytesRead)) && !gone) {
            await new Promise<void>((resolve) => {
              // Whichever comes first; the other must not pile up a listener per chunk.
              const resume = () => {
                stdin.off('drain', resume)
                resolve()
              }
              stdin.once('drain', resume)
              wake.push(resume)
            })
          }
        } else if (ended) {
          complete = true
          break
        } else await nextChange()
      }
    } catch {
      // The spool went away with the run: nothing more to give.
    } finally {
      await reader?.close()
      if (complete) stdin.end()
      else if (!gone) stdin.destroy()
    }
  }

  return {
    forTarget() {
      // Everything has arrived: the command reads the file itself, at its own pace.
      if (ended && !failed) return {file}
      return 'pipe'
    },
    started(given, stdin) {
      if (given === 'pipe' && stdin) void feed(stdin)
    },
    failure,
    async close() {
      disposed = true
      source.destroy()
      changed()
      wake = []
      await writer.close()
    },
  }
}
