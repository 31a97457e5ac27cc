// `cpcred whoami`: who the credential makes you on the target (SelfSubjectReview).
import {toClientEndpoint, type ClusterConnection} from '../core/access/connection.js'
import type {Resolution} from '../core/access/resolve-access.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {kubectlTable, type Cells} from '../core/text/format.js'
import {KubeClient, staticAuth, type Endpoint} from '../adapters/kube-client.js'
import {translateKubeError} from '../adapters/kube-errors.js'

export interface SelfSubjectReview {
  apiVersion: string
  kind: string
  status: {userInfo: {username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]>}}
}

/** How a profile's cluster is reached, as a KubeClient endpoint. */
export function targetEndpoint(cluster: ClusterConnection): Endpoint {
  return toClientEndpoint(cluster)
}

export async function reviewSelf(resolution: Resolution, credential: Credential): Promise<SelfSubjectReview> {
  const cluster = resolution.cluster
  const client = new KubeClient(
    targetEndpoint(cluster),
    staticAuth({
      token: credential.token,
      clientCertPem: credential.clientCertificateData,
      clientKeyPem: credential.clientKeyData,
    }),
  )
  try {
    return await client.request<SelfSubjectReview>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      {
        body: {apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview'},
      },
    )
  } catch (error) {
    throw translateKubeError(
      error,
      'create a SelfSubjectReview',
      `the target of ${resolution.profile} (${cluster.server})`,
      {
        notServed: {
          what: 'authentication.k8s.io/v1 selfsubjectreviews',
          hint: 'the target runs a Kubernetes older than 1.28',
        },
      },
    )
  } finally {
    await client.close()
  }
}

/** The table kubectl auth whoami prints. */
export function renderSelf(review: SelfSubjectReview): Cells {
  const info = review.status.userInfo
  const rows: string[][] = [['Username', info.username ?? '']]
  if (info.uid) rows.push(['UID', info.uid])
  if (info.groups?.length) rows.push(['Groups', `[${info.groups.join(' ')}]`])
  for (const [key, values] of Object.entries(info.extra ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    rows.push([`Extra: ${key}`, `[${values.join(' ')}]`])
  }
  return kubectlTable(['ATTRIBUTE', 'VALUE'], rows)
}
