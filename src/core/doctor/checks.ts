// `cpcred doctor`: the checks in the order the chain is walked (hub → RBAC → API → provider file →
// plugin → target TLS → target auth → clock → cache), what each one needs before it can say anything,
// and how the results of a run become one exit code. Pure: src/usecases/doctor.ts runs the checks,
// the other files of src/core/doctor judge what they found (a file per link), src/core/doctor/report.ts shows the results.
import {ExitCode, isCpcredError} from '../errors.js'
import {INSTALL_CRD_HINT} from '../failures.js'

export const HUB_CHECK_IDS = [
  'hub-kubeconfig',
  'hub-tls',
  'hub-identity',
  'hub-rbac',
  'hub-api',
  'hub-clock',
  'provider-file',
  'provider-usage',
  'profiles',
] as const
export type HubCheckId = (typeof HUB_CHECK_IDS)[number]

export const PROFILE_CHECK_IDS = [
  'profile',
  'resolution',
  'plugin-command',
  'kuberc',
  'plugin-run',
  'target-tls',
  'target-auth',
  'target-access',
  'target-can',
  'target-clock',
  'cache',
] as const
export type ProfileCheckId = (typeof PROFILE_CHECK_IDS)[number]

export type CheckId = HubCheckId | ProfileCheckId

/** ok ✓, warn ! (works, but worth knowing), fail ✗ (a broken link), skip (not checked: it needs a link that broke). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip'

/** What one check found. */
export interface CheckOutcome {
  status: Exclude<CheckStatus, 'skip'>
  /** One line; a plugin's stderr may add more. */
  detail: string
  /** How to fix it: always for a failure, sometimes for a warning. */
  hint?: string
  /** For a failure: the exit code of its class (3 unreachable, 4 denied, 5 plugin; anything else 1). */
  exitCode?: number
}

export interface CheckResult {
  id: CheckId
  status: CheckStatus
  detail: string
  hint?: string
  exitCode?: number
}

export const ok = (detail: string): CheckOutcome => ({status: 'ok', detail})

export const warn = (detail: string, hint?: string): CheckOutcome =>
  hint === undefined ? {status: 'warn', detail} : {status: 'warn', detail, hint}

export const fail = (exitCode: number, detail: string, hint: string): CheckOutcome => ({
  status: 'fail',
  detail,
  hint,
  exitCode,
})

export interface PlannedCheck<Id extends CheckId = CheckId> {
  id: Id
  /** Checks that must have passed (ok or warn) first; otherwise this one is skipped, not run. */
  needs: readonly CheckId[]
}

/**
 * The hub and the provider file. A check whose prerequisite broke is not run: its answer would only
 * repeat the same failure (a hub that cannot be reached cannot be asked about RBAC either).
 */
export const HUB_PLAN: readonly PlannedCheck<HubCheckId>[] = [
  {id: 'hub-kubeconfig', needs: []},
  {id: 'hub-tls', needs: ['hub-kubeconfig']},
  {id: 'hub-identity', needs: ['hub-tls']},
  {id: 'hub-rbac', needs: ['hub-identity']},
  {id: 'hub-api', needs: ['hub-identity']},
  {id: 'hub-clock', needs: ['hub-tls']},
  {id: 'provider-file', needs: []},
  {id: 'provider-usage', needs: ['provider-file', 'hub-rbac', 'hub-api']},
]

/** With -A, -l or --all: which profiles are checked. */
export const SELECTION_PLAN: readonly PlannedCheck<HubCheckId>[] = [
  {id: 'profiles', needs: ['hub-rbac', 'hub-api']},
]

/**
 * One profile, from the hub to its cluster. The target's TLS does not need a credential, so it is
 * checked even when the plugin fails: both can be broken at once, and both are worth knowing.
 */
export const PROFILE_PLAN: readonly PlannedCheck<ProfileCheckId>[] = [
  {id: 'profile', needs: ['hub-rbac', 'hub-api']},
  {id: 'resolution', needs: ['profile', 'provider-file']},
  {id: 'plugin-command', needs: ['resolution']},
  {id: 'kuberc', needs: ['resolution']},
  {id: 'plugin-run', needs: ['plugin-command']},
  {id: 'target-tls', needs: ['resolution']},
  {id: 'target-auth', needs: ['plugin-run', 'target-tls']},
  {id: 'target-access', needs: ['target-auth']},
  // Only when asked (--can); otherwise the report names it among the checks not done.
  {id: 'target-can', needs: ['target-auth']},
  {id: 'target-clock', needs: ['target-tls']},
  {id: 'cache', needs: ['resolution']},
]

export type CheckRunner<Id extends CheckId> = (id: Id) => Promise<CheckOutcome>

