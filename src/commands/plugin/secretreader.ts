import {FrontCommand} from '../../cli/front-command.js'
import {oclifFlags} from '../../cli/oclif-flags.js'
import {SECRETREADER_FLAGS} from '../../cli/plugins/secretreader.js'

// kubectl reaches the plugin through bin/run.js's fast path, which never loads oclif; this class gives
// it help text (FrontCommand runs the same front should oclif ever be asked to).
export default class PluginSecretreader extends FrontCommand {
  static override summary =
    'Exec credential plugin: the token kept in hub Secret <namespace>/<clusterName> (upstream secretreader).'
  static override description = `Compatible with the Cluster Inventory API's secretreader plugin. Reads clusterName from spec.cluster.config of KUBERNETES_EXEC_INFO (the cluster's client.authentication.k8s.io/exec extension, so the provider needs provideClusterInfo: true), reads key "token" of Secret <namespace>/<clusterName> on the hub and prints an ExecCredential without expiry, in the apiVersion it was run with.

The hub: --kubeconfig/--context, else KUBECONFIG (kubectl's rules) and CPCRED_HUB_CONTEXT, else the current context. Namespace: -n, else the hub context's namespace, else "default". RBAC needed on the hub: "get" on that one Secret.

In a provider file: {"name": "secretreader", "execConfig": {"apiVersion": "client.authentication.k8s.io/v1", "command": "cpcred", "args": ["plugin", "secretreader"], "provideClusterInfo": true, "interactiveMode": "Never"}}. See docs/plugins.md.`
  static override strict = false
  static override flags = oclifFlags(SECRETREADER_FLAGS)
  static override examples = [
    `$ KUBERNETES_EXEC_INFO='{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://eu-west-1.example:6443","config":{"clusterName":"eu-west-1"}}}}' <%= config.bin %> plugin secretreader -n fleet -v`,
  ]
}
