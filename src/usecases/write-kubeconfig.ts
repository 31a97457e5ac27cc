// `cpcred kubeconfig`: resolve each profile against the consumer's providers and render one
// kubeconfig, then print it, write it, or merge it into an existing file (atomically, under a lock).
import os from 'node:os'
import path from 'node:path'
import {CpcredError, ExitCode, isCpcredError, UsageError} from '../core/errors.js'
import type {KubeconfigFiles, KubectlPreferences, SelectionSource} from './ports.js'
import type {KubeconfigDocument} from '../core/kubeconfig/document.js'
import {execCommands, refusalWarnings} from '../core/kubeconfig/kuberc.js'
import {namesInBrief} from '../core/text/format.js'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {
  federatedEntryNotes,
  hubPinWarnings,
  renderKubeconfig,
  type KubeconfigMode,
  type RenderKubeconfigOptions,
} from '../core/kubeconfig/render.js'
import {mergeIntoKubeconfig} from '../core/kubeconfig/merge.js'
import type {Provider} from '../core/access/provider-file.js'
import {resolveAccess} from '../core/access/resolve-access.js'
import {duplicateWarnings, foldSelection, type MemberFold} from '../core/fleet/member-fold.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import type {SkippedProfile} from '../core/fleet/placement.js'
import {isSelection, selectFleet, selectionScope, type FleetSelectInput} from './find-profiles.js'
import type {UnresolvedTarget} from './select-placement.js'

export interface KubeconfigPorts {
  hub: SelectionSource
  files: KubeconfigFiles
  /** The consumer's providers; asked for only when there is something to write (none is a usage error). */
  providers(): Provider[]
  kubectl?: KubectlCheck
}

export interface KubeconfigInput {
  selection: FleetSelectInput
  /** --no-dedupe: profiles of one member cluster each get an entry. */
  noDedupe: boolean
  minTargets?: number
  /** --usable: profiles no provider can reach are left out without a word, and the command succeeds. */
  usable: boolean
  entries: Omit<KubeconfigWrite, 'profiles' | 'providers' | 'skipUnusable'>
  /** --output-file as given (resolved), '-' for stdout; undefined: stdout, or the default with --merge. */
  outputFile?: string
  merge: boolean
  overwrite: boolean
  setCurrent: boolean
}

/** What `cpcred kubeconfig` did, in the order it is said; `error` ends the command after the rest is said. */
export interface KubeconfigOutcome {
  /** What --healthy left out, with why. */
  healthSkipped: SkippedProfile[]
  /** References no profile answers to: they fail the command once what could be written is written. */
  unresolved: UnresolvedTarget[]
  /** One per inventory with duplicates (also with --no-dedupe). */
  duplicateWarnings: string[]
  /** What was folded into one entry per member cluster (none with --no-dedupe). */
  folds: MemberFold[]
  /** The selection matched nothing (kubectl's "No resources found"). */
  noProfiles?: string
  written?: WrittenKubeconfig
  /** Profiles that could not be written, to be reported (none with --usable, or with unresolved references). */
  unusable: {profile: string; reason: string}[]
  /** How many profiles the kubeconfig was for, after folding. */
  targets: number
  /** Failure: everything was said, the command ends quietly with it. */
  exitCode: ExitCode
  error?: unknown
}

/**
 * `cpcred kubeconfig`: the selection, folded by member cluster, written as one kubeconfig. An
 * unusable profile costs the others nothing with -l, --all or a placement; with --usable it is left
 * out without a word, else it fails the command once the rest is written.
 */
