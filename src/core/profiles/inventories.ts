// KEP-4322: an inventory is the ClusterProfiles of one namespace. The one grouping of profiles into
// inventories, for lint's report (core/lint/lint.ts) and list's table (cli/list-output.ts), and what
// list says when its listing spans several.
import type {ClusterProfile} from './cluster-profile.js'

export interface Inventory<P extends ClusterProfile = ClusterProfile> {
  /** The inventory: its namespace. */
  namespace: string
  /** Its profiles, in the order they were given. */
  profiles: P[]
}

/** The inventory a profile is in: its namespace. */
export const inventoryOf = (profile: ClusterProfile): string => profile.metadata.namespace ?? ''

/** The profiles grouped by namespace, the inventories sorted by name, each keeping the profiles' order. */
export function inventoriesOf<P extends ClusterProfile>(profiles: readonly P[]): Inventory<P>[] {
  const byNamespace = new Map<string, P[]>()
  for (const profile of profiles) {
    const namespace = inventoryOf(profile)
    let members = byNamespace.get(namespace)
    if (members === undefined) byNamespace.set(namespace, (members = []))
    members.push(profile)
  }
  return [...byNamespace.keys()]
    .sort()
    .map((namespace) => ({namespace, profiles: byNamespace.get(namespace)!}))
}

/** How many inventories' names a note spells out before it counts the rest. */
const NAMED_INVENTORIES = 10

/**
 * The line that says a listing spans several inventories (each its profile count), or undefined for
 * one inventory or none: a table with a NAMESPACE column reads as one fleet otherwise.
 */
export function inventoriesNote(inventories: readonly Inventory[]): string | undefined {
  if (inventories.length < 2) return undefined
  const named = inventories
    .slice(0, NAMED_INVENTORIES)
    .map((inventory) => `${inventory.namespace} (${inventory.profiles.length})`)
  const rest = inventories.length - named.length
  return `${inventories.length} inventories (KEP-4322: one per namespace): ${named.join(', ')}${
    rest > 0 ? ` and ${rest} more` : ''
  }`
}
