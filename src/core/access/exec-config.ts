// The client-go exec plugin configuration (kubeconfig `users[].user.exec`, clientcmd ExecConfig),
// with kubeconfig field names, as it appears in provider files and in kubeconfigs cpcred writes.

export const EXEC_API_V1 = 'client.authentication.k8s.io/v1'
export const EXEC_API_V1BETA1 = 'client.authentication.k8s.io/v1beta1'
export const EXEC_API_VERSIONS = [EXEC_API_V1, EXEC_API_V1BETA1] as const
export type ExecApiVersion = (typeof EXEC_API_VERSIONS)[number]

export const INTERACTIVE_MODES = ['Never', 'IfAvailable', 'Always'] as const
export type InteractiveMode = (typeof INTERACTIVE_MODES)[number]

export interface ExecEnvVar {
  name: string
  value: string
}

export interface ExecConfig {
  apiVersion: ExecApiVersion
  command: string
  args?: string[]
  env?: ExecEnvVar[]
  provideClusterInfo?: boolean
  /** Required in v1; v1beta1 defaults to IfAvailable. */
  interactiveMode?: InteractiveMode
  installHint?: string
}
