// What a person (or a CI log) sees while `cpcred exec` runs on many targets: each line prefixed
// with its profile, a progress line on a terminal only, and a summary at the end.
import type {ChalkInstance} from 'chalk'
import {renderTable} from '../core/format.js'
import type {TargetResult} from '../usecases/exec-command.js'

const COLOURS = ['cyan', 'magenta', 'yellow', 'blue', 'green', 'red'] as const

export interface FanOutView {
  line(profile: string, stream: 'stdout' | 'stderr', text: string): void
  done(result: TargetResult, done: number, total: number): void
  finish(results: TargetResult[]): void
}

export interface FanOutViewOptions {
  profiles: string[]
  chalk: ChalkInstance
  /** Where the command's stdout lines go (stderr when stdout carries the JSON summary). */
  out: (text: string) => void
  err: (text: string) => void
  /** stderr is a terminal: draw a progress line. */
  progress: boolean
  json: boolean
}

export function fanOutView(options: FanOutViewOptions): FanOutView {
  const width = Math.max(...options.profiles.map((profile) => profile.length))
  const colourOf = new Map(
    options.profiles.map((profile, index) => [profile, COLOURS[index % COLOURS.length]!]),
  )
  let status = ''
  const clearStatus = () => status && options.err('\r\x1b[2K')
  const drawStatus = () => status && options.err(status)
  const write = (sink: (text: string) => void, text: string) => {
    clearStatus()
    sink(text)
    drawStatus()
  }
  const prefix = (profile: string) =>
    options.chalk[colourOf.get(profile) ?? 'cyan'](`${profile.padEnd(width)} |`)

  return {
    line(profile, stream, text) {
      write(stream === 'stdout' && !options.json ? options.out : options.err, `${prefix(profile)} ${text}\n`)
    },
    done(result, done, total) {
      if (result.error && !result.cancelled)
        write(options.err, `${prefix(result.profile)} ${options.chalk.red(`error: ${result.error}`)}\n`)
      if (!options.progress) return
      clearStatus()
      status = done < total ? `${done}/${total} done` : ''
      drawStatus()
    },
    finish(results) {
      clearStatus()
      status = ''
      if (options.json) {
        options.out(
          `${JSON.stringify(
            results.map((result) => ({
              profile: result.profile,
              exitCode: result.exitCode,
              durationMs: Math.round(result.durationMs),
              ...(result.error ? {error: result.error} : {}),
            })),
            null,
            2,
          )}\n`,
        )
        return
      }
      const failed = results.filter((result) => result.exitCode !== 0).length
      const rows = results.map((result) => [
        result.profile,
        String(result.exitCode),
        `${(result.durationMs / 1000).toFixed(1)}s`,
        result.error ?? '',
      ])
      const table = renderTable(['PROFILE', 'EXIT', 'DURATION', 'NOTE'], rows, (cell, column, isHeader) =>
        !isHeader && column === 1
          ? cell === '0'
            ? options.chalk.green(cell)
            : options.chalk.red(cell)
          : cell,
      )
      options.err(
        `\n${table}${failed ? `${failed} of ${results.length} failed\n` : `all ${results.length} succeeded\n`}`,
      )
    },
  }
}
