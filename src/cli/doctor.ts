// `cpcred doctor`: its ports from the wiring, and how its report is shown.
import type {Printer} from '../adapters/printer.js'
import type {CheckStatus} from '../core/doctor/checks.js'
import {ASCII_SYMBOLS, UNICODE_SYMBOLS, renderDoctorReport, type DoctorReport} from '../core/doctor/report.js'
import type {DoctorDeps} from '../usecases/doctor.js'
import type {Wiring} from './wiring.js'

export async function doctorDeps(wiring: Wiring): Promise<DoctorDeps> {
  const {printer} = wiring
  return {
    ...(await wiring.doctorPorts()),
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
