// The profile names the shell offers at TAB. It runs on every keypress, so it answers from a local
// list and never waits for the hub, except on the very first TAB for a hub, when there is no list at
// all; a stale list is offered while one background refresh renews it.
import {profileKey} from '../core/profiles/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import {listProfiles} from './list-profiles.js'
import type {CompletionHub, CompletionLists, ProfilePageSource} from './ports.js'

/** How long the first TAB for a hub waits for the list to be fetched. */
export const FIRST_LIST_WAIT_MS = 1500

export interface CompletionPorts {
  lists: CompletionLists
  /** Starts a detached refresh of this hub's list; never waited for. */
  startRefresh(): void
}

/** NAMESPACE/NAME of the profiles known for this hub, and the namespace names are offered in. */
export interface CompleteOutcome {
  keys: string[]
  namespace: string
}

export async function completeCommand(
  ports: CompletionPorts,
  input: {hub: CompletionHub},
): Promise<CompleteOutcome> {
  const {hub} = input
  let list = await ports.lists.read(hub.identity)
  if (!ports.lists.isFresh(list) && (await ports.lists.claimRefresh(hub.identity))) ports.startRefresh()
  list ??= await ports.lists.waitFor(hub.identity, FIRST_LIST_WAIT_MS)
  return {keys: list?.profiles ?? [], namespace: hub.namespace}
}

/**
 * Lists every profile the hub user may see into the list: all namespaces, else only the context's
 * (a consumer may be allowed no more). The claim is released whatever happens.
 */
export async function refreshNames(
  hub: CompletionHub,
  profiles: () => Promise<ProfilePageSource>,
  lists: CompletionLists,
): Promise<void> {
  try {
    const source = await profiles()
    let result
    try {
      result = await listProfiles(source, {namespace: undefined})
    } catch (error) {
      if (!isCpcredError(error) || error.exitCode !== ExitCode.Denied) throw error
      result = await listProfiles(source, {namespace: hub.namespace})
    }
    await lists.write(hub.identity, result.profiles.map(profileKey))
  } finally {
    await lists.releaseRefresh(hub.identity)
  }
}
