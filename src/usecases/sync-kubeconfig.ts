// `cpcred sync`: one pass that brings a kubeconfig in step with the selected profiles. The plan is
// pure (src/core/kubeconfig/sync.ts); this reads, resolves, renders, and writes once, atomically,
// under the same lock as `cpcred kubeconfig --merge`, and not at all when nothing changed.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import {federatedEntryNotes, hubPinWarnings, renderKubeconfig} from '../core/kubeconfig/render.js'
import {describeChange, planSync, type SyncChange, type SyncPlan} from '../core/kubeconfig/sync.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import type {SkippedProfile} from '../core/fleet/placement.js'
import {duplicateWarnings, foldSelection, type MemberFold} from '../core/fleet/member-fold.js'
import type {Provider} from '../core/access/provider-file.js'
import {chooseProvider, resolveAccess, type Resolution} from '../core/access/resolve-access.js'
import {followFleet, type FleetFollowInput} from './follow-fleet.js'
import {selectFleet, selectionScope, type FleetSelection} from './find-profiles.js'
import type {ReflectOptions} from './reflector.js'
import type {FleetWatchSource, KubeconfigFiles, SelectionSource} from './ports.js'
import {kubectlRefusals, renderOptions, type KubeconfigWrite, type KubectlCheck} from './write-kubeconfig.js'

