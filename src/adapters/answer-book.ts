// The answers of `credential` and `exec` (src/adapters/credential-answers.ts), as the use cases see
// them: begun before anything is read (the hub kubeconfig files and the provider file are signed
// then), kept once the run knows the snapshot and the cache entry the answer depends on too.
import os from 'node:os'
import {answerKey, fileSignature, keepAnswer} from './credential-answers.js'
import {providerFilePath} from './providers.js'
import {savedHubFile, savedHubKubeconfigSync} from './hub-choice.js'
import {kubeconfigPaths} from '../core/kubeconfig/merge.js'
import {inClusterFile, SERVICE_ACCOUNT_DIR, SERVICE_HOST_ENV} from '../core/kubeconfig/in-cluster.js'
import type {AnswerBook, CredentialStore} from '../usecases/ports.js'

export function answerBook(store: Pick<CredentialStore, 'dir' | 'entryPath'>, env = process.env): AnswerBook {
  return {
    begin(question, inputs) {
      const files = [
        ...kubeconfigPaths(inputs.kubeconfig, env.KUBECONFIG, os.homedir()).paths,
        // The hub cpcred hub use keeps, and the files it or CPCRED_HUB_KUBECONFIG may name.
        savedHubFile(env),
        ...(inputs.kubeconfig ? [] : [savedHubKubeconfigSync(env)].filter((file) => file !== undefined)),
        ...(env.CPCRED_HUB_KUBECONFIG ? kubeconfigPaths(undefined, env.CPCRED_HUB_KUBECONFIG, '').paths : []),
        providerFilePath(inputs.providers, env),
        // In a pod the hub may be the in-cluster config: who the token names and the namespace file.
        ...(env[SERVICE_HOST_ENV]
          ? [inClusterFile(SERVICE_ACCOUNT_DIR, 'token'), inClusterFile(SERVICE_ACCOUNT_DIR, 'namespace')]
          : []),
      ]
      const signatures = new Map(files.map((file) => [file, fileSignature(file)]))
      const key = answerKey(question, env, process.cwd())
      return {
        keep(payload, from) {
          // It expires when the snapshot or the cache entry would no longer be served.
          const entryFile = store.entryPath(from.cacheKey)
          for (const file of [from.snapshot.file, entryFile]) signatures.set(file, fileSignature(file))
          return keepAnswer(
            store.dir,
            {
              key,
              payload,
              notAfter: Math.min(from.snapshot.fetchedAt + from.profileMaxAgeMs, from.cachedUntil.getTime()),
            },
            signatures,
          )
        },
      }
    },
  }
}
