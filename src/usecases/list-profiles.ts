// Reads every matching profile from the hub, page by page, and applies the filters that the API
// cannot apply itself.
import {clustersetOf, clustersetPropertyOf, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {ContinueExpiredError, CpcredError} from '../core/errors.js'
import type {Provider} from '../core/access/provider-file.js'
import {chooseProvider} from '../core/access/resolve-access.js'
import {inShard, type Shard} from '../core/fleet/shard.js'
import {duplicatesOf, type MemberFold} from '../core/fleet/member-fold.js'
import {gateHealthy, unhealthyBecause, type SkippedProfile} from '../core/fleet/placement.js'
import type {ProfilePageSource} from './ports.js'

export const PAGE_SIZE = 500

export interface ListProfilesInput {
  /** undefined: all namespaces. */
  namespace?: string
  labelSelector?: string
  clusterManager?: string
  clusterset?: string
  /** Read namespace labels even without --clusterset (-o wide shows the clusterset). */
  readClustersets?: boolean
  pageSize?: number
  /** The consumer's providers: each profile's usable provider is the first of these it offers. */
  providers?: Provider[]
  /** Keep only profiles that one of `providers` can reach. */
  usableOnly?: boolean
  /** Keep only this CI job's part (--shard). */
  shard?: Shard
  /** Keep only profiles whose ControlPlaneHealthy is True (--healthy). */
  healthyOnly?: boolean
  /** Called when the listing had to start over (an expired continue token). */
  onRestart?: (reason: string) => void
  /**
   * Told each page's profiles (those the API filters and the selection keep, before --shard and
   * --healthy) as it is read, while the hub reads the next: work on them overlaps the hub's.
   */
  onPage?: (profiles: ClusterProfile[]) => void
}

export interface ListedProfiles {
  profiles: ClusterProfile[]
  /** Clusterset label of each namespace, when it was read (for --clusterset and -o wide). */
  clustersets?: Map<string, string>
  /** The provider the consumer would use for a profile, and the server it reaches. */
  chosen: (profile: ClusterProfile) => {provider: string; server?: string} | undefined
  /** The listing's resourceVersion (all pages are one snapshot): where a watch of it starts. */
  resourceVersion?: string
  /** The filters the API cannot apply (manager, clusterset, usable, shard), for profiles seen later. */
  matches: (profile: ClusterProfile) => boolean
  /** What --healthy left out of the listing (it matched every other filter), with why. */
  skipped?: SkippedProfile[]
  /**
   * With --clusterset, what it kept only through the namespace label older hubs set (KEP-4322 no
   * longer defines it; the clusterset.k8s.io property replaced it): absent when it kept none so.
   */
  legacyClusterset?: LegacyClustersetSelection
  /**
   * The listing's profiles that share a member cluster in their inventory: showing every profile
   * conflicts with nothing, so nothing is folded, but KEP-4322 asks a consumer to warn of them.
   */
  duplicates: MemberFold[]
}

/** Profiles --clusterset kept only through their namespace's legacy label, not their property. */
export interface LegacyClustersetSelection {
  clusterset: string
  /** The labels that named it (the upstream spelling, or the one the KEP text used). */
  labels: string[]
  /** Their namespaces, sorted. */
  namespaces: string[]
  profiles: number
}

/** The filters the API cannot apply, and how a profile's provider is chosen. */
async function filtersOf(source: ProfilePageSource, input: ListProfilesInput) {
  let clustersets: Map<string, string> | undefined
  let namespaces: Set<string> | undefined
  /** The label that names --clusterset's set on each of `namespaces`. */
  const labelOf = new Map<string, string>()
  const providers = input.providers ?? []
  const chosenCache = new WeakMap<ClusterProfile, {provider: string; server?: string} | undefined>()
  const chosen = (profile: ClusterProfile) => {
    if (!chosenCache.has(profile)) {
      const match = chooseProvider(profile, providers)
      chosenCache.set(
        profile,
        match && {
          provider: match.provider.name,
          server: match.offered.invalid
            ? `<invalid: ${match.offered.invalid}>`
            : match.offered.cluster?.server,
        },
      )
    }
    return chosenCache.get(profile)
  }
  if (input.clusterset !== undefined || input.readClustersets) {
    clustersets = new Map()
    // Older hubs record clusterset membership as a namespace label, newer ones as the profile's
    // clusterset.k8s.io property; both count. -o wide only shows the clusterset: a consumer allowed
    // to read profiles but not namespaces gets the properties alone, not an error. Filtering by
    // --clusterset does need the labels, or it would leave out the members older hubs label.
    const labelsByNamespace =
      input.clusterset === undefined
        ? await source.listNamespaceLabels().catch(() => new Map<string, Record<string, string>>())
        : await source.listNamespaceLabels()
    for (const [name, labels] of labelsByNamespace) {
      const set = clustersetOf(labels)
      if (set === undefined) continue
      clustersets.set(name, set.clusterset)
      if (set.clusterset === input.clusterset) labelOf.set(name, set.label)
    }
    if (input.clusterset !== undefined)
      namespaces = new Set(
        [...clustersets].filter(([, set]) => set === input.clusterset).map(([name]) => name),
      )
  }
  /** Every filter but --healthy, whose leaving out is said with why. */
  const selected = (profile: ClusterProfile) =>
    (input.clusterManager === undefined || profile.spec?.clusterManager?.name === input.clusterManager) &&
    (namespaces === undefined ||
      namespaces.has(profile.metadata.namespace ?? '') ||
      clustersetPropertyOf(profile) === input.clusterset) &&
    (!input.usableOnly || chosen(profile) !== undefined) &&
    (input.shard === undefined || inShard(profile, input.shard))
  const keep = (profile: ClusterProfile) =>
    selected(profile) && (!input.healthyOnly || unhealthyBecause(profile) === undefined)
  /** What --clusterset kept of `profiles` only through the legacy namespace label. */
  const legacy = (profiles: ClusterProfile[]): {legacyClusterset?: LegacyClustersetSelection} => {
    if (input.clusterset === undefined) return {}
    const found = profiles.filter((profile) => clustersetPropertyOf(profile) !== input.clusterset)
    if (found.length === 0) return {}
    const inNamespaces = [...new Set(found.map((profile) => profile.metadata.namespace ?? ''))].sort()
    return {
      legacyClusterset: {
        clusterset: input.clusterset,
        labels: [...new Set(inNamespaces.map((namespace) => labelOf.get(namespace)!))].sort(),
        namespaces: inNamespaces,
        profiles: found.length,
      },
    }
  }
  return {clustersets, chosen, selected, keep, legacy}
}

/**
 * The profiles `selected` kept, with --healthy those it leaves out (with why), and the duplicates
 * among what is kept.
 */
function gated(profiles: ClusterProfile[], input: ListProfilesInput) {
  if (!input.healthyOnly) return {profiles, duplicates: duplicatesOf(profiles)}
  const {healthy, skipped} = gateHealthy(profiles)
  return {profiles: healthy, skipped, duplicates: duplicatesOf(healthy)}
}

/**
 * Profiles selected elsewhere (a placement's, in its order) as a listing: the same filters and
 * columns as a listing of the hub's pages.
 */
export async function listingOf(
  source: ProfilePageSource,
  profiles: ClusterProfile[],
  input: Omit<ListProfilesInput, 'shard'>,
): Promise<ListedProfiles> {
  const {clustersets, chosen, selected, keep, legacy} = await filtersOf(source, input)
  const kept = gated(profiles.filter(selected), input)
  return {...kept, ...legacy(kept.profiles), clustersets, chosen, matches: keep}
}

export async function listProfiles(
  source: ProfilePageSource,
  input: ListProfilesInput,
): Promise<ListedProfiles> {
  const {clustersets, chosen, selected, keep, legacy} = await filtersOf(source, input)

  const options = {
    namespace: input.namespace,
    labelSelector: input.labelSelector,
    limit: input.pageSize ?? PAGE_SIZE,
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const profiles: ClusterProfile[] = []
      let resourceVersion: string | undefined
      let pending = source.listProfilePage(options)
      for (;;) {
        const page = await pending
        resourceVersion ??= page.resourceVersion
        // The next page is asked for before this one's items are parsed: the hub works meanwhile.
        if (page.next) {
          pending = source.listProfilePage(options, page.next)
          // Awaited on the next turn; until then a failure must not count as unhandled.
          pending.catch(() => undefined)
        }
        const kept = (await page.items).filter(selected)
        profiles.push(...kept)
        input.onPage?.(kept)
        if (!page.next) break
      }
      const kept = gated(profiles, input)
      return {...kept, ...legacy(kept.profiles), clustersets, chosen, resourceVersion, matches: keep}
    } catch (error) {
      // A continue token expires when the hub compacts past it (410 Gone); a fresh listing is
      // consistent again. Start over once, then give up with a clear message.
      if (!(error instanceof ContinueExpiredError)) throw error
      if (attempt >= 2) {
        throw new CpcredError('the hub kept expiring the listing while it was being read (410 Gone)', {
          hint: 'retry; if it persists, narrow the listing with -n or -l',
        })
      }
      input.onRestart?.('the continue token expired (410 Gone); listing again from the start')
    }
  }
}
