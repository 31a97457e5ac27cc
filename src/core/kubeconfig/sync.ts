// `cpcred sync`: the plan that brings a kubeconfig in step with the inventory. Pure: the caller
// reads the hub and the file, resolves the profiles, renders what should be there, and writes.
//
// Only entries cpcred wrote for this hub are sync's to change (their OWNER_EXTENSION says so):
// what sync wrote it updates and prunes; what `cpcred kubeconfig` wrote for a selected profile under
// the same name it adopts, and otherwise leaves alone. Everything else in the file, the user's
// entries, their order, other hubs' entries and every other field, is left as it was. A name the
// user already uses is reported and skipped, never taken.
import {isDeepStrictEqual} from 'node:util'
import {EXEC_EXTENSION} from '../profiles/cluster-profile.js'
import {CONNECTION_FIELDS} from '../access/connection.js'
import {KUBECONFIG_LISTS, type KubeconfigDocument, type KubeconfigListKey} from './document.js'
import {existingKubeconfig, type NamedEntry} from './merge.js'
import {entryBody, ownerOf} from './owner.js'

export type SyncAction = 'add' | 'update' | 'prune' | 'skip'

export interface SyncChange {
  action: SyncAction
  /** NAMESPACE/NAME of the profile. */
  profile: string
  /** The context (and cluster and user) name. */
  name: string
  /** What changed (update), why it goes (prune) or why it was left alone (skip). */
  detail?: string
}

export interface SyncPlanInput {
  /** The kubeconfig as read (undefined when the file does not exist). */
  existing: unknown
  /** What cpcred would write for the selected, reachable profiles, each entry marked as cpcred's. */
  desired: KubeconfigDocument
  /** The hub's server URL: entries marked for another hub are not this sync's. */
  hub: string
  /** Selected profiles that no provider of the provider file can reach: their entries go. */
  unreachable: ReadonlySet<string>
  /** Selected profiles that could not be resolved (an error, named in `skipped`): their entries stay. */
  skipped: ReadonlyMap<string, string>
  /** Selected profiles left out for an older one of the same member cluster: profile → why. */
  folded?: ReadonlyMap<string, string>
  /** Make the first desired context current (`--set-current`). */
  setCurrent: boolean
  /** Where `existing` came from, for messages. */
  source: string
}

export interface SyncPlan {
  /** The kubeconfig to write, when `changed`. */
  document: Record<string, unknown>
  changes: SyncChange[]
  changed: boolean
  /** The current context was pruned and is now unset. */
  currentContextPruned?: string
}

/** The plan: what to add, update, prune and skip, and the resulting document. */
export function planSync(input: SyncPlanInput): SyncPlan {
  const base = existingKubeconfig(input.existing, input.source)
  const lists = Object.fromEntries(
    KUBECONFIG_LISTS.map(({key}) => [key, [...((base[key] as NamedEntry[] | undefined) ?? [])]]),
  ) as Record<KubeconfigListKey, NamedEntry[]>
  // Where each name stands in each list: a lookup per entry, not a scan (10,000 entries and more).
  const at = Object.fromEntries(
    KUBECONFIG_LISTS.map(({key}) => [key, firstIndexByName(lists[key])]),
  ) as Record<KubeconfigListKey, Map<string, number>>
  const desiredAt = Object.fromEntries(
    KUBECONFIG_LISTS.map(({key}) => [key, firstIndexByName(input.desired[key] as NamedEntry[])]),
  ) as Record<KubeconfigListKey, Map<string, number>>
  const changes: SyncChange[] = []
  const desiredNames = new Set(input.desired.contexts.map((context) => context.name))
  /** An entry sync may replace with the profile's: its own, or cpcred's for that very profile. */
  const replaceable = (key: KubeconfigListKey, entry: NamedEntry, profile: string) => {
    const mark = ownerOf(entryBody(key, entry))
    return mark?.hub === input.hub && (mark.sync === true || mark.profile === profile)
  }

  // Profiles that should be there: added, updated, or skipped when their name is someone else's.
  for (const context of input.desired.contexts) {
    const name = context.name
    const profile = ownerOf(context.context)?.profile ?? name
    const wanted = KUBECONFIG_LISTS.map(
      ({key}) => (input.desired[key] as NamedEntry[])[desiredAt[key].get(name)!]!,
    )
    const current = KUBECONFIG_LISTS.map(({key}) => {
      const index = at[key].get(name)
      return index === undefined ? undefined : lists[key][index]
    })
    const foreign = KUBECONFIG_LISTS.filter(
      ({key}, index) => current[index] && !replaceable(key, current[index]!, profile),
    )
    if (foreign.length > 0) {
      const what = foreign.map(({kind}) => kind).join(', ')
      changes.push({
        action: 'skip',
        profile,
        name,
        detail: `the kubeconfig already has a ${what} "${name}" that cpcred sync did not write for this profile; rename it or use --context-name`,
      })
      desiredNames.delete(name)
      continue
    }
    if (current.every((entry, index) => entry && isDeepStrictEqual(entry, wanted[index]))) continue
    const differences = current.some(Boolean) ? describeDifferences(current, wanted) : undefined
    KUBECONFIG_LISTS.forEach(({key}, index) => {
      const found = at[key].get(name)
      if (found === undefined) at[key].set(name, lists[key].push(wanted[index]!) - 1)
      else lists[key][found] = wanted[index]!
    })
    changes.push(
      differences === undefined
        ? {action: 'add', profile, name}
        : {action: 'update', profile, name, detail: differences},
    )
  }

  // cpcred's entries for this hub that should no longer be there.
  const pruned = new Map<string, string>()
  for (const {key} of KUBECONFIG_LISTS) {
    lists[key] = lists[key].filter((entry) => {
      const mark = ownerOf(entryBody(key, entry))
      const prunable = mark?.hub === input.hub && mark.sync === true
      if (!prunable || desiredNames.has(entry.name) || input.skipped.has(mark.profile)) return true
      pruned.set(entry.name, mark.profile)
      return false
    })
  }
  for (const [name, profile] of pruned) {
    changes.push({
      action: 'prune',
      profile,
      name,
      detail: input.unreachable.has(profile)
        ? 'no provider in the provider file can reach it'
        : input.folded?.has(profile)
          ? input.folded.get(profile)!
          : 'it is gone from the hub or no longer selected',
    })
  }
  for (const [profile, reason] of input.skipped)
    changes.push({action: 'skip', profile, name: '', detail: reason})

  const document: Record<string, unknown> = {...base, ...lists}
  let currentContextPruned: string | undefined
  const current = base['current-context']
  if (typeof current === 'string' && pruned.has(current)) {
    // Pointing it at another context would run the user's next command somewhere they did not choose.
    document['current-context'] = ''
    currentContextPruned = current
  }
  const first = input.desired.contexts.find((context) => desiredNames.has(context.name))?.name
  if (input.setCurrent && first !== undefined) document['current-context'] = first
  const changed =
    changes.some((change) => change.action !== 'skip') ||
    document['current-context'] !== base['current-context']
  return {document, changes: sortChanges(changes), changed, currentContextPruned}
}

