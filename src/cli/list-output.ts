// How `cpcred list` shows profiles for each -o, the one place list's output format is decided: once,
// or (--watch) the listing and then one row or object per change, as `kubectl get -w` does; and on
// stderr whatever the format, what --healthy left out, the inventory's duplicate profiles and the
// profiles --clusterset found only through the legacy namespace label; with a table, the
// inventories (namespaces) a listing spans.
import {noProfilesNote} from '../core/fleet/selection-note.js'
import type {Shard} from '../core/fleet/shard.js'
import type {Printer} from '../adapters/printer.js'
import {CLUSTERSET_PROPERTY, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {CellStyle, Cells} from '../core/text/format.js'
import {exporterOf, kubectlList, type ExportFormat} from '../core/text/export.js'
import {inventoriesNote, inventoriesOf} from '../core/profiles/inventories.js'
import {profileName, profileTable} from '../core/profiles/profile-view.js'
import type {LegacyClustersetSelection, ListedProfiles} from '../usecases/list-profiles.js'
import {duplicateWarnings} from '../core/fleet/member-fold.js'
import {healthSkips} from './targets.js'

export interface ListView {
  /** undefined: all namespaces (a NAMESPACE column). */
  namespace?: string
  /** What was asked for, named when nothing matched. */
  selector?: string
  shard?: Shard
  watch: boolean
}

export interface ListPresenter {
  /** Whether the listing must carry each namespace's clusterset label (-o wide shows it). */
  readsClustersets: boolean
  /** The listing: a table, or the objects (one per line under --watch). */
  all(listing: ListedProfiles): void
  /** One change under --watch: a row in the table's columns, or the object. */
  change(profile: ClusterProfile, listing: ListedProfiles): void
}

type MakePresenter = (printer: Printer, view: ListView) => Promise<ListPresenter>

/** -o's values, the first the default: kubectl get's. */
export const LIST_FORMATS = ['text', 'wide', 'json', 'yaml', 'name'] as const

export type ListFormat = (typeof LIST_FORMATS)[number]

/** On stderr whatever the format, so that -o json|yaml|name stay the data alone. */
function sayAside(listing: ListedProfiles, printer: Printer): void {
  for (const line of healthSkips(listing.skipped ?? [])) printer.note(line)
  for (const line of duplicateWarnings(listing.duplicates)) printer.warn(line)
  if (listing.legacyClusterset !== undefined) printer.warn(legacyClustersetWarning(listing.legacyClusterset))
}

/** How many namespaces the legacy label's warning names before it counts the rest. */
const NAMED_NAMESPACES = 10

/** One line: what --clusterset found only through the namespace label KEP-4322 removed. */
export function legacyClustersetWarning(legacy: LegacyClustersetSelection): string {
  const named = legacy.namespaces.slice(0, NAMED_NAMESPACES)
  const rest = legacy.namespaces.length - named.length
  const namespaces = `${legacy.namespaces.length === 1 ? 'namespace' : 'namespaces'} ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`
  const labels = legacy.labels.map((label) => `${label}=${legacy.clusterset}`).join(' or ')
  return (
    `--clusterset ${legacy.clusterset}: ${legacy.profiles} ${legacy.profiles === 1 ? 'profile' : 'profiles'} selected only ` +
    `through the legacy namespace label ${labels} (${namespaces}), which KEP-4322 no longer defines: ` +
    `consumers that follow the KEP read the ${CLUSTERSET_PROPERTY} property in status.properties, which their cluster manager should set`
  )
}

/** kubectl's table (or -o wide's): under --watch, each change a row in the columns seen so far. */
const table =
  (wide: boolean): MakePresenter =>
  async (printer, view) => {
    const chalk = await printer.paint()
    const cells = (profiles: ClusterProfile[], listing: ListedProfiles) =>
      profileTable(profiles, {
        wide,
        allNamespaces: view.namespace === undefined,
        now: new Date(),
        chosenProvider: (profile) => listing.chosen(profile)?.provider,
        chosenServer: (profile) => listing.chosen(profile)?.server,
        clustersetOf: (ns) => listing.clustersets?.get(ns),
      })
    const styleFor = (shown: Cells): CellStyle => {
      const healthy = shown.rows[0]!.indexOf('HEALTHY')
      return (cell, column, row) =>
        row === 0 || column !== healthy
          ? cell
          : cell === 'True'
            ? chalk.green(cell)
            : cell === 'False'
              ? chalk.red(cell)
              : cell
    }
    // Every row is aligned with the widest cell of each column seen so far.
    let widest: string[] | undefined
    const widen = (rows: string[][]) => {
      for (const row of rows) {
        widest ??= row.map(() => '')
        row.forEach((cell, column) => {
          if (cell.length > widest![column]!.length) widest![column] = cell
        })
      }
    }
    return {
      readsClustersets: wide,
      all(listing) {
        sayAside(listing, printer)
        if (listing.profiles.length === 0) return printer.note(noProfilesNote(view))
        // One table, as kubectl get -A prints, its rows grouped by inventory (namespace), and a line
        // on stderr when it spans several: each is an inventory of its own (KEP-4322).
        const inventories = inventoriesOf(listing.profiles)
        const note = inventoriesNote(inventories)
        if (note !== undefined) printer.note(note)
        const shown = cells(
          inventories.flatMap((inventory) => inventory.profiles),
          listing,
        )
        widen(shown.rows)
        printer.cells(shown, {style: styleFor(shown)})
      },
      change(profile, listing) {
        const shown = cells([profile], listing)
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

/**
 * The objects exactly: one kubectl List, or under --watch one object each (JSON a line each, YAML a
 * document each). Even an empty selection is a List, which a program reads.
 */
const objects =
  (format: ExportFormat): MakePresenter =>
  async (printer, view) => {
    // Loaded before the listing, so that the YAML library (when asked for) loads while the hub answers.
    const exporter = await exporterOf(format)
    return {
      readsClustersets: false,
      all(listing) {
        sayAside(listing, printer)
        if (!view.watch) printer.data(exporter.document(kubectlList(listing.profiles)))
        else for (const profile of listing.profiles) printer.data(exporter.streamed(profile))
      },
      change(profile) {
        printer.data(exporter.streamed(profile))
      },
    }
  }

/** kubectl's resource/name, a line each. */
const names: MakePresenter = async (printer, view) => ({
  readsClustersets: false,
  all(listing) {
    sayAside(listing, printer)
    if (listing.profiles.length === 0) return printer.note(noProfilesNote(view))
    printer.data(listing.profiles.map(profileName).join(''))
  },
  change(profile) {
    printer.data(profileName(profile))
  },
})

export const LIST_PRESENTERS: Readonly<Record<ListFormat, MakePresenter>> = {
  text: table(false),
  wide: table(true),
  json: objects('json'),
  yaml: objects('yaml'),
  name: names,
}
