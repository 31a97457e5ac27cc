import {Args, Command} from '@oclif/core'
import {doctorDeps, showReport} from '../cli/doctor.js'
import {doctorExitCode, doctorJson} from '../core/doctor/report.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable} from '../cli/flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  KUBERC_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  outputFlag,
} from '../cli/flags.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {processWiring} from '../cli/wiring.js'
import {chosenShard} from '../cli/shard.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {exportJson} from '../core/text/export.js'
import {runDoctor} from '../usecases/doctor.js'
import {parseAccessQuestion} from '../core/doctor/target-access.js'

const DOCTOR_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PLACEMENT_FLAGS,
  ...PROVIDER_FLAGS,
  'plugin-timeout': CREDENTIAL_RUN_FLAGS['plugin-timeout'],
  'profile-max-stale': CREDENTIAL_RUN_FLAGS['profile-max-stale'],
  // Doctor never writes the cache; like every other credential command it can be told not to read it.
  'no-cache': {kind: 'boolean', summary: 'Do not read the credential cache (the cache check is left out).'},
  ...KUBERC_FLAG,
  can: {
    kind: 'string',
    summary:
      "Ask each target whether the credential may do one action, as kubectl auth can-i does: 'VERB RESOURCE [-n NAMESPACE]' (its namespace is also the one whose rules are listed; default: default). Exit code 4 when it may not.",
  },
  ...outputFlag(['text', 'json']),
} as const satisfies FlagTable

const DOCTOR_USAGE = usageLine('doctor', '[PROFILE]')

export default class Doctor extends Command {
  static override summary =
    'Walk the chain from the hub to a cluster, name the link that is broken, and how to fix it.'
  static override description = `Checks, in order: the hub kubeconfig, the hub's TLS, who you are on the hub and whether you may read ClusterProfiles, the ClusterProfile API, the provider file; and for a profile: which provider matches and why, the plugin command, whether kubectl's credential-plugin policy (its kuberc) lets it run the plugin and cpcred, a fresh run of the plugin, the target's TLS, whether the target accepts the credential and what it may do there (with --can, one action), the clocks, and the credential cache. Nothing is changed: the plugin runs without the cache, and no credential is ever printed.

Without a profile only the hub and the provider file are checked; with -A, -l or --all every selected profile gets one line. Exit code: 0 when nothing failed, else that of the first failure (3 unreachable or not served, 4 denied, 5 plugin, 1 anything else).`
  static override examples = [
    '<%= config.bin %> doctor fleet-prod/eu-west-1',
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor -A -l env=prod',
    '<%= config.bin %> doctor fleet-prod/eu-west-1 -o json | jq \'.profiles[0].checks[] | select(.status == "fail")\'',
  ]
  static override args = {
    profile: Args.string({
      name: 'PROFILE',
      description:
        'NAME or NAMESPACE/NAME of a ClusterProfile (without one: the hub and the provider file only)',
      required: false,
    }),
  }
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(DOCTOR_FLAGS)

  async run(): Promise<void> {
    const {flags, positionals} = parseFlags(DOCTOR_FLAGS, this.argv, DOCTOR_USAGE)
    const profileText = atMostOneOperand(positionals, DOCTOR_USAGE)
    checkLabelSelector(flags.selector)
    const can = flags.can === undefined ? undefined : parseAccessQuestion(flags.can)
    const wiring = processWiring()
    const {printer} = wiring
    const report = await runDoctor(await doctorDeps(wiring), {
      hub: hubSelection(flags),
      providers: {providerFile: flags['provider-file'], accessProviders: flags['access-provider']},
      profile: profileText,
      allNamespaces: flags['all-namespaces'],
      selector: flags.selector,
      all: flags.all,
      noDedupe: flags['no-dedupe'],
      placement: flags.placement,
      placementKey: flags['placement-key'],
      healthy: flags.healthy,
      // Doctor checks many profiles with -A as well as with -l, --all or a placement.
      shard: chosenShard(
        flags.shard,
        profileText === undefined &&
          (flags['all-namespaces'] ||
            flags.all ||
            flags.selector !== undefined ||
            flags.placement !== undefined ||
            flags['placement-key'] !== undefined),
      ),
      pluginTimeoutMs: flags['plugin-timeout'],
      profileMaxStaleMs: flags['profile-max-stale'],
      noCache: flags['no-cache'],
      kuberc: flags.kuberc,
      can,
    }).finally(() => printer.status(''))
    if (flags.output === 'json') printer.data(exportJson(doctorJson(report)))
    else await showReport(printer, report)
    const code = doctorExitCode(report)
    if (code !== 0) this.exit(code)
  }
}