/** Each name's first index in `list`, as Array.find would find it. */
function firstIndexByName(list: NamedEntry[]): Map<string, number> {
  const indexes = new Map<string, number>()
  list.forEach((entry, index) => {
    if (!indexes.has(entry.name)) indexes.set(entry.name, index)
  })
  return indexes
}

/** What an update changes, in the user's terms: server, CA, extensions, provider. */
function describeDifferences(current: (NamedEntry | undefined)[], wanted: NamedEntry[]): string {
  const [cluster, user] = current.map(
    (entry, index) => entry && entryBody(KUBECONFIG_LISTS[index]!.key, entry),
  ) as [Record<string, unknown> | undefined, Record<string, unknown> | undefined]
  const [wantedCluster, wantedUser] = wanted.map((entry, index) =>
    entryBody(KUBECONFIG_LISTS[index]!.key, entry),
  ) as [Record<string, unknown>, Record<string, unknown>]
  const differences: string[] = []
  const differs = (field: string) => !isDeepStrictEqual(cluster?.[field], wantedCluster[field])
  if (differs('server')) differences.push('server')
  if (differs('certificate-authority-data')) differences.push('CA')
  const execConfig = (entry: Record<string, unknown> | undefined) =>
    (entry?.extensions as {name: string; extension: unknown}[] | undefined)?.find(
      (extension) => extension.name === EXEC_EXTENSION,
    )?.extension
  if (!isDeepStrictEqual(execConfig(cluster), execConfig(wantedCluster))) differences.push('extensions')
  if (!isDeepStrictEqual(user?.exec, wantedUser.exec)) differences.push('provider')
  // The rest of the connection is named as a whole.
  if (differences.length === 0 && CONNECTION_FIELDS.some(differs)) differences.push('connection')
  return differences.length > 0 ? differences.join(', ') : 'entries'
}

const ORDER: Record<SyncAction, number> = {add: 0, update: 1, prune: 2, skip: 3}

function sortChanges(changes: SyncChange[]): SyncChange[] {
  return changes.sort((a, b) => ORDER[a.action] - ORDER[b.action] || (a.profile < b.profile ? -1 : 1))
}

const SYMBOLS: Record<SyncAction, string> = {add: '+', update: '~', prune: '-', skip: '!'}

/** One line per change, as `--dry-run` and the summary print them. */
export function describeChange(change: SyncChange): string {
  const verb = {add: 'add', update: 'update', prune: 'prune', skip: 'skip'}[change.action]
  const name = change.name && change.name !== change.profile ? ` as "${change.name}"` : ''
  return `${SYMBOLS[change.action]} ${verb} ${change.profile}${name}${change.detail ? ` (${change.detail})` : ''}`
}