export async function kubeconfigCommand(
  ports: KubeconfigPorts,
  input: KubeconfigInput,
): Promise<KubeconfigOutcome> {
  const selecting = isSelection(input.selection)
  const selection = await selectFleet(ports.hub, input.selection)
  // The oldest of a member cluster that tie get no entry; the fold says so.
  const {targets, folds, skipped: tied} = foldSelection(selection.profiles, input.noDedupe)
  const failed = selection.unresolved.length > 0
  const outcome: KubeconfigOutcome = {
    healthSkipped: selection.skipped,
    unresolved: selection.unresolved,
    duplicateWarnings: duplicateWarnings(folds),
    folds: input.noDedupe ? [] : folds,
    unusable: [],
    targets: targets.length,
    exitCode: failed ? ExitCode.Failure : ExitCode.Success,
  }
  try {
    const scope = selectionScope(input.selection)
    checkMinTargets(targets.length, input.minTargets, scope)
    if (targets.length === 0 && (selecting || tied.length > 0)) {
      if (!failed && tied.length === 0) outcome.noProfiles = noProfilesNote(scope)
      return outcome
    }
    const destination = destinationOf(input)
    const written = await writeKubeconfig(
      ports.files,
      {
        profiles: targets,
        ...input.entries,
        providers: ports.providers(),
        // With -l, --all or a placement, one unusable profile does not cost the others their entries.
        skipUnusable: input.usable || selecting,
      },
      destination,
      ports.kubectl,
    )
    outcome.written = written
    if (failed || input.usable || written.skipped.length === 0) return outcome
    outcome.unusable = written.skipped
    outcome.exitCode = ExitCode.Failure
  } catch (error) {
    outcome.error = error
  }
  return outcome
}

function destinationOf(input: KubeconfigInput): Destination {
  const toStdout = input.outputFile === '-'
  if (toStdout && input.merge) {
    throw new UsageError(
      '--merge needs a file to merge into, not - (stdout)',
      'name the file with --output-file',
    )
  }
  const file = toStdout ? undefined : input.outputFile
  if (input.merge) {
    return {
      kind: 'merge',
      file: file || defaultMergeTarget(),
      overwrite: input.overwrite,
      setCurrent: input.setCurrent,
    }
  }
  return file ? {kind: 'file', file, overwrite: input.overwrite} : {kind: 'stdout'}
}

export interface KubeconfigWrite {
  profiles: ClusterProfile[]
  providers: Provider[]
  hub: HubPin
  /** The hub's server URL, which marks every entry as cpcred's (OWNER_EXTENSION). */
  hubServer: string
  mode: KubeconfigMode
  pinHub: boolean
  /** cpcred mode: how kubectl starts cpcred (absolute). */
  cpcredCommand: string[]
  providerFile?: string
  accessProviders: string[]
  as?: string
  asGroups: string[]
  contextNameTemplate?: string
  /**
   * -l or --all: a profile that cannot be written (no provider in common, a bad extension) is
   * skipped and reported, as exec reports a target, instead of failing the whole kubeconfig.
   */
  skipUnusable?: boolean
}

export type Destination =
  | {kind: 'stdout'}
  | {kind: 'file'; file: string; overwrite: boolean}
  | {kind: 'merge'; file: string; overwrite: boolean; setCurrent: boolean}

export interface WrittenKubeconfig {
  /** The YAML, when it goes to stdout. */
  yaml?: string
  /** What happened, for stderr (and which entries run cpcred although plugin mode was asked for). */
  messages: string[]
  warnings: string[]
  /** Profiles left out (skipUnusable), each with why. */
  skipped: {profile: string; reason: string}[]
}

/** kubectl's preferences, to warn about exec commands its credential-plugin policy refuses. */
export interface KubectlCheck {
  preferences: KubectlPreferences
  /** The kuberc as kubectl's --kuberc names it. */
  kuberc?: string
}

