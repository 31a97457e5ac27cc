// How `cpcred get` shows its outcome for each -o, the one place get's output format is decided: what
// each target is asked for (the server's Table, or the objects), what is written as each target
// answers (-o jsonl), and what is shown at the end: kubectl's merged table (or -o wide's), one List
// (-o json|yaml), a line per object (-o name). Targets that failed are rows, the List's status, or
// lines on stderr. docs/get.md says the rules.
import type {Printer} from '../adapters/printer.js'
import {kindPrefix, resourceName} from '../core/get/discovery.js'
import {compareValues, valueAt} from '../core/get/jsonpath.js'
import {fleetList, nameLine, type KubeObject, type TargetFailure} from '../core/get/objects.js'
import type {GetQuery, RequestShape} from '../core/get/query.js'
import {DEFAULT_NAMESPACE} from '../core/get/request.js'
import {CLUSTER_HEADER, mergeTables, tableLines, type SortKey, type TargetAnswer} from '../core/get/table.js'
import {isRecord} from '../core/json.js'
import {exporterOf, exportJsonLine, type ExportFormat} from '../core/text/export.js'
import type {GetOutcome} from '../usecases/get.js'
import type {GetWatchView} from '../usecases/get-watch.js'

/** -o's values, the first the default: kubectl get's, and jsonl (one object a line as each target answers). */
export const GET_FORMATS = ['text', 'wide', 'name', 'json', 'yaml', 'jsonl'] as const

export type GetFormat = (typeof GET_FORMATS)[number]

/** What the outcome is shown with besides itself: the query (its namespace, -A, --no-headers) and --sort-by. */
export interface GetView {
  query: GetQuery
  sortBy?: SortKey
}

export interface GetPresenter {
  /** What each target is asked for. */
  shape: RequestShape
  /** Writes a target's objects as it answers, before the outcome (-o jsonl). */
  streamed?(printer: Printer): (cluster: string, objects: KubeObject[]) => void
  /** The outcome, once every target has answered. */
  show(printer: Printer, outcome: GetOutcome, view: GetView): void | Promise<void>
  /** --watch: the outcome, then a line per change; a format without it refuses --watch. */
  watch?(printer: Printer, view: GetView): GetWatchView
}

export const GET_PRESENTERS: Readonly<Record<GetFormat, GetPresenter>> = {
  text: tables(false),
  wide: tables(true),
  name: {
    shape: 'table',
    watch(printer, view) {
      return {
        all: (outcome) => GET_PRESENTERS.name.show(printer, outcome, view),
        change({cluster, resource, table}) {
          const name = valueAt(table?.rows[0]?.object, ['metadata', 'name'])
          if (typeof name === 'string') printer.text(`${nameLine(cluster, resource, name)}\n`)
        },
      }
    },
    show(printer, outcome) {
      const lines: string[] = []
      const failures = failuresOf(outcome)
      for (const section of outcome.sections) {
        const {resource} = section
        for (const answer of section.answers) {
          for (const row of answer.table?.rows ?? []) {
            const name = valueAt(row.object, ['metadata', 'name'])
            if (resource && typeof name === 'string') lines.push(nameLine(answer.cluster, resource, name))
          }
        }
      }
      if (lines.length > 0) printer.text(`${lines.join('\n')}\n`)
      for (const failure of failures) printer.error(`${failure.cluster}: ${failure.message}`)
    },
  },
  json: list('json'),
  yaml: list('yaml'),
  jsonl: {
    shape: 'objects',
    watch(printer, view) {
      return {
        all: (outcome) => GET_PRESENTERS.jsonl.show(printer, outcome, view),
        change({object}) {
          if (object) printer.data(exportJsonLine(object))
        },
      }
    },
    streamed: (printer) => (_cluster, objects) => {
      for (const object of objects) printer.data(exportJsonLine(object))
    },
    show(printer, outcome) {
      // The objects went out as each target answered; what failed is said on stderr.
      for (const failure of failuresOf(outcome)) printer.error(`${failure.cluster}: ${failure.message}`)
    },
  },
}

/** The targets that failed as a whole, then those that failed for one resource, section by section. */
function failuresOf(outcome: GetOutcome): TargetFailure[] {
  const failures: TargetFailure[] = outcome.failures.map(({cluster, error, exitCode}) => ({
    cluster,
    message: error,
    exitCode,
  }))
  for (const section of outcome.sections)
    for (const answer of section.answers)
      if (answer.error !== undefined)
        failures.push({cluster: answer.cluster, message: answer.error, exitCode: 1})
  return failures
}

