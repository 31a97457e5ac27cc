// Doctor's kubectl link: whether kubectl's credential-plugin policy (kuberc, kubectl ≥ 1.35) lets it
// run what this profile's kubeconfig entries run: the plugin (--mode plugin) and `cpcred credential`
// (--mode cpcred). cpcred's own commands are not subject to it.
import {ExitCode} from '../errors.js'
import {allowAdviceLine, judgeCommand, type KubectlPolicy, type LookPath} from '../kubeconfig/kuberc.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'

export interface KubeconfigCommand {
  /** What runs it, for people: "the plugin (--mode plugin)". */
  role: string
  command: string
}

export function judgeKubectlPolicy(
  policy: KubectlPolicy,
  commands: KubeconfigCommand[],
  lookPath: LookPath,
): CheckOutcome {
  if (policy.kind === 'broken') {
    return fail(ExitCode.Failure, `kubectl refuses every command: ${policy.why}`, allowAdviceLine(policy, []))
  }
  const source = policy.file === undefined ? `no kuberc (${policy.why})` : policy.file
  if (policy.policy === 'AllowAll') return ok(`kubectl runs every credential plugin: ${source}`)
  const verdicts = commands.map((entry) => ({...entry, ...judgeCommand(policy, entry.command, lookPath)}))
  const said = (allowed: boolean) =>
    verdicts
      .filter((verdict) => verdict.allowed === allowed)
      .map(({role, command}) => `${role} ${command}`)
      .join(' and ')
  const refused = verdicts.filter((verdict) => !verdict.allowed)
  const head = `credentialPluginPolicy ${policy.policy} in ${source}`
  if (refused.length === 0) return ok(`${head} lets kubectl run ${said(true)}`)
  const hint = allowAdviceLine(
    policy,
    refused.map(({command}) => command),
  )
  const allowed = said(true)
  const detail = `${head}: kubectl refuses ${said(false)}${allowed ? `; it runs ${allowed}` : ''}`
  // One mode still works: worth knowing. None does: every kubeconfig cpcred writes for it fails.
  return allowed ? warn(detail, hint) : fail(ExitCode.PluginFailed, detail, hint)
}
