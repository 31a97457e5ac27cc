// `cpcred doctor [PROFILE]`: its flags, its ports from the wiring, and how its report is shown
// (src/commands/doctor.ts gives it help text).
import type {Printer} from '../adapters/printer.js'
import type {CheckStatus} from '../core/doctor/checks.js'
import {
  ASCII_SYMBOLS,
  UNICODE_SYMBOLS,
  doctorExitCode,
  doctorJson,
  renderDoctorReport,
  type DoctorReport,
} from '../core/doctor/report.js'
import {parseAccessQuestion, type AccessQuestion} from '../core/doctor/target-access.js'
import {QuietExit} from '../core/errors.js'
import {doctorCommand, type DoctorPorts} from '../usecases/doctor.js'
import {atMostOneOperand, parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  HUB_FLAGS,
  hubSelection,
  KUBERC_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  outputFlag,
} from './flags.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import {warnIfNodeEnded} from './version.js'
import {present} from './present.js'
import type {Wiring} from './wiring.js'

export const DOCTOR_FLAGS = {
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

/** What the words of `cpcred doctor` ask for. */
export interface DoctorRequest {
  flags: FlagValues<typeof DOCTOR_FLAGS>
  /** The profile named, if any. */
  profile: string | undefined
  /** --can's question. */
  can: AccessQuestion | undefined
  shard: ShardChoice
}

/** The words of `cpcred doctor` (and CPCRED_SHARD), read and checked without the hub or a file. */
export function parseDoctor(argv: string[], env: NodeJS.ProcessEnv = {}): DoctorRequest {
  const {flags, positionals} = parseFlags(DOCTOR_FLAGS, argv, DOCTOR_USAGE)
  const profile = atMostOneOperand(positionals, DOCTOR_USAGE)
  const can = flags.can === undefined ? undefined : parseAccessQuestion(flags.can)
  // Doctor checks many profiles with -A as well as with -l, --all or a placement.
  const shard = chooseShard(
    flags.shard,
    profile === undefined &&
      (flags['all-namespaces'] ||
        flags.all ||
        flags.selector !== undefined ||
        flags.placement !== undefined ||
        flags['placement-key'] !== undefined),
    env,
  )
  return {flags, profile, can, shard}
}

export async function runDoctor(wiring: Wiring, argv: string[]): Promise<void> {
  const {flags, profile: profileText, can, ...request} = parseDoctor(argv, wiring.env)
  const {printer} = wiring
  const report = await doctorCommand(await doctorPorts(wiring), {
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
    shard: sayShard(request.shard, printer),
    pluginTimeoutMs: flags['plugin-timeout'],
    profileMaxStaleMs: flags['profile-max-stale'],
    noCache: flags['no-cache'],
    kuberc: flags.kuberc,
    can,
  }).finally(() => printer.status(''))
  await present(printer, flags.output, report, {
    text: (outcome) => showReport(printer, outcome),
    data: doctorJson,
  })
  // After the report, which a mistyped word never reaches (its usage error stands alone), and
  // before the exit code a failed check gives.
  warnIfNodeEnded(printer)
  const code = doctorExitCode(report)
  if (code !== 0) throw new QuietExit(code)
}

async function doctorPorts(wiring: Wiring): Promise<DoctorPorts> {
  const {printer} = wiring
  return {
    ...(await wiring.doctorPorts()),
    onCheck: (id, profile) =>
      printer.status(`checking ${profile ? `${profile}: ` : ''}${id}${printer.glyphs.ellipsis}`),
  }
}

/**
 * Symbols and colour on a terminal that shows UTF-8; words (ok, FAIL, warn) in logs and pipes, where
 * grep finds them, and on terminals that cannot show the symbols.
 */
export async function showReport(printer: Printer, report: DoctorReport): Promise<void> {
  const symbols = printer.stdoutIsTTY && printer.unicode ? UNICODE_SYMBOLS : ASCII_SYMBOLS
  const {cells, statuses} = renderDoctorReport(report, symbols)
  const chalk = await printer.paint()
  const paint: Record<CheckStatus, (text: string) => string> = {
    ok: chalk.green,
    warn: chalk.yellow,
    fail: chalk.red,
    skip: chalk.dim,
  }
  printer.cells(cells, {
    style: (cell, column, row) => (column === 0 && statuses[row] ? paint[statuses[row]](cell) : cell),
  })
}
