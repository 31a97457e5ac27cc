// How a command's outcome is shown for its -o: the one place a front turns the format into a view
// (cli-runtime's PrintFlags.ToPrinter). A command gives its two views of the outcome, for people and
// for a program; the format picks one. exec's fan-out formats are presenters of their own
// (core/fleet/fan-out-presenters.ts), list's a table's columns (cli/list-output.ts).
import type {Printer} from '../adapters/printer.js'

/** The formats of a document: text for people, or the data exactly (core/text/export.ts). */
export type DocumentFormat = 'text' | 'json' | 'yaml'

export interface OutcomeViews<T> {
  /** For people, through the printer (cells, notes, text). */
  text(outcome: T, printer: Printer): void | Promise<void>
  /** For a program: the data -o json|yaml exports. */
  data(outcome: T): unknown
}

export async function present<T>(
  printer: Printer,
  output: DocumentFormat,
  outcome: T,
  views: OutcomeViews<T>,
): Promise<void> {
  if (output === 'text') return views.text(outcome, printer)
  const {exportData} = await import('../core/text/export.js')
  printer.data(await exportData(views.data(outcome), output))
}
