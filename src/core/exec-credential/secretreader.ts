// The Cluster Inventory API's secret-reader flow (upstream sigs.k8s.io/cluster-inventory-api
// cmd/secretreader-plugin), as rules: the token of a target is kept on the hub in key "token" of
// Secret <namespace>/<clusterName>, where clusterName comes from the cluster's
// client.authentication.k8s.io/exec extension (spec.cluster.config).
import {CpcredError, UsageError} from '../errors.js'
import {isRecord} from '../json.js'
import {hubRbacHint, type PodHubIdentity} from '../failures.js'
import {EXEC_INFO_ENV} from './protocol.js'
import {
  configString,
  execClusterConfig,
  isObjectName,
  quoted,
  type ExecInfo,
  type HubArgs,
} from './exec-info.js'

export const SECRET_TOKEN_KEY = 'token'
export const CLUSTER_NAME_KEY = 'clusterName'

export interface SecretreaderOptions extends HubArgs {
  verbose: boolean
}

/** The exec info kubectl must have given: without it there is no clusterName and no apiVersion to answer in. */
export function requireExecInfo(info: ExecInfo | undefined): ExecInfo {
  if (info === undefined) {
    throw new UsageError(
      `${EXEC_INFO_ENV} is not set: this is an exec credential plugin, run by kubectl or cpcred`,
      'use it as execConfig.command/args in a provider file, with provideClusterInfo: true',
    )
  }
  return info
}

/** The name of the Secret that holds the target's token: clusterName of spec.cluster.config. */
export function clusterNameFrom(info: ExecInfo): string {
  if (info.cluster === undefined) {
    throw new UsageError(
      `${EXEC_INFO_ENV} has no cluster information, so there is no clusterName to read`,
      'set provideClusterInfo: true in the execConfig of the provider file (or user.exec of the kubeconfig)',
    )
  }
  const clusterName = configString(execClusterConfig(info), CLUSTER_NAME_KEY)
  if (clusterName === undefined) {
    throw new UsageError(
      `no ${CLUSTER_NAME_KEY} in spec.cluster.config for ${info.cluster.server}`,
      `the cluster needs the extension client.authentication.k8s.io/exec with {${CLUSTER_NAME_KEY}: NAME}, NAME being the hub Secret that holds its token`,
    )
  }
  if (!isObjectName(clusterName)) {
    throw new UsageError(
      `${CLUSTER_NAME_KEY} ${quoted(clusterName)} in spec.cluster.config is not a valid Secret name`,
    )
  }
  return clusterName
}

export interface SecretRef {
  namespace: string
  name: string
}

interface Secret {
  data?: Record<string, string> | null
}

/**
 * Key "token" of the Secret, decoded. Upstream returns it verbatim; surrounding whitespace is dropped here,
 * since a token file stored with `kubectl create secret --from-file` often ends with a newline that would
 * make an invalid Authorization header.
 */
export function tokenFromSecret(secret: Secret, ref: SecretRef): string {
  const data = isRecord(secret.data) ? secret.data : {}
  const encoded = data[SECRET_TOKEN_KEY]
  const where = `Secret ${ref.namespace}/${ref.name} on the hub`
  if (typeof encoded !== 'string' || encoded === '') {
    const keys = Object.keys(data)
    throw new CpcredError(
      typeof encoded === 'string'
        ? `${where} has an empty "${SECRET_TOKEN_KEY}" key`
        : `${where} has no "${SECRET_TOKEN_KEY}" key (${keys.length ? `its keys: ${keys.map(quoted).join(', ')}` : 'it has no data'})`,
      {hint: `store the target's bearer token under data.${SECRET_TOKEN_KEY} of that Secret`},
    )
  }
  const token = Buffer.from(encoded, 'base64').toString('utf8').trim()
  if (token === '') throw new CpcredError(`${where} has a blank "${SECRET_TOKEN_KEY}" key`)
  return token
}

export function secretForbiddenHint(ref: SecretRef, pod: PodHubIdentity | undefined): string {
  return hubRbacHint(
    `RBAC verb "get" on secrets with resourceNames ["${ref.name}"] in namespace "${ref.namespace}"`,
    pod,
    '; nothing more',
  )
}

/** What to do when there is no such Secret. */
export function missingSecretHint(): string {
  return (
    `the hub administrator keeps the target's token in Secret <namespace>/<${CLUSTER_NAME_KEY}>; check ` +
    `${CLUSTER_NAME_KEY} in the profile and the namespace (--namespace, else the hub context's, else "default")`
  )
}
