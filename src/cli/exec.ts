// `cpcred exec`: CI pipelines run it all day, and oclif alone takes about 100 ms to load, more than
// kubectl needs for a whole `get`. So, like `credential`, its flag table is read by cli/flag-table.ts
// (kubectl's grammar) and it runs from the bundled fast path; src/commands/exec.ts gives it help text.
import path from 'node:path'
import type {ReportRequest} from '../usecases/exec-many.js'
import {parseReportRequest} from './report-flag.js'
import {runFront} from './run-to-exit.js'
import {questionOf} from './answer-question.js'
import {chooseShard, sayShard, type ShardChoice} from './shard.js'
import {isSelecting} from './targets.js'
import {UsageError} from '../core/errors.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {
  FAN_OUT_FORMATS,
  FAN_OUT_FORMATS_SUMMARY,
  FAN_OUT_PRESENTERS,
} from '../core/fleet/fan-out-presenters.js'
import {parseFlags, usageLine, type FlagTable, type FlagValues} from './flag-table.js'
import {
  CREDENTIAL_RUN_FLAGS,
  pipelineInput,
  HUB_FLAGS,
  IMPERSONATION_FLAGS,
  MIN_TARGETS_FLAG,
  PLACEMENT_FLAGS,
  PROVIDER_FLAGS,
  TARGET_FLAGS,
  VERBOSE_FLAG,
  outputFlag,
} from './flags.js'
import {selfInvocation, type Wiring} from './wiring.js'
import {targetRunPorts, targetSelection} from './target-run.js'

export const EXEC_USAGE = usageLine('exec', '[PROFILE...] -- COMMAND [ARGS...]')

/** The flags of `cpcred exec`, read by this fast path and by the oclif class for help. */
export const EXEC_FLAGS = {
  ...HUB_FLAGS,
  ...TARGET_FLAGS,
  ...PLACEMENT_FLAGS,
  ...PROVIDER_FLAGS,
  parallel: {kind: 'integer', summary: 'How many targets run at once.', default: 4, min: 1},
  'fail-fast': {
    kind: 'boolean',
    summary: 'Stop starting targets after the first failure, and stop the running ones.',
  },
  ...outputFlag(FAN_OUT_FORMATS, FAN_OUT_FORMATS_SUMMARY),
  timeout: {
    kind: 'duration',
    summary:
      "Stop a target's command (and what it started) after this long; alone, cpcred then exits 124 as timeout(1) does.",
  },
  report: {
    kind: 'string',
    summary: 'Write a report when all targets have ended: junit=FILE or json=FILE (repeatable).',
    multiple: true,
    helpGroup: 'CI',
  },
  'output-dir': {
    kind: 'string',
    summary:
      "Write each target's output to DIR/NAMESPACE/NAME.log (both streams), NAME.stdout and NAME.stderr (created 0700; files 0600).",
    helpGroup: 'CI',
  },
  stdin: {
    kind: 'option',
    summary:
      "With many targets: copy gives each target's command all of cpcred's stdin (read once; not a terminal's), none gives it /dev/null.",
    options: ['copy', 'none'],
    default: 'copy',
  },
  quiet: {
    kind: 'boolean',
    char: 'q',
    summary: "Do not show the targets' output; only the summary (with --output-dir, the logs have it).",
    helpGroup: 'CI',
  },
  ...MIN_TARGETS_FLAG,
  ...IMPERSONATION_FLAGS,
  ...CREDENTIAL_RUN_FLAGS,
  ...VERBOSE_FLAG,
} as const satisfies FlagTable

export type ExecFlags = FlagValues<typeof EXEC_FLAGS>

/** What the words of `cpcred exec` (and CPCRED_SHARD) ask for. */
export interface ExecRequest {
  /** The profiles named. */
  names: string[]
  /** The command to run, the words after --. */
  command: string[]
  flags: ExecFlags
  reports: ReportRequest[]
  shard: ShardChoice
}

