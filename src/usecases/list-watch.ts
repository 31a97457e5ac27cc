// `cpcred list --watch`: the listing, then each change, until the signal ends it (kubectl get -w).
// Following the hub is the reflector's (follow-profiles.ts); this says what the view is told and
// that a failure being retried is a warning, and lets go of the hub however it ends.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {followProfiles, type FollowOptions} from './follow-profiles.js'
import type {ListedProfiles} from './list-profiles.js'
import type {Notices, ProfileWatchSource} from './ports.js'

export interface ListWatchPorts {
  hub: ProfileWatchSource & {close(): Promise<void>}
  /** A failure the watch retries is said, with when. */
  notices: Pick<Notices, 'warn'>
  /** What the person or program reading sees: the listing, then a row (or object) per change. */
  view: {
    all(listing: ListedProfiles): void
    change(profile: ClusterProfile, listing: ListedProfiles): void
  }
}

export type ListWatchInput = FollowOptions & {signal: AbortSignal}

export async function listWatchCommand(ports: ListWatchPorts, input: ListWatchInput): Promise<void> {
  let listing: ListedProfiles | undefined
  try {
    await followProfiles(ports.hub, input, {
      onList(first) {
        listing = first
        ports.view.all(first)
      },
      // A change comes only after the first listing, which the columns (providers, clustersets) need.
      onChange: (change) => ports.view.change(change.profile, listing!),
      onProblem: (message, retryInMs) =>
        ports.notices.warn(`${message}; retrying in ${(retryInMs / 1000).toFixed(1)}s`),
    })
  } finally {
    await ports.hub.close()
  }
}
