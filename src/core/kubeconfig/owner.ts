// Which kubeconfig entries are cpcred's: a mark in each entry's extensions, never a name pattern.
import type {NamedExtension} from '../profiles/cluster-profile.js'
import type {KubeconfigListKey} from './document.js'

/**
 * The kubeconfig extension that marks an entry (cluster, user and context alike) as written by cpcred
 * for one profile of one hub. Ownership is read from here, never from a name pattern.
 */
export const OWNER_EXTENSION = 'cpcred/profile'

export interface OwnerMark {
  /** The hub's server URL: a hub's identity that survives its users' credentials changing. */
  hub: string
  /** NAMESPACE/NAME of the ClusterProfile. */
  profile: string
  /**
   * Written by `cpcred sync`, which updates and prunes it. Entries `cpcred kubeconfig` wrote are
   * adopted by a sync that selects their profile under their name, but never pruned by one.
   */
  sync?: true
}

/** The extensions that mark an entry as cpcred's for `profile` (RenderKubeconfigOptions.owner). */
export function ownerExtensions(
  owner: {hub: string; sync?: boolean} | undefined,
  profile: string,
): NamedExtension[] | undefined {
  if (owner === undefined) return undefined
  const mark: OwnerMark = {
    hub: owner.hub,
    profile,
    ...(owner.sync ? {sync: true as const} : {}),
  }
  return [{extension: mark, name: OWNER_EXTENSION}]
}

/** The owner mark of a kubeconfig entry's body (its cluster, user or context), if cpcred wrote it. */
export function ownerOf(body: unknown): OwnerMark | undefined {
  const extensions = (body as {extensions?: unknown} | null | undefined)?.extensions
  if (!Array.isArray(extensions)) return undefined
  const value = (extensions as NamedExtension[]).find((entry) => entry?.name === OWNER_EXTENSION)?.extension
  const mark = value as Partial<OwnerMark> | undefined
  return typeof mark?.hub === 'string' && typeof mark.profile === 'string'
    ? {hub: mark.hub, profile: mark.profile, ...(mark.sync === true ? {sync: true as const} : {})}
    : undefined
}

/** What an entry of a kubeconfig list holds: a cluster's `cluster`, a user's `user`, a context's `context`. */
export function entryBody(key: KubeconfigListKey, entry: Record<string, unknown>): unknown {
  return entry[bodyField(key)]
}

function bodyField(key: KubeconfigListKey): 'cluster' | 'user' | 'context' {
  return key === 'clusters' ? 'cluster' : key === 'users' ? 'user' : 'context'
}

/** Both entries carry a mark, for the same profile of the same hub. */
export function sameOwner(
  key: KubeconfigListKey,
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): boolean {
  const [first, second] = [ownerOf(entryBody(key, a)), ownerOf(entryBody(key, b))]
  return first !== undefined && first.hub === second?.hub && first.profile === second.profile
}

/**
 * `generated` as it replaces `existing` of the same owner: an entry `cpcred sync` wrote stays sync's,
 * so a later sync still prunes it when its profile goes.
 */
export function keepingSyncMark<Entry extends Record<string, unknown>>(
  key: KubeconfigListKey,
  existing: Record<string, unknown>,
  generated: Entry,
): Entry {
  const [was, mark] = [ownerOf(entryBody(key, existing)), ownerOf(entryBody(key, generated))]
  if (!was?.sync || mark === undefined || mark.sync) return generated
  const field = bodyField(key)
  const body = generated[field] as {extensions: NamedExtension[]}
  const extensions = body.extensions.map((extension) =>
    extension.name === OWNER_EXTENSION ? {...extension, extension: {...mark, sync: true}} : extension,
  )
  return {...generated, [field]: {...body, extensions}}
}
