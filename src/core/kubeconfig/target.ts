// The private kubeconfig `cpcred exec` hands to the command it runs: the target cluster from the
// profile, and a user whose exec entry reads the current credential from a private file beside it.
// cpcred keeps that file current while the command runs (src/usecases/exec-one.ts), so kubectl's own
// refresh — on a 401, and when the credential it holds expires — gets a new credential, and a
// `kubectl get -w`, `logs -f` or a long helm upgrade outlives the first one. A fixed token would
// not: kubectl cannot refresh it. The reader is `cat`, not cpcred: kubectl runs it once per process
// and again on each refresh, and a Node start would add about 40 ms to every kubectl call
// (docs/performance.md). Neither the entry's arguments nor its environment hold a secret: only the
// file's path. Both files are 0600 in a 0700 directory and removed when the command ends.
import {emitKubeconfigJson} from './text.js'
import {toKubeconfigCluster, type KubeconfigCluster} from '../access/connection.js'
import type {Resolution} from '../access/resolve-access.js'

export interface TargetKubeconfigOptions {
  as?: string
  asGroups?: string[]
}

/** The target as the kubeconfig names it: the cluster entry and who to impersonate. */
export interface TargetConnection {
  cluster: KubeconfigCluster
  as?: string
  asGroups?: string[]
}

export const TARGET_CONTEXT = 'cpcred-target'
/** The ExecCredential version the credential file holds and the exec entry asks for. */
export const TARGET_EXEC_API = 'client.authentication.k8s.io/v1'

export function targetConnection(
  resolution: Resolution,
  options: TargetKubeconfigOptions = {},
): TargetConnection {
  const connection: TargetConnection = {cluster: toKubeconfigCluster(resolution.cluster)}
  if (options.as) connection.as = options.as
  if (options.as && options.asGroups?.length) connection.asGroups = [...options.asGroups]
  return connection
}

/**
 * The kubeconfig for a target whose credential (an ExecCredential of TARGET_EXEC_API) is in
 * `credentialFile`, read by `reader` (an absolute path to cat).
 */
export function renderTargetKubeconfig(
  connection: TargetConnection,
  credential: {reader: string; file: string},
): string {
  const user: Record<string, unknown> = {
    exec: {
      apiVersion: TARGET_EXEC_API,
      command: credential.reader,
      args: [credential.file],
      env: null,
      // The file is read, never a prompt: kubectl must not wait for a terminal.
      interactiveMode: 'Never',
      provideClusterInfo: false,
    },
  }
  if (connection.as) user.as = connection.as
  if (connection.as && connection.asGroups?.length) user['as-groups'] = connection.asGroups
  // JSON is valid YAML, and kubectl, helm and client-go read it; no YAML library is needed here.
  return emitKubeconfigJson({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{name: TARGET_CONTEXT, cluster: connection.cluster}],
    users: [{name: TARGET_CONTEXT, user}],
    contexts: [{name: TARGET_CONTEXT, context: {cluster: TARGET_CONTEXT, user: TARGET_CONTEXT}}],
    'current-context': TARGET_CONTEXT,
  })
}
