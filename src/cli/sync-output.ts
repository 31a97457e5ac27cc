// How `cpcred sync` shows its passes for each -o: the one place sync's output format is decided.
// Text says each change and a summary on stderr (the plan on stdout for --dry-run, as it is what was
// asked for); json gives the pass as one object, and under --watch one object per change.
import type {Printer} from '../adapters/printer.js'
import {describeChange, type SyncChange} from '../core/kubeconfig/sync.js'
import {describeFold} from '../core/fleet/member-fold.js'
import {exportJson, exportJsonLine} from '../core/text/export.js'
import type {SyncPass, SyncPassOutcome} from '../usecases/sync-kubeconfig.js'

/** -o's values, the first the default. */
export const SYNC_FORMATS = ['text', 'json'] as const

export type SyncOutput = (typeof SYNC_FORMATS)[number]

type PassRequest = Pick<SyncPass, 'file' | 'dryRun'>

export interface SyncPresenter {
  /** A whole pass: the first, or the only one. */
  pass(outcome: SyncPassOutcome, request: PassRequest, printer: Printer): void
  /** Once, after the first pass of --watch: what is followed, and where. */
  watching(followed: string, server: string, printer: Printer): void
  /** One change of a later pass of --watch, at `stamp`. */
  change(change: SyncChange, stamp: string, printer: Printer): void
}

/** Warnings and notes go to stderr whatever the format, so that json stays the data alone. */
function sayPassNotes(outcome: SyncPassOutcome, printer: Printer): void {
  for (const warning of outcome.warnings) printer.warn(warning)
  for (const note of outcome.notes) printer.note(note)
}

export const SYNC_PRESENTERS: Readonly<Record<SyncOutput, SyncPresenter>> = {
  text: {
    pass(outcome, request, printer) {
      sayPassNotes(outcome, printer)
      for (const fold of outcome.folds) printer.note(describeFold(fold))
      for (const change of outcome.changes) {
        if (request.dryRun) printer.text(`${describeChange(change)}\n`)
        else printer.note(describeChange(change))
      }
      if (outcome.currentContextPruned !== undefined) {
        printer.note(
          `the current context "${outcome.currentContextPruned}" was pruned, so no context is current now; choose one with: kubectl config use-context NAME`,
        )
      }
      printer.note(summary(outcome, request))
    },
    watching(followed, server, printer) {
      printer.note(`watching ${followed} on ${server} (Ctrl-C to stop)`)
    },
    change(change, stamp, printer) {
      printer.note(`${stamp} ${describeChange(change)}`)
    },
  },
  json: {
    pass(outcome, request, printer) {
      sayPassNotes(outcome, printer)
      printer.data(exportJson(passData(outcome, request)))
    },
    watching() {},
    change(change, stamp, printer) {
      printer.data(exportJsonLine({time: stamp, ...change}))
    },
  },
}

function summary(outcome: SyncPassOutcome, request: PassRequest): string {
  const counts = (['add', 'update', 'prune', 'skip'] as const).map((action) => {
    const count = outcome.changes.filter((change) => change.action === action).length
    return `${count} ${{add: 'added', update: 'updated', prune: 'pruned', skip: 'skipped'}[action]}`
  })
  if (request.dryRun) return `dry run, ${request.file} not changed: ${counts.join(', ')}`
  if (outcome.wrote) return `Wrote ${request.file}: ${counts.join(', ')}`
  return `${request.file} is in step with the inventory${outcome.changes.length ? ` (${counts.at(-1)})` : ''}`
}

function passData(outcome: SyncPassOutcome, request: PassRequest) {
  return {
    file: request.file,
    dryRun: request.dryRun,
    changed: outcome.changed,
    wrote: outcome.wrote,
    changes: outcome.changes.map((change) => ({...change, name: change.name || undefined})),
    ...(outcome.folds.length ? {folds: outcome.folds} : {}),
    ...(outcome.currentContextPruned === undefined
      ? {}
      : {currentContextPruned: outcome.currentContextPruned}),
  }
}
