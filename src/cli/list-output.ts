// How `cpcred list` shows profiles: once, or (--watch) the listing and then one row or object per
// change, as `kubectl get -w` does; and on stderr, what --healthy left out and duplicate profiles.
import {noProfilesNote} from '../core/fleet/selection-note.js'
import type {Shard} from '../core/fleet/shard.js'
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {CellStyle, Cells} from '../core/text/format.js'
import {exportStreamed} from '../core/text/export.js'
import {renderProfiles, type ProfileOutput} from '../core/profiles/profile-view.js'
import type {ListedProfiles} from '../usecases/list-profiles.js'
import {duplicateWarnings, duplicatesOf} from '../core/fleet/member-fold.js'
import {healthSkips} from './targets.js'

export interface ListView {
  output: ProfileOutput
  /** undefined: all namespaces (a NAMESPACE column). */
  namespace?: string
  /** What was asked for, named when nothing matched. */
  selector?: string
  shard?: Shard
  watch: boolean
}

export interface ListPrinter {
  /** The listing: a table, or the objects (one per line under --watch). */
  all(listing: ListedProfiles): void
  /** One change under --watch: a row in the table's columns, or the object. */
  change(profile: ClusterProfile, listing: ListedProfiles): void
}

export async function listPrinter(printer: Printer, view: ListView): Promise<ListPrinter> {
  const chalk = await printer.paint()
  const yaml = view.output === 'yaml' ? (await import('../core/text/export-yaml.js')).exportYaml : undefined
  const render = (profiles: ClusterProfile[], listing: ListedProfiles) =>
    renderProfiles(profiles, {
      output: view.output,
      allNamespaces: view.namespace === undefined,
      now: new Date(),
      chosenProvider: (profile) => listing.chosen(profile)?.provider,
      chosenServer: (profile) => listing.chosen(profile)?.server,
      clustersetOf: (ns) => listing.clustersets?.get(ns),
      yaml,
    })
  const styleFor = (cells: Cells): CellStyle => {
    const healthy = cells.rows[0]!.indexOf('HEALTHY')
    return (cell, column, row) =>
      row === 0 || column !== healthy
        ? cell
        : cell === 'True'
          ? chalk.green(cell)
          : cell === 'False'
            ? chalk.red(cell)
            : cell
  }
  // Under --watch every row is aligned with the widest cell of each column seen so far.
  let widest: string[] | undefined
  const widen = (rows: string[][]) => {
    for (const row of rows) {
      widest ??= row.map(() => '')
      row.forEach((cell, column) => {
        if (cell.length > widest![column]!.length) widest![column] = cell
      })
    }
  }
  /** Objects one by one: JSON one per line, YAML as documents, names as lines. */
  const object = async (profile: ClusterProfile) => {
    if (view.output === 'json' || view.output === 'yaml')
      printer.data(await exportStreamed(profile, view.output))
    else printer.data(render([profile], emptyListing) as string)
  }

  return {
    all(listing) {
      // On stderr whatever the output: -o json|yaml stay the objects alone.
      for (const line of healthSkips(listing.skipped ?? [])) printer.note(line)
      // Showing every profile does not conflict, so list folds nothing, but KEP-4322 asks a consumer
      // to warn while duplicates remain among what it selected.
      for (const line of duplicateWarnings(duplicatesOf(listing.profiles))) printer.warn(line)
      const shown = render(listing.profiles, listing)
      if (listing.profiles.length === 0 && view.output !== 'json' && view.output !== 'yaml') {
        printer.note(noProfilesNote(view))
        return
      }
      if (typeof shown !== 'string') {
        widen(shown.rows)
        printer.cells(shown, {style: styleFor(shown)})
      } else if (!view.watch || view.output === 'name') printer.data(shown)
      else for (const profile of listing.profiles) void object(profile)
    },
    change(profile, listing) {
      const shown = render([profile], listing)
      if (typeof shown === 'string') {
        void object(profile)
        return
      }
      const [header, row] = shown.rows as [string[], string[]]
      widen([header, row])
      const style = styleFor(shown)
      // Alone, yet in the columns of the table above it; styled as a data row, not a header.
      printer.cells(
        {...shown, rows: [row], measureWith: [header, widest!]},
        {style: (cell, column) => style(cell, column, 1)},
      )
    },
  }
}

const emptyListing: ListedProfiles = {profiles: [], chosen: () => undefined, matches: () => true}
