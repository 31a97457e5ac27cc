// What the fan-out commands' fronts share about their targets: the selection flags, and saying
// what a use case folded by member cluster (core/fleet/member-fold.ts) or left out.
import type {Printer} from '../adapters/printer.js'
import {describeFold, type MemberFold} from '../core/fleet/member-fold.js'
import type {SkippedProfile} from '../core/fleet/placement.js'
import {isSelection} from '../usecases/find-profiles.js'
import {checkPlacementSelection, type UnresolvedTarget} from '../usecases/select-placement.js'

/** The duplicates a selection had (warnings), then what was folded (notes). */
export function sayFolds(
  said: {duplicateWarnings: string[]; folds: MemberFold[]},
  printer: Pick<Printer, 'note' | 'warn'>,
): void {
  for (const warning of said.duplicateWarnings) printer.warn(warning)
  for (const fold of said.folds) printer.note(describeFold(fold))
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
  return isSelection({...flags, placementKey: flags['placement-key']})
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
 * Says what a selection left out: each profile --healthy skipped (a note, with why), each reference
 * no profile answers to (a warning; the use case fails the command for it).
 */
export function sayLeftOut(
  leftOut: {healthSkipped: SkippedProfile[]; unresolved: Pick<UnresolvedTarget, 'error'>[]},
  printer: Pick<Printer, 'note' | 'warn'>,
): void {
  for (const line of healthSkips(leftOut.healthSkipped)) printer.note(line)
  for (const {error} of leftOut.unresolved) printer.warn(error)
}

/** What --healthy left out, a line each (sync says unresolved references in its plan, as skips). */
export function healthSkips(skipped: SkippedProfile[]): string[] {
  return skipped.map(({profile, reason}) => `skipped ${profile}: ${reason}`)
}
