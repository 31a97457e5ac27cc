// Human output the way kubectl prints it.
import {MAX_PRINTABLE_LENGTH, printable} from './printable.js'

/** kubectl's AGE: k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 60 * 2) return `${seconds}s`
  const minutes = Math.trunc(seconds / 60)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 60 * 3) return `${minutes}m`
  const hours = Math.trunc(minutes / 60)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365
    const years = Math.trunc(hours / 24 / 365)
    return days === 0 ? `${years}y` : `${years}y${days}d`
  }
  return `${Math.trunc(hours / 24 / 365)}y`
}

/** Age of a timestamp as kubectl prints it, "<unknown>" when there is none. */
export function age(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>'
  const then = Date.parse(timestamp)
  if (Number.isNaN(then)) return '<unknown>'
  return humanDuration(now.getTime() - then)
}

/**
 * Human-readable output as cells, aligned the way Go's text/tabwriter aligns them: kubectl's tables
 * (padding 3, minimum width 6) and describe (padding 2). Renderers build these from raw strings;
 * formatCells makes every cell printable before measuring, so escapes cannot break alignment.
 */
export interface Cells {
  rows: string[][]
  padding: number
  minWidth: number
  /** Drop trailing blanks (describe's empty values). */
  trimEnd?: boolean
  /**
   * Rows measured for the column widths but not printed: a row printed on its own (list --watch)
   * lines up with the table printed before it.
   */
  measureWith?: string[][]
}

/** Decorates a cell (colour) after its width is measured; row 0 is the header of a table. */
export type CellStyle = (cell: string, column: number, row: number) => string

/** A kubectl get table: the header row, then one row per object. */
export function kubectlTable(headers: string[], rows: string[][]): Cells {
  return {rows: [headers, ...rows], padding: 3, minWidth: 6}
}

/**
 * The text of `cells`: each cell made printable, a line's last cell not aligned, column n aligned
 * over each run of consecutive lines that have a cell after it (tabwriter's column blocks).
 */
export function formatCells(cells: Cells, style: CellStyle = (cell) => cell, ellipsis?: string): string {
  const measured = cells.measureWith?.length ?? 0
  const rows = [...(cells.measureWith ?? []), ...cells.rows].map((row) =>
    row.map((cell) => printable(cell, MAX_PRINTABLE_LENGTH, ellipsis)),
  )
  // Widths in characters (code points), as tabwriter counts runes; measured once per cell.
  const lengths = rows.map((row) => row.map(characters))
  const widths: number[][] = rows.map(() => [])
  const align = (column: number, from: number, to: number): void => {
    let line = from
    while (line < to) {
      if (rows[line]!.length - 1 <= column) {
        line++
        continue
      }
      const start = line
      let width = cells.minWidth
      while (line < to && rows[line]!.length - 1 > column) {
        width = Math.max(width, lengths[line]![column]! + cells.padding)
        line++
      }
      for (let index = start; index < line; index++) widths[index]![column] = width
      align(column + 1, start, line)
    }
  }
  align(0, 0, rows.length)
  return rows
    .map((cellsOfRow, index) => [cellsOfRow, index] as const)
    .slice(measured)
    .map(([cellsOfRow, index]) => {
      const row = index - measured
      const line = cellsOfRow
        .map((cell, column) => {
          const styled = style(cell, column, row)
          return column === cellsOfRow.length - 1
            ? styled
            : styled + ' '.repeat(widths[index]![column]! - lengths[index]![column]!)
        })
        .join('')
      return `${cells.trimEnd ? line.trimEnd() : line}\n`
    })
    .join('')
}

/** The characters (code points) of `text`: its UTF-16 length less one per surrogate pair. */
function characters(text: string): number {
  let length = text.length
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--
        index++
      }
    }
  }
  return length
}

/**
 * A list of names for one line of a message: all of them when few, else the first ones and how many
 * more (a merge of a thousand contexts used to print one line of their names).
 */
export function namesInBrief(names: readonly string[], shown = 5): string {
  if (names.length <= shown + 1) return names.join(', ')
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`
}
