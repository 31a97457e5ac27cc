// Who a credential makes you on a profile's cluster, and what it may do there: reviews sent to the
// target with the credential (SelfSubjectReview, SelfSubjectRulesReview, SelfSubjectAccessReview).
import {toClientEndpoint, type ClusterConnection} from '../core/access/connection.js'
import type {AccessStatus, RulesStatus} from '../core/doctor/target-access.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import type {Resolution} from '../core/access/resolve-access.js'
import type {SelfSubjectReview, TargetPort} from '../usecases/ports.js'
import {KubeClient, staticAuth, type Endpoint} from './kube-client.js'
import {translateKubeError} from './kube-errors.js'

/** How a profile's cluster is reached, as a KubeClient endpoint. */
export function targetEndpoint(cluster: ClusterConnection): Endpoint {
  return toClientEndpoint(cluster)
}

/** One review POSTed to the target with the credential; errors say what was asked, and where. */
async function review<T>(
  resolution: Resolution,
  credential: Credential,
  request: {path: string; kind: string; spec?: unknown; what: string; notServedHint: string},
): Promise<T> {
  const cluster = resolution.cluster
  const client = new KubeClient(
    targetEndpoint(cluster),
    staticAuth({
      token: credential.token,
      clientCertPem: credential.clientCertificateData,
      clientKeyPem: credential.clientKeyData,
    }),
  )
  const apiVersion = request.path.split('/').slice(2, 4).join('/')
  try {
    return await client.request<T>('POST', request.path, {
      body: {apiVersion, kind: request.kind, ...(request.spec === undefined ? {} : {spec: request.spec})},
    })
  } catch (error) {
    throw translateKubeError(
      error,
      `create a ${request.kind}`,
      `the target of ${resolution.profile} (${cluster.server})`,
      {
        notServed: {what: request.what, hint: request.notServedHint},
      },
    )
  } finally {
    await client.close()
  }
}

export const targetPort: TargetPort = {
  async endpoint(cluster) {
    return targetEndpoint(cluster)
  },
  reviewSelf: (resolution, credential) =>
    review<SelfSubjectReview>(resolution, credential, {
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      kind: 'SelfSubjectReview',
      what: 'authentication.k8s.io/v1 selfsubjectreviews',
      notServedHint: 'the target runs a Kubernetes older than 1.28',
    }),
  async reviewRules(resolution, credential, namespace) {
    const answer = await review<{status?: RulesStatus}>(resolution, credential, {
      path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
      kind: 'SelfSubjectRulesReview',
      spec: {namespace},
      what: 'authorization.k8s.io/v1 selfsubjectrulesreviews',
      notServedHint: 'the target does not serve the authorization API',
    })
    return answer.status ?? {}
  },
  async reviewAccess(resolution, credential, question) {
    const answer = await review<{status?: AccessStatus}>(resolution, credential, {
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: question.namespace,
          verb: question.verb,
          group: question.group,
          resource: question.resource,
          ...(question.subresource === undefined ? {} : {subresource: question.subresource}),
        },
      },
      what: 'authorization.k8s.io/v1 selfsubjectaccessreviews',
      notServedHint: 'the target does not serve the authorization API',
    })
    return answer.status ?? {allowed: false}
  },
}
