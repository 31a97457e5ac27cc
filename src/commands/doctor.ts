import {Args, Command, Flags} from '@oclif/core'
import {CredentialStore, defaultCredentialCacheDir} from '../adapters/credential-store.js'
import {findExecutable} from '../adapters/executables.js'
import {processPrinter, type Printer} from '../adapters/printer.js'
import {pluginRunner} from '../adapters/process.js'
import {probeServer} from '../adapters/server-probe.js'
import {parseDuration} from '../core/duration.js'
import type {CheckStatus} from '../core/doctor.js'
import {
  ASCII_SYMBOLS,
  UNICODE_SYMBOLS,
  doctorExitCode,
  doctorJson,
  renderDoctorReport,
  type DoctorReport,
} from '../core/doctor-report.js'
import {hubFlags, providerFlags, targetFlags} from '../cli/flags.js'
import {runDoctor, type DoctorDeps} from '../usecases/doctor.js'

export default class Doctor extends Command {
  static override summary =
    'Walk the chain from the hub to a cluster, name the link that is broken, and how to fix it.'
  static override description = `Checks, in order: the hub kubeconfig, the hub's TLS, who you are on the hub and whether you may read ClusterProfiles, the ClusterProfile API, the provider file; and for a profile: which provider matches and why, the plugin command, a fresh run of the plugin, the target's TLS, whether the target accepts the credential, the clocks, and the credential cache. Nothing is changed: the plugin runs without the cache, and no credential is ever printed.

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
  static override flags = {
    ...hubFlags,
    ...targetFlags,
    ...providerFlags,
    'plugin-timeout': Flags.string({
      summary: 'Stop a credential plugin that runs longer than this.',
      default: '2m',
    }),
    output: Flags.option({
      char: 'o',
      summary: 'Output format.',
      options: ['text', 'json'] as const,
      default: 'text' as const,
    })(),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Doctor)
    const printer = processPrinter()
    const report = await runDoctor(doctorDeps(printer), {
      hub: {kubeconfig: flags.kubeconfig, context: flags.context, namespace: flags.namespace},
      providers: {providerFile: flags['provider-file'], accessProviders: flags['access-provider']},
      profile: args.profile,
      allNamespaces: flags['all-namespaces'],
      selector: flags.selector,
      all: flags.all,
      pluginTimeoutMs: parseDuration(flags['plugin-timeout'], '--plugin-timeout'),
    }).finally(() => printer.status(''))
    if (flags.output === 'json') printer.data(`${JSON.stringify(doctorJson(report), null, 4)}\n`)
    else await showReport(printer, report)
    const code = doctorExitCode(report)
    if (code !== 0) this.exit(code)
  }
}

function doctorDeps(printer: Printer): DoctorDeps {
  return {
    runner: pluginRunner,
    probe: probeServer,
    findExecutable,
    cache: new CredentialStore(defaultCredentialCacheDir()),
    now: () => new Date(),
    env: process.env,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    uid: process.getuid?.(),
    onCheck: (id, profile) => printer.status(`checking ${profile ? `${profile}: ` : ''}${id}…`),
  }
}

/** Symbols and colour on a terminal; words (ok, FAIL, warn) in logs and pipes, where grep finds them. */
async function showReport(printer: Printer, report: DoctorReport): Promise<void> {
  const {cells, statuses} = renderDoctorReport(report, printer.stdoutIsTTY ? UNICODE_SYMBOLS : ASCII_SYMBOLS)
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
