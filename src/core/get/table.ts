// The merged table of `cpcred get`: each target's server-side Table (meta.k8s.io/v1, the columns
// kubectl get shows, CRDs' included) under one header, a CLUSTER column first (the profile as
// NAMESPACE/NAME), NAMESPACE after it with -A, then the servers' columns by kubectl's rules:
// columns of priority above 0 only with -o wide, a cell's text as kubectl prints it, rows in each
// target's order (targets in selection order) or by --sort-by. A target that failed is one row,
// CLUSTER and `<error: reason>`, after the others (tabwriter aligns no cell after a line's last).
import {UsageError} from '../errors.js'
import {isRecord} from '../json.js'
import {compareValues, parseJsonPath, valueAt, type PathStep} from './jsonpath.js'

export interface TableColumn {
  name: string
  type?: string
  format?: string
  priority?: number
}

export interface TableRow {
  cells: unknown[]
  /** The object (includeObject=Object) or its metadata (PartialObjectMetadata, the default). */
  object?: unknown
}

/** A server-side Table (meta.k8s.io/v1). */
export interface ServerTable {
  columnDefinitions: TableColumn[]
  rows: TableRow[]
  /** The list's (or, in a watch's event, the object's) resourceVersion. */
  resourceVersion?: string
}

/**
 * `value` as a Table, or undefined when the server answered with something else. A watch's events
 * after its first carry no columnDefinitions (the server sends them once): `columns`, those known
 * from before, stand for them.
 */
export function asTable(value: unknown, columns?: readonly TableColumn[]): ServerTable | undefined {
  if (!isRecord(value) || value.kind !== 'Table') return undefined
  const definitions =
    columns && (!Array.isArray(value.columnDefinitions) || value.columnDefinitions.length === 0)
      ? columns
      : value.columnDefinitions
  if (!Array.isArray(definitions)) return undefined
  const named = definitions.filter(
    (column): column is TableColumn => isRecord(column) && typeof column.name === 'string',
  )
  if (named.length !== definitions.length) return undefined
  const rows = (Array.isArray(value.rows) ? value.rows : []).filter(
    (row): row is TableRow => isRecord(row) && Array.isArray(row.cells),
  )
  const metadata = isRecord(value.metadata) ? value.metadata : {}
  const resourceVersion = typeof metadata.resourceVersion === 'string' ? metadata.resourceVersion : undefined
  return {columnDefinitions: named, rows, ...(resourceVersion !== undefined ? {resourceVersion} : {})}
}

/** One target's answer for one resource: its Table, or why it has none. */
export type TargetAnswer =
  | {cluster: string; table: ServerTable; error?: undefined}
  | {cluster: string; error: string; table?: undefined}

export interface MergeOptions {
  /** -o wide: columns of priority above 0 too. */
  wide: boolean
  /** -A on a namespaced resource: NAMESPACE after CLUSTER, from each row's object. */
  withNamespace: boolean
  /** Printing several types: NAME as KIND.GROUP/NAME (deployment.apps/web), as kubectl does. */
  kindPrefix?: string
  /** --sort-by. */
  sortBy?: SortKey
}

/** What --sort-by sorts on: a column of the merged table by its name, or a JSONPath on each row's object. */
export type SortKey = {column: string} | {path: PathStep[]; text: string}

/**
 * --sort-by's word: a JSONPath when it has a ".", "{" or "[" (.metadata.name, {.status.phase},
 * metadata.name as kubectl relaxes it); else a column of the table by its name, any case (AGE,
 * restarts), which kubectl's --sort-by does not have.
 */
