import {FrontCommand} from '../cli/front-command.js'
import {CREDENTIAL_FLAGS} from '../cli/credential.js'
import {oclifFlags} from '../cli/oclif-flags.js'

// kubectl reaches `cpcred credential` through bin/run.js's fast path, which never loads oclif; this
// class gives it help text (FrontCommand runs the same front should oclif ever be asked to).
export default class Credential extends FrontCommand {
  static override summary =
    'Print an ExecCredential for a profile: cpcred as a kubectl exec credential plugin.'
  static override description = `Resolves the profile against your provider file, runs the matched plugin (or serves a cached, still-valid credential for exactly the same identity and target) and prints the ExecCredential on stdout, in the apiVersion kubectl asked for in KUBERNETES_EXEC_INFO (v1 when run by hand). This is what 'cpcred kubeconfig --mode cpcred' writes into kubeconfigs.

While the hub cannot be reached (refused, timed out, 5xx), the profile as last read is used up to --profile-max-stale (24h), only with a credential already cached, and a warning says how old it is; a 401 or 403 from the hub, a TLS failure or another hub identity never counts as an outage.

The plugin runs in a process group of its own: --plugin-timeout or a signal to cpcred stops it and everything it started.`
  static override usage = 'credential NAMESPACE/NAME [FLAGS]'
  static override strict = false
  static override flags = oclifFlags(CREDENTIAL_FLAGS)
  static override examples = ['<%= config.bin %> credential fleet-prod/eu-west-1 --kubeconfig ~/.kube/hub -v']
}
