// What a person (or a CI log) sees while `cpcred exec` runs on many targets: each line prefixed
// with its profile, a progress line on a terminal only, and a summary at the end.
import type {ChalkInstance} from 'chalk'
import {kubectlTable} from '../core/format.js'
import type {TargetResult} from '../usecases/exec-command.js'
import type {Printer} from './printer.js'

const COLOURS = ['cyan', 'magenta', 'yellow', 'blue', 'green', 'red'] as const

export interface FanOutView {
  line(profile: string, stream: 'stdout' | 'stderr', text: string): void
  done(result: TargetResult, done: number, total: number): void
  finish(results: TargetResult[]): void
}

export interface FanOutViewOptions {
  profiles: string[]
  printer: Printer
  chalk: ChalkInstance
  /** stdout carries the JSON summary: the commands' stdout lines go to stderr. */
  json: boolean
}

export function fanOutView(options: FanOutViewOptions): FanOutView {
  const {printer, chalk} = options
  const width = Math.max(...options.profiles.map((profile) => profile.length))
  const colourOf = new Map(
    options.profiles.map((profile, index) => [profile, COLOURS[index % COLOURS.length]!]),
  )
  const paintPrefix = (profile: string) => (prefix: string) => chalk[colourOf.get(profile) ?? 'cyan'](prefix)
  const prefix = (profile: string) => `${profile.padEnd(width)} |`

  return {
    line(profile, stream, text) {
      const to = stream === 'stdout' && !options.json ? 'stdout' : 'stderr'
      printer.prefixed(to, prefix(profile), text, {paintPrefix: paintPrefix(profile)})
    },
    done(result, done, total) {
      if (result.error && !result.cancelled) {
        printer.prefixed('stderr', prefix(result.profile), `error: ${result.error}`, {
          printable: true,
          paintPrefix: paintPrefix(result.profile),
          paintLine: (line) => chalk.red(line),
        })
      }
      printer.status(done < total ? `${done}/${total} done` : '')
    },
    finish(results) {
      printer.status('')
      if (options.json) {
        printer.data(
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
        // The first line; the whole message was shown when the target ended.
        result.error?.split('\n')[0] ?? '',
      ])
      printer.note('')
      printer.cells(kubectlTable(['PROFILE', 'EXIT', 'DURATION', 'NOTE'], rows), {
        stream: 'stderr',
        style: (cell, column, row) =>
          row > 0 && column === 1 ? (cell === '0' ? chalk.green(cell) : chalk.red(cell)) : cell,
      })
      printer.note(failed ? `${failed} of ${results.length} failed` : `all ${results.length} succeeded`)
    },
  }
}
