// Who a credential makes you on a profile's cluster: a SelfSubjectReview sent to the target.
import {toClientEndpoint, type ClusterConnection} from '../core/access/connection.js'
import type {SelfSubjectReview, TargetPort} from '../usecases/ports.js'
import {KubeClient, staticAuth, type Endpoint} from './kube-client.js'
import {translateKubeError} from './kube-errors.js'

/** How a profile's cluster is reached, as a KubeClient endpoint. */
export function targetEndpoint(cluster: ClusterConnection): Endpoint {
  return toClientEndpoint(cluster)
}

export const targetPort: TargetPort = {
  async endpoint(cluster) {
    return targetEndpoint(cluster)
  },
  async reviewSelf(resolution, credential) {
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
  },
}
