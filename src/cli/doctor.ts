// `cpcred doctor`: its adapters, and how its report is shown.
import {CredentialStore, defaultCredentialCacheDir} from '../adapters/credential-store.js'
import path from 'node:path'
import {findExecutable} from '../adapters/executables.js'
import {ProfileSnapshots} from '../adapters/profile-snapshots.js'
import type {Printer} from '../adapters/printer.js'
import {pluginRunner} from '../adapters/process.js'
import {probeServer} from '../adapters/server-probe.js'
import type {CheckStatus} from '../core/doctor/checks.js'
import {ASCII_SYMBOLS, UNICODE_SYMBOLS, renderDoctorReport, type DoctorReport} from '../core/doctor/report.js'
import type {DoctorDeps} from '../usecases/doctor.js'

export function doctorDeps(printer: Printer): DoctorDeps {
  return {
    runner: pluginRunner,
    probe: probeServer,
    findExecutable,
    cache: new CredentialStore(defaultCredentialCacheDir()),
    snapshots: new ProfileSnapshots(path.join(path.dirname(defaultCredentialCacheDir()), 'profiles')),
    now: () => new Date(),
    env: process.env,
    stdinIsTTY: printer.stdinIsTTY,
    uid: process.getuid?.(),
    onCheck: (id, profile) =>
      printer.status(`checking ${profile ? `${profile}: ` : ''}${id}${printer.glyphs.ellipsis}`),
  }
}

/**
 * Symbols and colour on a terminal that shows UTF-8; words (ok, FAIL, warn) in logs and pipes, where
 * grep finds them, and on terminals that cannot show the symbols.
 */
export async function showReport(printer: Printer, report: DoctorReport): Promise<void> {
  const symbols = printer.stdoutIsTTY && printer.unicode ? UNICODE_SYMBOLS : ASCII_SYMBOLS
  const {cells, statuses} = renderDoctorReport(report, symbols)
  const chalk = await printer.paint()
  const paint: Record<CheckStatus, (text: string) => string> = {
    ok: chalk.green,
    warn: chalk.yellow,
    fail: chalk.red,
    skip: chalk.dim,
  }
  printer.cells(cells, {
    style: (cell, column, row) => (column === 0 && statuses[row] ? paint[statuses[row]](cell) : cell),
  })
}