export interface SyncPass extends Omit<KubeconfigWrite, 'profiles'> {
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

export interface SyncPassOutcome extends SyncPlan {
  /** The file was written (something changed, and it is not a dry run). */
  wrote: boolean
  warnings: string[]
  /** For stderr: entries that run `cpcred credential` although plugin mode was asked for, and why. */
  notes: string[]
  /** Profiles that stand for one member cluster, folded into one entry (none with --no-dedupe). */
  folds: MemberFold[]
}

/**
 * The kubeconfig as a watch last read or wrote it, and the file's stamp then: while the stamp holds,
 * the next pass starts from this document instead of reading and parsing the file again.
 */
export interface KnownKubeconfig {
  stamp?: string
  document?: unknown
}

export async function syncKubeconfig(
  files: KubeconfigFiles,
  request: SyncPass,
  kubectl?: KubectlCheck,
  known?: KnownKubeconfig,
): Promise<SyncPassOutcome> {
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

  const plan = async (): Promise<SyncPassOutcome> => {
    const {emitKubeconfig, sealKubeconfig} = await import('../core/kubeconfig/text.js')
    const existing = await readKubeconfig(files, request.file, known)
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
    if (write) {
      // Sealed, so a watch's next pass writes the entries it keeps from their kept text.
      await files.write(request.file, await emitKubeconfig(sealKubeconfig(result.document)))
      // Under the lock, so the stamp is of what was just written.
      if (known) Object.assign(known, {stamp: await files.stamp(request.file), document: result.document})
    }
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

/** The file's kubeconfig, parsed, or what `known` has of it while the file's stamp says it is the same. */
async function readKubeconfig(
  files: KubeconfigFiles,
  file: string,
  known: KnownKubeconfig | undefined,
): Promise<unknown> {
  // Stamped before the read: a change during the read leaves a stamp that will not match again.
  const stamp = known && (await files.stamp(file))
  if (known && stamp !== undefined && stamp === known.stamp) return known.document
  const text = await files.read(file)
  const {parseKubeconfig} = await import('../core/kubeconfig/text.js')
  const document = text === undefined ? undefined : await parseKubeconfig(text, file)
  if (known) Object.assign(known, {stamp, document})
  return document
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

export interface SyncPorts {
  hub: SelectionSource
  files: KubeconfigFiles
  kubectl?: KubectlCheck
}

export interface SyncInput {
  selection: FleetFollowInput & {all: boolean}
  minTargets?: number
  pass: Omit<SyncPass, 'profiles' | 'unread'>
}

/** What one `cpcred sync` did, in the order it is said; `error` ends the command after the rest is said. */
export interface SyncOutcome {
  /** What --healthy left out, with why. */
  healthSkipped: SkippedProfile[]
  /** The selection matched nothing (kubectl's "No resources found"). */
  noProfiles?: string
  pass?: SyncPassOutcome
  /** Failure: a reference no profile answers to kept its entry, and fails the run (never a silent drop). */
  exitCode: ExitCode
  error?: unknown
}

/** `cpcred sync`: one pass over the selection, refused by --min-targets before anything is pruned. */
export async function syncCommand(ports: SyncPorts, input: SyncInput): Promise<SyncOutcome> {
  const chosen = await selectFleet(ports.hub, {refs: [], ...input.selection})
  const outcome: SyncOutcome = {
    healthSkipped: chosen.skipped,
    exitCode: chosen.unresolved.length > 0 ? ExitCode.Failure : ExitCode.Success,
  }
  try {
    const scope = selectionScope(input.selection)
    // Before anything is pruned: a selector that matches nothing would empty the file.
    checkMinTargets(chosen.profiles.length, input.minTargets, scope)
    if (chosen.profiles.length === 0) outcome.noProfiles = noProfilesNote(scope)
    outcome.pass = await syncKubeconfig(
      ports.files,
      {...input.pass, profiles: chosen.profiles, unread: unreadOf(chosen)},
      ports.kubectl,
    )
  } catch (error) {
    outcome.error = error
  }
  return outcome
}

/** A reference no profile answers to is a skip in the plan: its entry stays. */
function unreadOf(chosen: FleetSelection): Map<string, string> {
  return new Map(chosen.unresolved.map(({profile, error}) => [profile, error]))
}

/** What to say of one pass of `sync --watch`. */
export interface WatchedPass {
  first: boolean
  outcome: SyncPassOutcome
  /** What --healthy left out and was not said of the pass before (all of it on the first). */
  healthSkipped: SkippedProfile[]
  /** The changes to say: all on the first pass; then each, but a skip said of the pass before. */
  changes: SyncChange[]
}

export interface SyncWatchPorts extends Omit<SyncPorts, 'hub'> {
  hub: FleetWatchSource
  /** After each pass. */
  onPass(pass: WatchedPass): void
  /** A hub problem that is being retried, or a pass that failed (the next change tries again). */
  onProblem(message: string): void
}

export interface SyncWatchInput extends ReflectOptions {
  selection: FleetFollowInput
  pass: Omit<SyncPass, 'profiles' | 'unread'>
}

/** How long to wait for more changes before a pass: a burst of edits becomes one write. */
export const SYNC_SETTLE_MS = 100

/**
 * `cpcred sync --watch`: a first pass from the first selection, then one pass after each burst of
 * changes to it, one pass at a time (changes during a pass make one more), until the signal aborts.
 * A pass that changes nothing writes nothing. A profile skipped on every pass (a name clash, an
 * unhealthy or unread one) is said again only when what is said of it changes.
 */
export async function syncWatchCommand(ports: SyncWatchPorts, input: SyncWatchInput): Promise<void> {
  const {selection, pass: request, ...options} = input
  let latest: FleetSelection | undefined
  let first = true
  let timer: NodeJS.Timeout | undefined
  let passes: Promise<void> = Promise.resolve()
  let saidBefore = {health: new Set<string>(), skips: new Set<string>()}
  // At most one pass waits behind the running one, and it takes the selection when it starts: bursts
  // that settle during a long pass become one pass, not one each with a selection already stale.
  let queued = false
  const known: KnownKubeconfig = {}
  const pass = () => {
    timer = undefined
    if (queued) return
    queued = true
    passes = passes.then(async () => {
      queued = false
      const chosen = latest!
      try {
        const outcome = await syncKubeconfig(
          ports.files,
          {...request, profiles: chosen.profiles, unread: unreadOf(chosen)},
          ports.kubectl,
          known,
        )
        const said = {
          health: new Set(chosen.skipped.map(healthKey)),
          skips: new Set(outcome.changes.filter(isSkip).map(describeChange)),
        }
        const before = first ? {health: new Set<string>(), skips: new Set<string>()} : saidBefore
        ports.onPass({
          first,
          outcome,
          healthSkipped: chosen.skipped.filter((skipped) => !before.health.has(healthKey(skipped))),
          changes: outcome.changes.filter(
            (change) => !isSkip(change) || !before.skips.has(describeChange(change)),
          ),
        })
        saidBefore = said
        first = false
      } catch (error) {
        ports.onProblem(`sync failed: ${(error as Error).message}`)
      }
    })
  }
  await followFleet(ports.hub, selection, options, {
    onSelection: (chosen, isFirst) => {
      latest = chosen
      timer ??= setTimeout(pass, isFirst ? 0 : SYNC_SETTLE_MS)
    },
    onProblem: (message, retryInMs) =>
      ports.onProblem(
        retryInMs === undefined ? message : `${message}; retrying in ${(retryInMs / 1000).toFixed(1)}s`,
      ),
  })
  clearTimeout(timer)
  await passes
}

const isSkip = (change: SyncChange) => change.action === 'skip'
const healthKey = ({profile, reason}: SkippedProfile) => `${profile}\n${reason}`
