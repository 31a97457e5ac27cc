// What `cpcred exec -o FORMAT` makes of a fan-out's records: the one place that maps a format to how
// the records are shown (cli-runtime's PrintFlags.ToPrinter, for a fleet). The use case asks only
// what each presenter needs kept of the targets' output; the view asks it for the text.
import {exportData, exportJsonLine} from '../text/export.js'
import type {targetRecord} from './fan-out-report.js'

export type TargetRecord = ReturnType<typeof targetRecord>

/** What a presenter needs kept of each target's stdout and stderr for its record. */
export type Capture =
  /** Nothing: the output is shown as it comes. */
  | 'none'
  /** Until the target's record is out, as it ends. */
  | 'streamed'
  /** To the end of the run, when every record comes out at once. */
  | 'held'

export interface FanOutPresenter {
  /** How `--help` describes it. */
  readonly summary: string
  /** stdout carries the records, so the commands' own stdout lines go to stderr. */
  readonly records: boolean
  readonly capture: Capture
  /** The text of one record as its target ends (`first`: the run's first record), or at the end. */
  each?(record: TargetRecord, first: boolean): string
  /** The text of every record, at the end. */
  all?(records: TargetRecord[]): Promise<string>
}

/** The columns of `-o csv`, in the order of a record's fields. */
export const CSV_COLUMNS = [
  'profile',
  'outcome',
  'exitCode',
  'durationMs',
  'signal',
  'timedOut',
  'error',
  'hint',
  'stdout',
  'stderr',
] as const satisfies readonly (keyof TargetRecord)[]

/** One CSV field as RFC 4180 has it: quoted when it holds a comma, a quote or a line break. */
function csvField(value: unknown): string {
  const text = value === undefined ? '' : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const csvRow = (fields: readonly unknown[]) => `${fields.map(csvField).join(',')}\r\n`

export const FAN_OUT_PRESENTERS = {
  text: {
    summary: 'text (their output; a summary on stderr)',
    records: false,
    capture: 'none',
  },
  json: {
    summary: 'json (a record per target with its stdout and stderr, at the end)',
    records: true,
    capture: 'held',
    all: (records) => exportData(records, 'json'),
  },
  yaml: {
    summary: 'yaml (the same)',
    records: true,
    capture: 'held',
    all: (records) => exportData(records, 'yaml'),
  },
  jsonl: {
    summary: 'jsonl (a record per target as it ends)',
    records: true,
    capture: 'streamed',
    each: (record) => exportJsonLine(record),
  },
  csv: {
    summary: 'csv (a header, then a row per target as it ends)',
    records: true,
    capture: 'streamed',
    each: (record, first) =>
      (first ? csvRow(CSV_COLUMNS) : '') +
      csvRow(CSV_COLUMNS.map((column) => record[column as keyof TargetRecord])),
  },
} as const satisfies Record<string, FanOutPresenter>

export type FanOutFormat = keyof typeof FAN_OUT_PRESENTERS

/** exec's -o values, `text` first (the default). */
export const FAN_OUT_FORMATS = Object.keys(FAN_OUT_PRESENTERS) as [FanOutFormat, ...FanOutFormat[]]

/** What --help says of -o. */
export const FAN_OUT_FORMATS_SUMMARY = `What stdout carries for many targets: ${Object.values(
  FAN_OUT_PRESENTERS,
)
  .map((presenter: FanOutPresenter) => presenter.summary)
  .join(', ')}.`