/**
 * Runs `plan` in order. A failed check, or one skipped for that reason, makes every check that needs
 * it skip. `earlier` holds the results this plan may depend on (the hub's, for a profile); `profile`
 * names the profile in fallback hints. A thrown CpcredError is that check's failure; anything else is
 * a bug, shown as a failure rather than ending the whole diagnosis. Being stopped by a signal does
 * end it.
 */
export async function runPlan<Id extends CheckId>(
  plan: readonly PlannedCheck<Id>[],
  run: CheckRunner<Id>,
  options: {earlier?: readonly CheckResult[]; profile?: string; onStart?: (id: Id) => void} = {},
): Promise<CheckResult[]> {
  const {earlier = [], profile, onStart} = options
  const broken = new Set<CheckId>(earlier.filter(isBroken).map((result) => result.id))
  const results: CheckResult[] = []
  for (const {id, needs} of plan) {
    const missing = needs.filter((need) => broken.has(need))
    let result: CheckResult
    if (missing.length > 0) {
      result = {id, status: 'skip', detail: `not checked: needs ${missing.join(' and ')}`}
    } else {
      onStart?.(id)
      result = {id, ...(await outcomeOf(run, id, profile))}
    }
    if (isBroken(result)) broken.add(id)
    results.push(result)
  }
  return results
}

/**
 * What to do about a failure whose error brought no hint of its own, so that every ✗ has a way
 * forward. `profile` is the profile being checked, as the user would type it.
 */
export function fallbackHint(id: CheckId, profile = 'PROFILE'): string {
  switch (id) {
    case 'hub-kubeconfig':
      return 'fix the hub kubeconfig, or select another with --kubeconfig and --context'
    case 'hub-tls':
      return 'check the cluster entry of the hub kubeconfig (server, certificate-authority-data)'
    case 'hub-identity':
      return 'check the user entry of the hub kubeconfig, or log in to the hub again'
    case 'hub-rbac':
      return 'ask the hub administrator for get and list on clusterprofiles.multicluster.x-k8s.io'
    case 'hub-api':
      return INSTALL_CRD_HINT
    case 'hub-clock':
    case 'target-clock':
      return "sync this machine's clock (e.g. timedatectl set-ntp true)"
    case 'provider-file':
      return 'fix the provider file (docs/providers.md), or pass another with --provider-file'
    case 'provider-usage':
      return "compare the provider names with what the profiles offer ('cpcred list -o wide')"
    case 'profiles':
      return 'check the -l selector and the namespace (-n, -A)'
    case 'profile':
    case 'resolution':
      return `'cpcred describe ${profile}' shows the profile's providers beside your provider file`
    case 'plugin-command':
      return 'install the plugin, or fix execConfig.command in the provider file'
    case 'kuberc':
      return "check kubectl's kuberc (kubectl kuberc view)"
    case 'plugin-run':
      return `run the plugin by hand to see what it says; 'cpcred describe ${profile} --show-env' shows its command and environment`
    case 'target-tls':
      return 'check that the target is up and reachable from this machine (VPN, firewall, proxy)'
    case 'target-auth':
      return "ask the target's administrator whether it trusts this identity"
    case 'target-access':
    case 'target-can':
      return "ask the target's administrator what this identity may do ('kubectl auth can-i --list' with the credential)"
    case 'cache':
      return `remove the entry with 'cpcred cache clear ${profile}'`
  }
}

function isBroken(result: CheckResult): boolean {
  return result.status === 'fail' || result.status === 'skip'
}

async function outcomeOf<Id extends CheckId>(
  run: CheckRunner<Id>,
  id: Id,
  profile: string | undefined,
): Promise<CheckOutcome> {
  try {
    return await run(id)
  } catch (error) {
    if (isCpcredError(error)) {
      if (error.exitCode >= 128) throw error
      return fail(error.exitCode, error.message, error.hint ?? fallbackHint(id, profile))
    }
    return fail(
      ExitCode.Failure,
      `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
      'this is a bug in cpcred; run again with CPCRED_DEBUG=1 and report it',
    )
  }
}

/** The exit code of a failure's class: 3, 4 and 5 keep their meaning, everything else is 1. */
export function failureClass(exitCode: number | undefined): number {
  return exitCode === ExitCode.Unreachable ||
    exitCode === ExitCode.Denied ||
    exitCode === ExitCode.PluginFailed
    ? exitCode
    : ExitCode.Failure
}

/** 0 when nothing failed, else the class of the first failure in the order the chain was walked. */
export function exitCodeOf(results: readonly CheckResult[]): number {
  const first = results.find((result) => result.status === 'fail')
  return first === undefined ? ExitCode.Success : failureClass(first.exitCode)
}

/** The most serious status among results: fail, then skip, then warn; ok when all passed. */
export function overallStatus(results: readonly CheckResult[]): CheckStatus {
  for (const status of ['fail', 'skip', 'warn'] as const) {
    if (results.some((result) => result.status === status)) return status
  }
  return 'ok'
}