/** -o json|yaml: one List of every target's objects, each section sorted by --sort-by's JSONPath. */
function list(format: ExportFormat): GetPresenter {
  return {
    shape: 'objects',
    async show(printer, outcome, {sortBy}) {
      const items: KubeObject[] = []
      for (const section of outcome.sections)
        items.push(
          ...sortObjects(
            section.answers.flatMap((answer) => answer.objects ?? []),
            sortBy,
          ),
        )
      printer.data((await exporterOf(format)).document(fleetList(items, failuresOf(outcome))))
    },
  }
}

/**
 * kubectl's merged table of each resource (or -o wide's), a blank line between them; the targets that
 * failed as a whole after the last. Under --watch, each change is then a row in the columns of its
 * resource's table, aligned with the widest cell of each column seen so far, its header first when
 * no table was shown.
 */
function tables(wide: boolean): GetPresenter {
  const merged = (outcome: GetOutcome, {query, sortBy}: GetView) => {
    const several = outcome.sections.length > 1
    const tables: {resource?: string; lines: string[][]}[] = []
    for (const section of outcome.sections) {
      const {resource} = section
      const answers: TargetAnswer[] = section.answers.map((answer) =>
        answer.error !== undefined || !answer.table
          ? {cluster: answer.cluster, error: answer.error ?? 'no table'}
          : {cluster: answer.cluster, table: answer.table},
      )
      const table = mergeTables(answers, {
        wide,
        withNamespace: query.allNamespaces && resource?.namespaced === true,
        kindPrefix: several && resource ? kindPrefix(resource) : undefined,
        sortBy,
      })
      const lines = tableLines(table, query.noHeaders)
      if (lines.length > 0) tables.push({resource: resource && resourceName(resource), lines})
    }
    const failed = outcome.failures.map(({cluster, error}) => [cluster, `<error: ${error}>`])
    if (failed.length > 0) {
      if (tables.length > 0) tables[tables.length - 1]!.lines.push(...failed)
      else tables.push({lines: failed})
    }
    return tables
  }
  const show = (printer: Printer, outcome: GetOutcome, view: GetView) => {
    const tables = merged(outcome, view)
    tables.forEach(({lines}, index) => {
      if (index > 0) printer.text('\n')
      printer.cells({rows: lines, padding: 3, minWidth: 6})
    })
    if (tables.length === 0) {
      const namespaced = outcome.sections.some((section) => section.resource?.namespaced)
      printer.note(
        namespaced && !view.query.allNamespaces
          ? `No resources found in ${view.query.namespace ?? DEFAULT_NAMESPACE} namespace.`
          : 'No resources found',
      )
    }
    return tables
  }
  return {
    shape: 'table',
    show(printer, outcome, view) {
      show(printer, outcome, view)
    },
    watch(printer, view) {
      const {query} = view
      // Per resource: the widest cell of each column so far, and whether its header was shown.
      const widest = new Map<string, string[]>()
      const headed = new Set<string>()
      const widen = (key: string, rows: string[][]) => {
        const cells = widest.get(key) ?? []
        for (const row of rows)
          row.forEach((cell, column) => {
            if (cell.length > (cells[column] ?? '').length) cells[column] = cell
          })
        widest.set(key, cells)
      }
      return {
        all(outcome) {
          for (const {resource, lines} of show(printer, outcome, view))
            if (resource !== undefined) {
              widen(resource, lines)
              if (!query.noHeaders && lines[0]?.[0] === CLUSTER_HEADER) headed.add(resource)
            }
        },
        change({cluster, resource, table}) {
          if (!table) return
          const key = resourceName(resource)
          const {headers, rows} = mergeTables([{cluster, table}], {
            wide,
            withNamespace: query.allNamespaces && resource.namespaced,
          })
          const row = rows[0]
          if (!row) return
          widen(key, [headers, row])
          const cells = widest.get(key)!
          const measureWith = [headers, Array.from(cells, (cell) => cell ?? '')]
          if (!query.noHeaders && !headed.has(key)) {
            headed.add(key)
            printer.cells({rows: [headers, row], measureWith, padding: 3, minWidth: 6})
          } else printer.cells({rows: [row], measureWith, padding: 3, minWidth: 6})
        },
      }
    },
  }
}

/** -o json|yaml with --sort-by: the objects by the JSONPath (a column sorts only a table). */
function sortObjects(objects: KubeObject[], sortBy: SortKey | undefined): KubeObject[] {
  if (!sortBy || !('path' in sortBy)) return objects
  const path = sortBy.path
  return objects
    .map((object, index) => ({object, index, value: isRecord(object) ? valueAt(object, path) : undefined}))
    .sort((a, b) => compareValues(a.value, b.value) || a.index - b.index)
    .map(({object}) => object)
}
