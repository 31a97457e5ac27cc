// The private kubeconfig `cpcred exec` hands to the command it runs: the target cluster from the
// profile, and a user whose credential is in private files beside it: `tokenFile` for a token,
// `client-certificate` and `client-key` naming one PEM file for a certificate. cpcred keeps those
// files current while the command runs (src/usecases/exec-target-files.ts), and client-go re-reads
// them by itself, so a `kubectl get -w`, `logs -f` or a long helm upgrade outlives the first
// credential. No exec entry: kubectl's credential plugin policy (kuberc `credentialPluginPolicy`
// DenyAll, or an Allowlist of the user's own plugins) applies only to `user.exec`, so it cannot
// refuse these files, and no process starts per kubectl call (docs/performance.md). The files are
// 0600 in a 0700 directory and removed when the command ends.
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
/**
 * A target's credential as its files hold it: the bare token (client-go trims the file), and the
 * client certificate chain followed by its key in one PEM. One file for both, so that one rename
 * replaces the pair: Go's X509KeyPair takes the CERTIFICATE blocks for the chain and the PRIVATE KEY
 * block for the key, skipping the others.
 */
export interface TargetCredential {
  token?: string
  certificate?: string
}

export function targetCredential(credential: {
  token?: string
  clientCertificateData?: string
  clientKeyData?: string
}): TargetCredential {
  const files: TargetCredential = {}
  if (credential.token) files.token = credential.token
  if (credential.clientCertificateData && credential.clientKeyData)
    files.certificate = `${credential.clientCertificateData.trimEnd()}\n${credential.clientKeyData.trimEnd()}\n`
  return files
}

/**
 * How long before a credential in the files expires cpcred must have renewed them, for a client
 * that holds what it read (client-go v0.37 transport): a token file is re-read once the read is 50 s
 * old (a 1 m period less 10 s of leeway), a client certificate file by a poll every 5 minutes (or
 * at a new connection). 20 s more for the renewal itself to run.
 */
export function fileRereadSeconds(credential: TargetCredential): number {
  return credential.certificate !== undefined ? 5 * 60 + 20 : 50 + 20
}

export function targetConnection(
  resolution: Resolution,
  options: TargetKubeconfigOptions = {},
): TargetConnection {
  const connection: TargetConnection = {cluster: toKubeconfigCluster(resolution.cluster)}
  if (options.as) connection.as = options.as
  if (options.as && options.asGroups?.length) connection.asGroups = [...options.asGroups]
  return connection
}

/** The kubeconfig for a target whose credential is in `files` (see TargetCredential). */
export function renderTargetKubeconfig(
  connection: TargetConnection,
  files: {tokenFile?: string; certificateFile?: string},
): string {
  const user: Record<string, unknown> = {}
  if (files.tokenFile) user.tokenFile = files.tokenFile
  if (files.certificateFile) {
    user['client-certificate'] = files.certificateFile
    user['client-key'] = files.certificateFile
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
