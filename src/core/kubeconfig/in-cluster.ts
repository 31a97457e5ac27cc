// The hub from inside a pod, as client-go finds it: rest.InClusterConfig (KUBERNETES_SERVICE_HOST and
// _PORT, the projected service-account token, its CA) and clientcmd's fallback to it when no
// kubeconfig says otherwise (DeferredLoadingClientConfig: only when the loaded kubeconfig is empty and
// inClusterClientConfig.Possible()). Pure: the adapter reads the files and hands their contents here.
import path from 'node:path'
import type {MergedKubeconfig} from './merge.js'
import {IN_CLUSTER_PIN} from '../profiles/hub-pin.js'

/** Where the kubelet mounts the pod's service account (rest.InClusterConfig's constants). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'
export const IN_CLUSTER_FILES = {token: 'token', ca: 'ca.crt', namespace: 'namespace'} as const
export const SERVICE_HOST_ENV = 'KUBERNETES_SERVICE_HOST'
export const SERVICE_PORT_ENV = 'KUBERNETES_SERVICE_PORT'
/** The downward-API namespace clientcmd reads before the namespace file. */
export const POD_NAMESPACE_ENV = 'POD_NAMESPACE'
/** The name cpcred gives the in-cluster context and the value that pins it for plugins. */
export const IN_CLUSTER = IN_CLUSTER_PIN

export function inClusterFile(dir: string, file: keyof typeof IN_CLUSTER_FILES): string {
  return path.join(dir, IN_CLUSTER_FILES[file])
}

/**
 * inClusterClientConfig.Possible(): both variables non-empty and the token path a file (not a
 * directory). `tokenIsFile` is what a stat of the token path found.
 */
export function inClusterPossible(env: NodeJS.ProcessEnv, tokenIsFile: boolean): boolean {
  return Boolean(env[SERVICE_HOST_ENV]) && Boolean(env[SERVICE_PORT_ENV]) && tokenIsFile
}

/**
 * Whether clientcmd falls back to in-cluster config: not with --kubeconfig (a file named there is
 * loaded or fails) nor --context (a context that the empty config lacks is an error there too), and
 * only when the kubeconfig files found hold nothing (none exist, or they are empty).
 */
export function fallsBackToInCluster(facts: {
  explicitKubeconfig: boolean
  contextFlag: boolean
  kubeconfigEmpty: boolean
  possible: boolean
}): boolean {
  return !facts.explicitKubeconfig && !facts.contextFlag && facts.kubeconfigEmpty && facts.possible
}

/** A merged kubeconfig that holds nothing clientcmd would use (clientcmd's IsEmptyConfig). */
export function isEmptyKubeconfig(merged: MergedKubeconfig): boolean {
  return (
    merged.clusters.length === 0 &&
    merged.users.length === 0 &&
    merged.contexts.length === 0 &&
    !merged['current-context']
  )
}

/** https://host:port, with an IPv6 host in brackets (net.JoinHostPort). */
export function inClusterServer(env: NodeJS.ProcessEnv): string {
  const host = env[SERVICE_HOST_ENV] ?? ''
  const port = env[SERVICE_PORT_ENV] ?? ''
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`
}

/**
 * The namespace in a pod (DeferredLoadingClientConfig.Namespace with inClusterClientConfig): -n, then
 * POD_NAMESPACE, then the namespace file (trimmed), then "default".
 */
export function inClusterNamespace(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  namespaceFile: string | undefined,
): string {
  return flag || env[POD_NAMESPACE_ENV] || namespaceFile?.trim() || 'default'
}

/** The pod's ServiceAccount, as its token names it. */
export interface PodServiceAccount {
  namespace: string
  name: string
}

const SUBJECT = /^system:serviceaccount:([^:]+):([^:]+)$/

interface TokenClaims {
  sub?: unknown
  exp?: unknown
  'kubernetes.io'?: {namespace?: unknown; serviceaccount?: {name?: unknown; uid?: unknown}}
}

/** The token's claims, not verified (the hub does that); undefined when it is not a JWT. */
function claimsOf(token: string): TokenClaims | undefined {
  const payload = token.trim().split('.')[1]
  if (!payload) return undefined
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    return typeof claims === 'object' && claims !== null ? (claims as TokenClaims) : undefined
  } catch {
    return undefined
  }
}

/**
 * Who the token says the pod is. A projected token carries `kubernetes.io: {namespace,
 * serviceaccount: {name}}`; a legacy one only `sub` (system:serviceaccount:NS:NAME). undefined when
 * the token names no ServiceAccount.
 */
export function serviceAccountOfToken(token: string): PodServiceAccount | undefined {
  const claims = claimsOf(token)
  const k8s = claims?.['kubernetes.io']
  if (typeof k8s?.namespace === 'string' && typeof k8s.serviceaccount?.name === 'string') {
    return {namespace: k8s.namespace, name: k8s.serviceaccount.name}
  }
  const match = typeof claims?.sub === 'string' ? SUBJECT.exec(claims.sub) : null
  return match ? {namespace: match[1]!, name: match[2]!} : undefined
}

/**
 * The UID of the ServiceAccount a projected token was minted for (`kubernetes.io.serviceaccount.uid`),
 * not verified (the hub that answered the TokenRequest vouches for it); undefined when it has none.
 * An identity for cache keys, never shown.
 */
export function serviceAccountUidOfToken(token: string): string | undefined {
  const uid = claimsOf(token)?.['kubernetes.io']?.serviceaccount?.uid
  return typeof uid === 'string' && uid !== '' ? uid : undefined
}

/** When the token expires (ms since the epoch); undefined when it says nothing (legacy tokens). */
export function tokenExpiry(token: string): number | undefined {
  const exp = claimsOf(token)?.exp
  return typeof exp === 'number' ? exp * 1000 : undefined
}

/**
 * The in-cluster config as a kubeconfig, so one client serves both: the server, the CA file when it
 * holds a certificate (client-go logs an unreadable CA and goes on with the system roots) and the
 * token file, which the client re-reads as the kubelet rotates it.
 */
export function inClusterKubeconfig(input: {
  server: string
  caFile: string | undefined
  tokenFile: string
  namespace: string
}): MergedKubeconfig {
  const cluster: Record<string, unknown> = {server: input.server}
  if (input.caFile) cluster['certificate-authority'] = input.caFile
  return {
    clusters: [{name: IN_CLUSTER, cluster}],
    users: [{name: IN_CLUSTER, user: {tokenFile: input.tokenFile}}],
    contexts: [
      {name: IN_CLUSTER, context: {cluster: IN_CLUSTER, user: IN_CLUSTER, namespace: input.namespace}},
    ],
    'current-context': IN_CLUSTER,
    contextSources: {},
  }
}
