// The kubeconfig v1 document cpcred writes, as kubectl prints it: every object's keys in the order
// `kubectl config view` prints them (alphabetical, as sigs.k8s.io/yaml emits them), and client-go's
// v1 omission rules (clientcmd/api/v1 types.go). The cluster entry is the connection model's mapping.
import type {NamedExtension} from '../profiles/cluster-profile.js'
import type {KubeconfigCluster} from '../access/connection.js'
import type {ExecApiVersion, ExecEnvVar, InteractiveMode} from '../access/exec-config.js'

export type {KubeconfigCluster} from '../access/connection.js'

export interface KubeconfigExec {
  apiVersion: ExecApiVersion
  args: string[]
  command: string
  env: ExecEnvVar[]
  installHint?: string
  interactiveMode?: InteractiveMode
  provideClusterInfo: boolean
}

export interface KubeconfigUser {
  as?: string
  'as-groups'?: string[]
  exec: KubeconfigExec
  extensions?: NamedExtension[]
}

export interface KubeconfigContext {
  cluster: string
  extensions?: NamedExtension[]
  user: string
}

/** A kubeconfig v1 Config, keys in kubectl's order. */
export interface KubeconfigDocument {
  apiVersion: 'v1'
  clusters: {cluster: KubeconfigCluster; name: string}[]
  contexts: {context: KubeconfigContext; name: string}[]
  'current-context': string
  kind: 'Config'
  /** Kept as a user's file has it; kubectl since 1.37 leaves an empty one out (omitzero). */
  preferences?: Record<string, unknown>
  users: {name: string; user: KubeconfigUser}[]
}

/** kubectl's skeleton of a kubeconfig, keys in the order it prints them (v1.37: no empty preferences). */
export function emptyKubeconfig(): KubeconfigDocument {
  return {
    apiVersion: 'v1',
    clusters: [],
    contexts: [],
    'current-context': '',
    kind: 'Config',
    users: [],
  }
}

/** The named lists of a kubeconfig, and what each holds. */
export const KUBECONFIG_LISTS = [
  {key: 'clusters', kind: 'cluster'},
  {key: 'users', kind: 'user'},
  {key: 'contexts', kind: 'context'},
] as const

export type KubeconfigListKey = (typeof KUBECONFIG_LISTS)[number]['key']