export function sortKey(word: string): SortKey {
  const trimmed = word.trim()
  if (/[.{[]/.test(trimmed)) return {path: parseJsonPath(trimmed), text: trimmed}
  if (trimmed === '')
    throw new UsageError('--sort-by is empty', 'give a column (e.g. AGE) or a JSONPath (e.g. .metadata.name)')
  return {column: trimmed}
}

/** Whether sorting by `key` needs each row's whole object (includeObject=Object), not only its metadata. */
export function needsObject(key: SortKey | undefined): boolean {
  return key !== undefined && 'path' in key && key.path[0] !== 'metadata'
}

export interface MergedTable {
  /** Upper-case, as kubectl prints them. */
  headers: string[]
  rows: string[][]
  /** A row per target that failed: CLUSTER and `<error: reason>`. */
  errors: string[][]
}

export const CLUSTER_HEADER = 'CLUSTER'

/** The merged table of one resource. */
export function mergeTables(answers: readonly TargetAnswer[], options: MergeOptions): MergedTable {
  // The columns by name, in the order they first appear; the first definition of a name decides
  // whether it is a wide column (targets of other versions may differ).
  const columns: TableColumn[] = []
  const byName = new Map<string, number>()
  for (const answer of answers) {
    for (const column of answer.table?.columnDefinitions ?? []) {
      if (byName.has(column.name)) continue
      byName.set(column.name, columns.length)
      columns.push(column)
    }
  }
  const shown = columns.filter((column) => options.wide || !column.priority)
  const nameColumn = shown.findIndex((column) => column.format === 'name')
  const headers = [
    CLUSTER_HEADER,
    ...(options.withNamespace ? ['NAMESPACE'] : []),
    ...shown.map((column) => column.name.toUpperCase()),
  ]
  interface Line {
    cells: string[]
    values: unknown[]
    object: unknown
  }
  const lines: Line[] = []
  const errors: string[][] = []
  for (const answer of answers) {
    if (answer.error !== undefined) {
      errors.push([answer.cluster, `<error: ${answer.error}>`])
      continue
    }
    const definitions = answer.table.columnDefinitions
    for (const row of answer.table.rows) {
      const at = (name: string) => {
        const index = definitions.findIndex((column) => column.name === name)
        return index === -1 ? undefined : row.cells[index]
      }
      const values = shown.map((column) => at(column.name))
      const cells = values.map(cellText)
      if (options.kindPrefix !== undefined && nameColumn !== -1)
        cells[nameColumn] = `${options.kindPrefix}/${cells[nameColumn]}`
      const namespace = options.withNamespace ? [stringAt(row.object, ['metadata', 'namespace'])] : []
      lines.push({cells: [answer.cluster, ...namespace, ...cells], values, object: row.object})
    }
  }
  const key = options.sortBy
  if (key !== undefined) {
    const offset = 1 + (options.withNamespace ? 1 : 0)
    const valueOf = (line: Line): unknown => {
      if ('path' in key) return valueAt(line.object, key.path)
      const upper = key.column.toUpperCase()
      if (upper === CLUSTER_HEADER) return line.cells[0]
      if (upper === 'NAMESPACE' && options.withNamespace) return line.cells[1]
      const index = shown.findIndex((column) => column.name.toUpperCase() === upper)
      if (index === -1) throw noSuchColumn(key.column, headers)
      // AGE is shown as a duration; its order is the creation time's, oldest first.
      if (upper === 'AGE') return valueAt(line.object, ['metadata', 'creationTimestamp'])
      return line.values[index] ?? line.cells[offset + index]
    }
    // A word that names no column is refused, not taken as no order.
    if ('column' in key && lines.length > 0 && !headers.includes(key.column.toUpperCase()))
      throw noSuchColumn(key.column, headers)
    const keyed = lines.map((line, index) => ({line, index, value: valueOf(line)}))
    keyed.sort((a, b) => compareValues(a.value, b.value) || a.index - b.index)
    lines.splice(0, lines.length, ...keyed.map(({line}) => line))
  }
  return {headers, rows: lines.map((line) => line.cells), errors}
}

/**
 * A cell as kubectl prints it (printers.printTable): text up to its first line break, then "...";
 * numbers and booleans as Go prints them; nothing for null. Made printable later, at the printer.
 */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return ''
  if (typeof cell === 'string') {
    const end = cell.search(/[\f\n\r]/)
    return end === -1 ? cell : `${cell.slice(0, end)}...`
  }
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell)
  return JSON.stringify(cell)
}

function noSuchColumn(word: string, headers: readonly string[]): UsageError {
  return new UsageError(
    `--sort-by ${JSON.stringify(word)} is not a column of the table (${headers.join(', ')})`,
    'give one of its columns, or a JSONPath such as .metadata.name',
  )
}

function stringAt(value: unknown, path: PathStep[]): string {
  const found = valueAt(value, path)
  return typeof found === 'string' ? found : ''
}

/**
 * The lines of a merged table as cells (the header unless --no-headers), the error rows last; none
 * at all when no target had a row and none failed.
 */
export function tableLines(table: MergedTable, noHeaders: boolean): string[][] {
  if (table.rows.length === 0) return table.errors
  return [...(noHeaders ? [] : [table.headers]), ...table.rows, ...table.errors]
}
