// The files an answer of `credential` or `exec` depends on, signed before they are read
// (src/adapters/credential-answers.ts), and keeping the answer once the run knows the rest.
import os from 'node:os'
import {fileSignature, keepAnswer, type Answer} from '../adapters/credential-answers.js'
import {providerFilePath, type ProviderSelection} from '../adapters/providers.js'
import type {Snapshot} from '../adapters/profile-snapshots.js'
import {kubeconfigPaths} from '../core/kubeconfig/merge.js'

export type Signatures = Map<string, string | undefined>

/** The hub kubeconfig files and the provider file, signed now, before they are read. */
export function signInputs(kubeconfigFlag: string | undefined, providers: ProviderSelection): Signatures {
  const files = [
    ...kubeconfigPaths(kubeconfigFlag, process.env.KUBECONFIG, os.homedir()).paths,
    providerFilePath(providers),
  ]
  return new Map(files.map((file) => [file, fileSignature(file)]))
}

/**
 * Keeps the answer, adding the snapshot and the cache entry it came from; it expires when either
 * would no longer be served.
 */
export function keepWith(
  signatures: Signatures,
  answer: Pick<Answer, 'key' | 'payload'>,
  from: {
    credentialsDir: string
    entryFile: string
    cachedUntil: Date
    snapshot: Snapshot
    profileMaxAgeMs: number
  },
): Promise<void> {
  for (const file of [from.snapshot.file, from.entryFile]) signatures.set(file, fileSignature(file))
  return keepAnswer(
    from.credentialsDir,
    {
      ...answer,
      notAfter: Math.min(from.snapshot.fetchedAt + from.profileMaxAgeMs, from.cachedUntil.getTime()),
    },
    signatures,
  )
}
