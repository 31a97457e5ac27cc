// `cpcred kubeconfig [PROFILE...]`: its flags, where the kubeconfig goes, and what is said about it
// (src/commands/kubeconfig.ts gives it help text).
import path from 'node:path'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  HUB_FLAGS,
  KUBECONFIG_ENTRY_FLAGS,
  MIN_TARGETS_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
} from './flags.js'
import {kubeconfigRequest} from './kubeconfig-request.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import {isSelecting, placementInput, sayFolds, sayLeftOut} from './targets.js'
import type {Wiring} from './wiring.js'
import type {Printer} from '../adapters/printer.js'
import {ExitCode, QuietExit} from '../core/errors.js'
import {parseProfileRef, type ProfileRef} from '../usecases/find-profiles.js'
import {kubeconfigCommand, type KubeconfigOutcome} from '../usecases/write-kubeconfig.js'

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

/** What the words of `cpcred kubeconfig` ask for. */
export interface KubeconfigRequest {
  flags: FlagValues<typeof KUBECONFIG_FLAGS>
  /** The profiles named. */
  refs: ProfileRef[]
  placement: ReturnType<typeof placementInput>
  shard: ShardChoice
}

/** The words of `cpcred kubeconfig` (and CPCRED_SHARD), read and checked without the hub or a file. */
export function parseKubeconfig(argv: string[], env: NodeJS.ProcessEnv = {}): KubeconfigRequest {
  const {flags, positionals} = parseFlags(KUBECONFIG_FLAGS, argv, KUBECONFIG_USAGE)
  const placement = placementInput(flags, positionals.length)
  const shard = chooseShard(flags.shard, isSelecting(flags), env)
  return {flags, refs: positionals.map(parseProfileRef), placement, shard}
}

export async function runKubeconfig(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, refs, placement, ...request} = parseKubeconfig(argv, wiring.env)
  const shard = sayShard(request.shard, wiring.printer)
  const [{hub, providers}, files, preferences] = await Promise.all([
    wiring.session(flags),
    wiring.kubeconfigFiles(),
    wiring.kubectlPreferences(),
  ])
  const outputFile = flags['output-file']
  const outcome = await kubeconfigCommand(
    {hub, files, providers: () => providers.required(), kubectl: {preferences, kuberc: flags.kuberc}},
    {
      selection: {
        refs,
        selector: flags.selector,
        all: flags.all,
        namespace: hub.config.namespace,
        allNamespaces: flags['all-namespaces'],
        shard,
        ...placement,
      },
      noDedupe: flags['no-dedupe'],
      minTargets: flags['min-targets'],
      usable: flags.usable,
      entries: kubeconfigRequest(flags, hub, providers),
      outputFile: outputFile === '-' ? outputFile : outputFile ? path.resolve(outputFile) : undefined,
      merge: flags.merge,
      overwrite: flags.overwrite,
      setCurrent: flags['set-current'],
    },
  )
  showKubeconfigOutcome(outcome, wiring.printer)
}

/** What happened, in order; then the error or the quiet failure it ended with. */
function showKubeconfigOutcome(outcome: KubeconfigOutcome, printer: Printer): void {
  sayLeftOut(outcome, printer)
  sayFolds(outcome, printer)
  if (outcome.noProfiles !== undefined) printer.note(outcome.noProfiles)
  if (outcome.error !== undefined) throw outcome.error
  const {written} = outcome
  if (written) {
    for (const warning of written.warnings) printer.warn(warning)
    if (written.yaml) printer.data(written.yaml)
    for (const message of written.messages) printer.note(message)
  }
  if (outcome.unusable.length > 0) {
    for (const {profile, reason} of outcome.unusable) printer.warn(`skipped ${profile}: ${reason}`)
    printer.note(
      `${outcome.unusable.length} of ${outcome.targets} profiles were left out; --usable leaves out such profiles and succeeds`,
    )
  }
  if (outcome.exitCode !== ExitCode.Success) throw new QuietExit(outcome.exitCode)
}
