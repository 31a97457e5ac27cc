// The private kubeconfig `cpcred exec` hands to the command it runs: the target cluster from the
// profile and the credential the plugin returned, nothing else. It holds a secret, so it only ever
// lives in a 0600 file in a 0700 directory, and is removed when the command ends.
import type {Credential} from './exec-credential.js'
import {emitKubeconfigJson} from './kubeconfig-text.js'
import type {Resolution} from './resolve-access.js'

export interface TargetKubeconfigOptions {
  as?: string
  asGroups?: string[]
}

export const TARGET_CONTEXT = 'cpcred-target'

export function renderTargetKubeconfig(
  resolution: Resolution,
  credential: Credential,
  options: TargetKubeconfigOptions = {},
): string {
  const cluster: Record<string, unknown> = {server: resolution.cluster.server}
  for (const field of [
    'certificate-authority-data',
    'tls-server-name',
    'proxy-url',
    'insecure-skip-tls-verify',
    'disable-compression',
  ] as const) {
    if (resolution.cluster[field] !== undefined) cluster[field] = resolution.cluster[field]
  }
  const user: Record<string, unknown> = {}
  if (credential.clientCertificateData) {
    user['client-certificate-data'] = Buffer.from(credential.clientCertificateData).toString('base64')
    user['client-key-data'] = Buffer.from(credential.clientKeyData ?? '').toString('base64')
  }
  if (credential.token) user.token = credential.token
  if (options.as) user.as = options.as
  if (options.as && options.asGroups?.length) user['as-groups'] = options.asGroups
  return emitKubeconfigJson({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{name: TARGET_CONTEXT, cluster}],
    users: [{name: TARGET_CONTEXT, user}],
    contexts: [{name: TARGET_CONTEXT, context: {cluster: TARGET_CONTEXT, user: TARGET_CONTEXT}}],
    'current-context': TARGET_CONTEXT,
    preferences: {},
  })
}
