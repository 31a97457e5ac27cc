// Human output the way kubectl prints it.

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
 * Aligns rows like kubectl's tabwriter (minimum width 6, padding 3); the last column is not
 * padded. `style` decorates a cell after its width is measured, so colour does not break alignment.
 */
export function renderTable(
  headers: string[],
  rows: string[][],
  style: (cell: string, column: number, isHeader: boolean) => string = (cell) => cell,
): string {
  const widths = headers.map((header, column) =>
    Math.max(6, header.length + 3, ...rows.map((row) => (row[column] ?? '').length + 3)),
  )
  const line = (cells: string[], isHeader: boolean) =>
    cells
      .map((cell, column) => {
        const styled = style(cell, column, isHeader)
        return column === cells.length - 1 ? styled : styled + ' '.repeat(widths[column]! - cell.length)
      })
      .join('')
  return [line(headers, true), ...rows.map((row) => line(row, false))].join('\n') + '\n'
}