/** The words of `cpcred exec` (and CPCRED_SHARD), read and checked without the hub. */
export function parseExec(argv: string[], env: NodeJS.ProcessEnv = {}): ExecRequest {
  const separator = argv.indexOf('--')
  const command = separator === -1 ? [] : argv.slice(separator + 1)
  const {flags, positionals} = parseFlags(
    EXEC_FLAGS,
    separator === -1 ? argv : argv.slice(0, separator),
    EXEC_USAGE,
  )
  if (command.length === 0)
    throw new UsageError('no command to run', 'put it after --, e.g. cpcred exec NAME -- kubectl get pods')
  if (flags.timeout === 0)
    throw new UsageError('--timeout 0s would stop every command at once', 'give a duration such as 90s or 5m')
  if (flags['output-dir'] === '')
    throw new UsageError('--output-dir is empty', 'name the directory for the logs, e.g. --output-dir logs')
  checkLabelSelector(flags.selector)
  const reports = flags.report.map(parseReportRequest)
  return {
    names: positionals,
    command,
    flags,
    reports,
    shard: chooseShard(flags.shard, isSelecting(flags), env),
  }
}

/** The router's entry (src/cli/router.ts), the exec bundle's composition root: runs exec and exits with its code. */
export function run(argv: string[]): void {
  runFront(runExec, argv)
}

/** Runs exec; the exit code is the command's for one target, 0 or 1 for many. */
export async function runExec(wiring: Wiring, argv: string[]): Promise<number> {
  const options = parseExec(argv, wiring.env)
  const {flags} = options
  const {printer} = wiring
  const selecting = isSelecting(flags)
  const shard = sayShard(options.shard, printer)
  const {execCommand} = await import('../usecases/exec.js')
  return execCommand(
    {
      ...targetRunPorts(wiring, flags),
      commands: () => wiring.execPorts(),
      now: () => performance.now(),
      fanOutPorts: () => wiring.fanOutPorts(),
    },
    {
      question: questionOf(['exec', ...argv]),
      targets: targetSelection(options.names, flags, shard),
      alone: options.names.length <= 1 && !selecting,
      fanOut: {
        parallel: flags.parallel,
        failFast: flags['fail-fast'],
        presenter: FAN_OUT_PRESENTERS[flags.output],
        quiet: flags.quiet,
        outputDir: flags['output-dir'] === undefined ? undefined : path.resolve(flags['output-dir']),
        reports: options.reports,
        stdin: flags.stdin,
      },
      command: options.command,
      ...pipelineInput(flags),
      timeoutMs: flags.timeout,
      as: flags.as,
      asGroups: flags['as-group'],
      stdinIsTTY: printer.stdinIsTTY,
      renewCommand: renewCommand(flags),
    },
  )
}

/**
 * `cpcred credential PROFILE` as this run would obtain it: this cpcred (by its real path, run by
 * this node), the same hub, providers and cache flags. Relative paths stay valid: it runs in this
 * working directory, with this environment. Nothing in it is a secret.
 */
function renewCommand(flags: ExecFlags): (profile: string) => string[] {
  const args: string[] = []
  const pass = (name: string, value: string | number | boolean | undefined) => {
    if (value === undefined || value === false) return
    args.push(value === true ? `--${name}` : `--${name}=${value}`)
  }
  pass('kubeconfig', flags.kubeconfig)
  pass('context', flags.context)
  pass('api-version', flags['api-version'])
  pass('provider-file', flags['provider-file'])
  for (const value of flags['access-provider']) pass('access-provider', value)
  pass('no-cache', flags['no-cache'])
  pass('cache-ttl', flags['cache-ttl'] === undefined ? undefined : `${flags['cache-ttl']}ms`)
  pass('plugin-timeout', `${flags['plugin-timeout']}ms`)
  pass('profile-max-age', `${flags['profile-max-age']}ms`)
  pass('profile-max-stale', `${flags['profile-max-stale']}ms`)
  const self = selfInvocation()
  return (profile) => [...self, 'credential', profile, ...args]
}
