// A target cluster reached with a credential for reading (`cpcred get`): cpcred's own REST client
// (kube-client.ts) with the profile's connection, the credential and --as; failures said as
// core/failures.ts says them, of "the target" (the row of the table names which).
import {toClientEndpoint} from '../core/access/connection.js'
import type {TargetApis} from '../usecases/ports.js'
import {watchObjects} from './hub-watch.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {KubeClient, staticAuth, type AuthSource, type Credentials} from './kube-client.js'
import {translateKubeError, type TranslateOptions} from './kube-errors.js'

const UNREACHABLE_HINT = 'check that the cluster is up and that its profile names the server it serves on'

export const targetApis: TargetApis = {
  open({cluster, credential, renew, as, asGroups}) {
    const client = new KubeClient(
      toClientEndpoint(cluster),
      renewableAuth(credential, renew),
      as ? {user: as, groups: asGroups} : {},
    )
    const translate = (error: unknown, action: string, options?: TranslateOptions) =>
      translateKubeError(error, action, 'the target', {unreachableHint: UNREACHABLE_HINT, ...options})
    return {
      async get(request, action) {
        try {
          return await client.request('GET', request.path, {query: request.query, accept: request.accept})
        } catch (error) {
          throw translate(error, action)
        }
      },
      // As kubectl get -w asks: the list's query and Accept, from its resourceVersion, no bookmarks.
      watch: (request, action, onEvent, signal) =>
        watchObjects(
          {client, translate},
          {
            path: request.path,
            resourceVersion: request.resourceVersion,
            query: request.query,
            accept: request.accept,
            bookmarks: false,
            action,
          },
          (type, object) => onEvent({type, object}),
          signal,
        ),
      close: () => client.close(),
    }
  },
}

/** The credential in use; after a 401, the one `renew` gives (kube-client asks on a 401, once per request). */
function renewableAuth(credential: Credential, renew: (() => Promise<Credential>) | undefined): AuthSource {
  if (renew === undefined) return staticAuth(credentialsOf(credential))
  let current = Promise.resolve(credential)
  return {
    refreshable: true,
    async credentials(refresh) {
      if (refresh) current = renew()
      return credentialsOf(await current)
    },
  }
}

const credentialsOf = (credential: Credential): Credentials => ({
  token: credential.token,
  clientCertPem: credential.clientCertificateData,
  clientKeyPem: credential.clientKeyData,
})