export async function writeKubeconfig(
  files: KubeconfigFiles,
  request: KubeconfigWrite,
  destination: Destination,
  kubectl?: KubectlCheck,
): Promise<WrittenKubeconfig> {
  if (request.profiles.length === 0) {
    throw new UsageError(
      'no profiles selected',
      'name profiles, or use -l SELECTOR or --all (with -A for every namespace)',
    )
  }
  if (request.asGroups.length && !request.as) {
    throw new UsageError('--as-group needs --as', 'client-go only impersonates groups together with a user')
  }
  const skipped: WrittenKubeconfig['skipped'] = []
  const entries = request.profiles.flatMap((profile) => {
    try {
      return [{resolution: resolveAccess(profile, request.providers)}]
    } catch (error) {
      if (!request.skipUnusable || !isCpcredError(error)) throw error
      skipped.push({profile: profileKey(profile), reason: error.message})
      return []
    }
  })
  if (entries.length === 0) {
    throw new CpcredError(`none of the ${skipped.length} selected profiles can be written`, {
      hint: 'cpcred list -o wide shows which providers each profile offers; cpcred describe PROFILE says why',
    })
  }
  const options = renderOptions(request, {hub: request.hubServer})
  const document = renderKubeconfig(entries, options)
  const warnings = [
    ...new Set([
      ...entries.flatMap(({resolution}) => resolution.warnings),
      ...hubPinWarnings(entries, options),
      // Written all the same: the user may change the kuberc afterwards.
      ...kubectlRefusals(kubectl, document),
    ]),
  ]
  const notes = federatedEntryNotes(entries, options)
  const {emitKubeconfig, parseKubeconfig} = await import('../core/kubeconfig/text.js')
  const contexts = document.contexts.map((context) => context.name)

  switch (destination.kind) {
    case 'stdout':
      return {yaml: await emitKubeconfig(document), messages: notes, warnings, skipped}
    case 'file': {
      if (!destination.overwrite && (await files.read(destination.file)) !== undefined) {
        throw new UsageError(
          `${destination.file} already exists`,
          'pass --overwrite to replace it, or --merge to add to it',
        )
      }
      await files.write(destination.file, await emitKubeconfig(document))
      return {
        messages: [
          ...notes,
          `Wrote ${contexts.length} context(s) to ${destination.file}: ${namesInBrief(contexts)}`,
        ],
        warnings,
        skipped,
      }
    }
    case 'merge':
      return files.withLock(destination.file, async () => {
        const text = await files.read(destination.file)
        const existing = text === undefined ? undefined : await parseKubeconfig(text, destination.file)
        const merged = mergeIntoKubeconfig(existing, document, {
          overwrite: destination.overwrite,
          setCurrent: destination.setCurrent,
          source: destination.file,
        })
        await files.write(destination.file, await emitKubeconfig(merged.document))
        const messages = [
          ...notes,
          ...(merged.added.length ? [`Added to ${destination.file}: ${namesInBrief(merged.added)}`] : []),
          ...(merged.updated.length
            ? [`Updated in ${destination.file}: ${namesInBrief(merged.updated)}`]
            : []),
          ...(merged.replaced.length
            ? [`Replaced in ${destination.file}: ${namesInBrief(merged.replaced)}`]
            : []),
          ...(destination.setCurrent ? [`Switched to context "${document['current-context']}".`] : []),
        ]
        return {messages, warnings, skipped}
      })
  }
}

/** One warning per exec command of `document` that kubectl's kuberc would refuse to run. */
export function kubectlRefusals(kubectl: KubectlCheck | undefined, document: KubeconfigDocument): string[] {
  if (kubectl === undefined) return []
  const commands = execCommands(document)
  if (commands.length === 0) return []
  const {preferences, kuberc} = kubectl
  return refusalWarnings(preferences.policy(kuberc), commands, preferences.lookPath)
}

/** How the entries look, as the request says, marked for `owner`. */
export function renderOptions(
  request: Omit<KubeconfigWrite, 'profiles'>,
  owner: RenderKubeconfigOptions['owner'],
): RenderKubeconfigOptions {
  return {
    mode: request.mode,
    hub: request.hub,
    pinHub: request.pinHub,
    cpcredCommand: request.cpcredCommand,
    providerFile: request.providerFile,
    accessProviders: request.accessProviders,
    as: request.as,
    asGroups: request.asGroups,
    contextNameTemplate: request.contextNameTemplate,
    owner,
  }
}

/** Where --merge writes without --output-file: kubectl's first KUBECONFIG file, else ~/.kube/config. */
export function defaultMergeTarget(env = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(path.delimiter).find((entry) => entry !== '')
  return path.resolve(first ?? path.join(os.homedir(), '.kube', 'config'))
}
