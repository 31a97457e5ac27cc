// `cpcred sync`: one pass that brings a kubeconfig in step with the selected profiles. The plan is
// pure (src/core/kubeconfig/sync.ts); this reads, resolves, renders, and writes once, atomically,
// under the same lock as `cpcred kubeconfig --merge`, and not at all when nothing changed.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
import {isCpcredError} from '../core/errors.js'
import {federatedEntryNotes, hubPinWarnings, renderKubeconfig} from '../core/kubeconfig/render.js'
import {planSync, type SyncPlan} from '../core/kubeconfig/sync.js'
import {duplicateWarnings, foldSelection, type MemberFold} from '../core/fleet/member-fold.js'
import type {Provider} from '../core/access/provider-file.js'
import {chooseProvider, resolveAccess, type Resolution} from '../core/access/resolve-access.js'
import {followFleet, type FleetFollowInput} from './follow-fleet.js'
import type {FleetSelection} from './find-profiles.js'
import type {ReflectOptions} from './reflector.js'
import type {FleetWatchSource, KubeconfigFiles} from './ports.js'
import {
  kubectlRefusals,
  renderOptions,
  type KubeconfigRequest,
  type KubectlCheck,
} from './write-kubeconfig.js'

export interface SyncRequest extends Omit<KubeconfigRequest, 'profiles'> {
  /** The selected profiles, as the hub has them now. */
  profiles: ClusterProfile[]
  file: string
  dryRun: boolean
  setCurrent: boolean
  /** Keep profiles that share an inventory-member-id as separate entries (--no-dedupe). */
  noDedupe?: boolean
  /**
   * Profiles selected but not read (a placement's reference to one missing or not readable), by
   * NAMESPACE/NAME, with why: their entries stay, as for a profile that failed to resolve.
   */
  unread?: ReadonlyMap<string, string>
}

export interface SyncOutcome extends SyncPlan {
  /** The file was written (something changed, and it is not a dry run). */
  wrote: boolean
  warnings: string[]
  /** For stderr: entries that run `cpcred credential` although plugin mode was asked for, and why. */
  notes: string[]
  /** Profiles that stand for one member cluster, folded into one entry (none with --no-dedupe). */
  folds: MemberFold[]
}

export async function syncKubeconfig(
  files: KubeconfigFiles,
  request: SyncRequest,
  kubectl?: KubectlCheck,
): Promise<SyncOutcome> {
  const {targets, folds, skipped: tied} = foldSelection(request.profiles, request.noDedupe)
  const {resolutions, unreachable, skipped, warnings} = resolveSelection(targets, request.providers)
  warnings.push(...duplicateWarnings(folds))
  for (const [key, reason] of request.unread ?? []) skipped.set(key, reason)
  // The oldest of a member cluster that tie are acted on by none: their entries stay as they are.
  for (const {profile, reason} of tied) skipped.set(profile, reason)
  const folded = new Map(
    request.noDedupe
      ? []
      : folds.flatMap((fold) => fold.folded.map((profile) => [profile, prunedBecause(fold)])),
  )
  const options = renderOptions(request, {hub: request.hubServer, sync: true})
  const entries = resolutions.map((resolution) => ({resolution}))
  const desired = renderKubeconfig(entries, options)
  warnings.push(...hubPinWarnings(entries, options), ...kubectlRefusals(kubectl, desired))
  const notes = federatedEntryNotes(entries, options)

  const plan = async (): Promise<SyncOutcome> => {
    const text = await files.read(request.file)
    const {emitKubeconfig, parseKubeconfig} = await import('../core/kubeconfig/text.js')
    const existing = text === undefined ? undefined : await parseKubeconfig(text, request.file)
    const result = planSync({
      existing,
      desired,
      hub: request.hubServer,
      unreachable,
      skipped,
      folded,
      setCurrent: request.setCurrent,
      source: request.file,
    })
    const write = result.changed && !request.dryRun
    if (write) await files.write(request.file, await emitKubeconfig(result.document))
    return {
      ...result,
      wrote: write,
      warnings: [...new Set(warnings)],
      notes,
      folds: request.noDedupe ? [] : folds,
    }
  }
  return request.dryRun ? plan() : files.withLock(request.file, plan)
}

/** Why the entry of a profile newer than the oldest of its member cluster goes. */
function prunedBecause(fold: MemberFold): string {
  return fold.kept !== undefined
    ? `${fold.kept}, the oldest, stands for the same member cluster`
    : `${fold.tied.join(' and ')}, the oldest, stand for the same member cluster (and tie, so none is used)`
}

/**
 * Each profile resolved against the consumer's providers: reachable ones for the kubeconfig, those
 * no provider can reach (their entries go), and those that failed otherwise (their entries stay:
 * a profile a cluster manager broke for a moment must not take the user's context with it).
 */
function resolveSelection(profiles: ClusterProfile[], providers: Provider[]) {
  const resolutions: Resolution[] = []
  const unreachable = new Set<string>()
  const skipped = new Map<string, string>()
  const warnings: string[] = []
  for (const profile of profiles) {
    const key = profileKey(profile)
    if (!chooseProvider(profile, providers)) {
      unreachable.add(key)
      continue
    }
    try {
      const resolution = resolveAccess(profile, providers)
      warnings.push(...resolution.warnings)
      resolutions.push(resolution)
    } catch (error) {
      if (!isCpcredError(error)) throw error
      skipped.set(key, error.message)
    }
  }
  return {resolutions, unreachable, skipped, warnings}
}

export interface WatchSyncHandlers {
  /** After each pass, with the selection it was made for; `first` for the first pass. */
  onOutcome(outcome: SyncOutcome, first: boolean, selection: FleetSelection): void
  /** A hub problem that is being retried, or a pass that failed (the next change tries again). */
  onProblem(message: string): void
}

/** How long to wait for more changes before a pass: a burst of edits becomes one write. */
export const SYNC_SETTLE_MS = 100

/**
 * `cpcred sync --watch`: a first pass from the first selection, then one pass after each burst of
 * changes to it, one pass at a time, until the signal aborts. A pass that changes nothing writes nothing.
 */
export async function watchAndSync(
  source: FleetWatchSource,
  files: KubeconfigFiles,
  request: Omit<SyncRequest, 'profiles' | 'unread'>,
  selection: FleetFollowInput,
  options: ReflectOptions,
  handlers: WatchSyncHandlers,
  kubectl?: KubectlCheck,
): Promise<void> {
  let latest: FleetSelection | undefined
  let first = true
  let timer: NodeJS.Timeout | undefined
  let passes: Promise<void> = Promise.resolve()
  const pass = () => {
    timer = undefined
    const chosen = latest!
    passes = passes.then(async () => {
      try {
        const unread = new Map(chosen.unresolved.map(({profile, error}) => [profile, error]))
        const outcome = await syncKubeconfig(files, {...request, profiles: chosen.profiles, unread}, kubectl)
        handlers.onOutcome(outcome, first, chosen)
        first = false
      } catch (error) {
        handlers.onProblem(`sync failed: ${(error as Error).message}`)
      }
    })
  }
  await followFleet(source, selection, options, {
    onSelection: (chosen, isFirst) => {
      latest = chosen
      timer ??= setTimeout(pass, isFirst ? 0 : SYNC_SETTLE_MS)
    },
    onProblem: (message, retryInMs) =>
      handlers.onProblem(
        retryInMs === undefined ? message : `${message}; retrying in ${(retryInMs / 1000).toFixed(1)}s`,
      ),
  })
  clearTimeout(timer)
  await passes
}
