// `cpcred kubeconfig [PROFILE...]`: its flags, where the kubeconfig goes, and what is said about it
// (src/commands/kubeconfig.ts gives it help text).
import path from 'node:path'
import {parseFlags, usageLine, type FlagTable} from './flag-table.js'
import {
  HUB_FLAGS,
  KUBECONFIG_ENTRY_FLAGS,
  MIN_TARGETS_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
} from './flags.js'
import {kubeconfigRequest} from './kubeconfig-request.js'
import {chosenShard} from './shard.js'
import {foldTargets, isSelecting, placementInput, sayLeftOut} from './targets.js'
import {processWiring} from './wiring.js'
import {checkMinTargets, noProfilesNote} from '../core/fleet/selection-note.js'
import {ExitCode, QuietExit, UsageError} from '../core/errors.js'
import {parseProfileRef, selectFleet} from '../usecases/find-profiles.js'
import {defaultMergeTarget, writeKubeconfig, type Destination} from '../usecases/write-kubeconfig.js'

export const KUBECONFIG_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PLACEMENT_FLAGS,
  ...PROVIDER_FLAGS,
  'output-file': {
    kind: 'string',
    summary: 'Write to this file (new files 0600) instead of stdout; - is stdout.',
  },
  usable: {
    kind: 'boolean',
    summary: 'Leave out, without a word, selected profiles that no provider of your provider file can reach.',
  },
  merge: {
    kind: 'boolean',
    summary:
      'Merge into --output-file, else the first KUBECONFIG file, else ~/.kube/config; entries cpcred wrote for the same profile and hub are updated.',
  },
  overwrite: {
    kind: 'boolean',
    summary:
      'Replace an existing file, or, when merging, entries of the same names that cpcred did not write for the same profile and hub.',
  },
  'set-current': {kind: 'boolean', summary: 'Make the first profile the current context.'},
  ...KUBECONFIG_ENTRY_FLAGS,
  ...MIN_TARGETS_FLAG,
} as const satisfies FlagTable

const KUBECONFIG_USAGE = usageLine('kubeconfig', '[PROFILE...]')

export async function runKubeconfig(argv: string[]): Promise<void> {
  const {flags, positionals} = parseFlags(KUBECONFIG_FLAGS, argv, KUBECONFIG_USAGE)
  const placement = placementInput(flags, positionals.length)
  const selecting = isSelecting(flags)
  const shard = chosenShard(flags.shard, selecting)
  const wiring = processWiring()
  const {printer} = wiring
  const [{hub, providers: loaded}, kubeconfigFiles, preferences] = await Promise.all([
    wiring.session(flags),
    wiring.kubeconfigFiles(),
    wiring.kubectlPreferences(),
  ])
  const selection = await selectFleet(hub, {
    refs: positionals.map(parseProfileRef),
    selector: flags.selector,
    all: flags.all,
    namespace: hub.config.namespace,
    allNamespaces: flags['all-namespaces'],
    shard,
    ...placement,
  })
  // Unresolved references fail the command once what could be written is written; never dropped.
  const unresolved = sayLeftOut(selection, printer)
  // Profiles whose oldest tie get no context; the fold's note says so.
  const {targets, skipped: tied} = foldTargets(selection.profiles, flags['no-dedupe'], printer)
  const scope = {
    namespace: flags['all-namespaces'] ? undefined : hub.config.namespace,
    selector: flags.selector,
    shard,
  }
  checkMinTargets(targets.length, flags['min-targets'], scope)
  if (targets.length === 0 && (selecting || tied.length > 0)) {
    if (!unresolved && tied.length === 0) printer.note(noProfilesNote(scope))
    if (unresolved) throw new QuietExit(ExitCode.Failure)
    return
  }
  const toStdout = flags['output-file'] === '-'
  if (toStdout && flags.merge) {
    throw new UsageError(
      '--merge needs a file to merge into, not - (stdout)',
      'name the file with --output-file',
    )
  }
  const outputFile = !toStdout && flags['output-file'] ? path.resolve(flags['output-file']) : undefined
  const destination: Destination = flags.merge
    ? {
        kind: 'merge',
        file: outputFile || defaultMergeTarget(),
        overwrite: flags.overwrite,
        setCurrent: flags['set-current'],
      }
    : outputFile
      ? {kind: 'file', file: outputFile, overwrite: flags.overwrite}
      : {kind: 'stdout'}
  const outcome = await writeKubeconfig(
    kubeconfigFiles,
    {
      profiles: targets,
      ...kubeconfigRequest(flags, hub, loaded),
      // With -l or --all, one unusable profile does not cost the others their entries.
      skipUnusable: flags.usable || selecting,
    },
    destination,
    {preferences, kuberc: flags.kuberc},
  )
  for (const warning of outcome.warnings) printer.warn(warning)
  if (outcome.yaml) printer.data(outcome.yaml)
  for (const message of outcome.messages) printer.note(message)
  if (unresolved) throw new QuietExit(ExitCode.Failure)
  if (outcome.skipped.length === 0 || flags.usable) return
  for (const {profile, reason} of outcome.skipped) printer.warn(`skipped ${profile}: ${reason}`)
  printer.note(
    `${outcome.skipped.length} of ${targets.length} profiles were left out; --usable leaves out such profiles and succeeds`,
  )
  throw new QuietExit(ExitCode.Failure)
}
