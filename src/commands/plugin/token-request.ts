import {FrontCommand} from '../../cli/front-command.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {
  DEFAULT_EXPIRATION_SECONDS,
  MAX_EXPIRATION_SECONDS,
  MIN_EXPIRATION_SECONDS,
} from '../../core/exec-credential/token-request.js'
import {TOKEN_REQUEST_FLAGS} from '../../cli/plugins/token-request.js'

// kubectl reaches the plugin through bin/run.js's fast path, which never loads oclif; this class gives
// it help text (FrontCommand runs the same front should oclif ever be asked to).
export default class PluginTokenRequest extends FrontCommand {
  static override summary =
    "Exec credential plugin: a hub ServiceAccount token (TokenRequest API) for the target's URL."
  static override description = `Asks the hub's TokenRequest API for a token of a ServiceAccount and prints it as an ExecCredential with the expiry the hub gave it. The target must trust the hub's service-account issuer for that audience (AuthenticationConfiguration).

ServiceAccount: --service-account and -n, else serviceAccount and namespace in spec.cluster.config (the cluster's client.authentication.k8s.io/exec extension); without a namespace, the hub context's. Audience: --audience, else audience in the config, else the target's server URL. Lifetime: --expiration-seconds, else expirationSeconds in the config, else ${DEFAULT_EXPIRATION_SECONDS} (${MIN_EXPIRATION_SECONDS} to ${MAX_EXPIRATION_SECONDS}).

The hub: --kubeconfig/--context, else KUBECONFIG (kubectl's rules) and CPCRED_HUB_CONTEXT, else the current context. RBAC needed on the hub: "create" on serviceaccounts/token for that ServiceAccount.

In a provider file: {"name": "token-request", "execConfig": {"apiVersion": "client.authentication.k8s.io/v1", "command": "cpcred", "args": ["plugin", "token-request"], "provideClusterInfo": true, "interactiveMode": "Never"}}. See docs/plugins.md.`
  static override strict = false
  static override flags = oclifFlags(TOKEN_REQUEST_FLAGS)
  static override examples = [
    '<%= config.bin %> plugin token-request --service-account deployer -n ci --audience https://eu-west-1.example:6443 -v',
  ]
}
