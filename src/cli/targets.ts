// The targets of a fan-out (exec, kubeconfig): the selected profiles folded by member cluster
// (core/fleet/member-fold.ts), warning of duplicates and saying what was folded.
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {
  describeFold,
  duplicateWarnings,
  foldSelection,
  type FoldedSelection,
} from '../core/fleet/member-fold.js'
import type {FleetSelection} from '../usecases/find-profiles.js'
import {checkPlacementSelection} from '../usecases/select-placement.js'

/** A warning per inventory with duplicates (also with --no-dedupe), and a note per fold. */
export function foldTargets(
  profiles: ClusterProfile[],
  noDedupe: boolean,
  printer: Pick<Printer, 'note' | 'warn'>,
): FoldedSelection {
  const folded = foldSelection(profiles, noDedupe)
  for (const warning of duplicateWarnings(folded.folds)) printer.warn(warning)
  if (!noDedupe) for (const fold of folded.folds) printer.note(describeFold(fold))
  return folded
}

/** The selection flags every fan-out command shares, as parseFlags gives them. */
export interface SelectionFlags {
  selector?: string
  all?: boolean
  placement?: string
  'placement-key'?: string
  healthy?: boolean
}

/** A selection rather than names: -l, --all or a placement (what a shard splits). */
export function isSelecting(flags: SelectionFlags): boolean {
  return (
    flags.selector !== undefined ||
    flags.all === true ||
    flags.placement !== undefined ||
    flags['placement-key'] !== undefined
  )
}

/** The placement and health part of a selection's input; placements exclude names, -l and --all. */
export function placementInput(flags: SelectionFlags, names: number) {
  checkPlacementSelection({
    names,
    selector: flags.selector,
    all: flags.all === true,
    placement: flags.placement,
    placementKey: flags['placement-key'],
  })
  return {placement: flags.placement, placementKey: flags['placement-key'], healthy: flags.healthy}
}

/**
 * Says what a selection left out: each reference no profile answers to (a warning), each profile
 * --healthy skipped (a note, with why). True when a reference was unresolved: the command fails.
 */
export function sayLeftOut(selection: FleetSelection, printer: Pick<Printer, 'note' | 'warn'>): boolean {
  for (const line of healthSkips(selection)) printer.note(line)
  for (const {error} of selection.unresolved) printer.warn(error)
  return selection.unresolved.length > 0
}

/** What --healthy left out, a line each (sync says unresolved references in its plan, as skips). */
export function healthSkips(selection: Pick<FleetSelection, 'skipped'>): string[] {
  return selection.skipped.map(({profile, reason}) => `skipped ${profile}: ${reason}`)
}
