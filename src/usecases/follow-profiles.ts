// Following the profiles on the hub (list -w, sync --watch) with the reflector's rules: list, watch
// from the list's resourceVersion, resume, relist on expiry, back off on failures.
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {listProfiles, type ListProfilesInput, type ListedProfiles} from './list-profiles.js'
import type {ProfileWatchSource} from './ports.js'
import {reflect, type ReflectOptions} from './reflector.js'

export {BACKOFF_INITIAL_MS, BACKOFF_MAX_MS, backoffDelay} from './reflector.js'

export type ProfileChange = {type: 'ADDED' | 'MODIFIED' | 'DELETED'; profile: ClusterProfile}

export interface FollowHandlers {
  /** The first listing (with what it knows: the provider each profile would use, clustersets). */
  onList(listing: ListedProfiles): void
  /** Each change after it; `profiles` is the whole selection as it now stands. */
  onChange(change: ProfileChange, profiles: ClusterProfile[]): void
  /** A failure that will be retried (after `retryInMs`). */
  onProblem(message: string, retryInMs: number): void
}

export interface FollowOptions extends Omit<ListProfilesInput, 'onRestart'>, ReflectOptions {}

/** Runs until the signal aborts; never ends on a hub failure, only reports it and retries. */
export async function followProfiles(
  source: ProfileWatchSource,
  options: FollowOptions,
  handlers: FollowHandlers,
): Promise<void> {
  const scope = {namespace: options.namespace, labelSelector: options.labelSelector}
  await reflect(
    {
      list: async () => {
        const result = await listProfiles(source, options)
        return {...result, items: result.profiles}
      },
      watch: (resourceVersion, onEvent, signal) =>
        source.watchProfiles(
          scope,
          resourceVersion,
          (event) => onEvent({type: event.type, object: event.profile}),
          signal,
        ),
      key: profileKey,
    },
    options,
    {
      onList: (listing) => handlers.onList(listing),
      onChange: ({type, object}, profiles) => handlers.onChange({type, profile: object}, profiles),
      onProblem: handlers.onProblem,
    },
  )
}
