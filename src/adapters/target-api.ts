// A target cluster reached with a credential for reading (`cpcred get`): cpcred's own REST client
// (kube-client.ts) with the profile's connection, the credential and --as; failures said as
// core/failures.ts says them, of "the target" (the row of the table names which).
import {toClientEndpoint} from '../core/access/connection.js'
import type {TargetApis} from '../usecases/ports.js'
import {KubeClient, staticAuth} from './kube-client.js'
import {translateKubeError} from './kube-errors.js'

export const targetApis: TargetApis = {
  open({cluster, credential, as, asGroups}) {
    const client = new KubeClient(
      toClientEndpoint(cluster),
      staticAuth({
        token: credential.token,
        clientCertPem: credential.clientCertificateData,
        clientKeyPem: credential.clientKeyData,
      }),
      as ? {user: as, groups: asGroups} : {},
    )
    return {
      async get(request, action) {
        try {
          return await client.request('GET', request.path, {query: request.query, accept: request.accept})
        } catch (error) {
          throw translateKubeError(error, action, 'the target', {
            unreachableHint:
              'check that the cluster is up and that its profile names the server it serves on',
          })
        }
      },
      close: () => client.close(),
    }
  },
}
