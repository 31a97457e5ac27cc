// `cpcred list`: the hub's profiles page by page (src/usecases/list-profiles.ts), or those a placement
// decided on, in its order, through the same filters and columns.
import {ExitCode} from '../core/errors.js'
import type {SkippedProfile} from '../core/fleet/placement.js'
import {listingOf, listProfiles, type ListProfilesInput, type ListedProfiles} from './list-profiles.js'
import type {Notices, SelectionSource} from './ports.js'
import type {PlacementSelection, UnresolvedTarget} from './select-placement.js'

export interface ListPorts {
  hub: SelectionSource
  /** A listing that had to start over is said, and goes on. */
  notices: Pick<Notices, 'warn'>
}

export interface ListInput extends Omit<ListProfilesInput, 'onRestart'>, PlacementSelection {
  /** The namespace of a placement (-n or the context's), which lists whatever namespace it references. */
  placementNamespace: string
}

export interface ListOutcome {
  listing: ListedProfiles
  /** What a placement's selection left out: with --healthy, the profiles not healthy (with why). */
  healthSkipped: SkippedProfile[]
  /** A placement's references no profile answers to: they are said, and fail the listing. */
  unresolved: UnresolvedTarget[]
  exitCode: ExitCode
}

/** `cpcred list`: the hub's profiles, page by page, or those a placement decided on, in its order. */
export async function listCommand(ports: ListPorts, input: ListInput): Promise<ListOutcome> {
  const {placement, placementKey, placementNamespace, ...filters} = input
  if (placement === undefined && placementKey === undefined) {
    const listing = await listProfiles(ports.hub, {
      ...filters,
      onRestart: (reason) => ports.notices.warn(reason),
    })
    return {listing, healthSkipped: [], unresolved: [], exitCode: ExitCode.Success}
  }
  const {selectFleet} = await import('./find-profiles.js')
  const chosen = await selectFleet(ports.hub, {
    refs: [],
    all: false,
    namespace: placementNamespace,
    allNamespaces: false,
    shard: input.shard,
    placement,
    placementKey,
  })
  return {
    listing: await listingOf(ports.hub, chosen.profiles, {...filters, namespace: undefined}),
    healthSkipped: chosen.skipped,
    unresolved: chosen.unresolved,
    exitCode: chosen.unresolved.length > 0 ? ExitCode.Failure : ExitCode.Success,
  }
}
