// The last answer to exactly the same question, given again: the ExecCredential of `cpcred
// credential` (kubectl asks before each of its commands) and the prepared target of `cpcred exec`
// on one profile (CI loops ask it over and over). When nothing the answer depends on has changed and
// the cache still serves the credential, the answer is the same, and giving it again takes a file
// read and a few stats instead of loading cpcred (see docs/performance.md).
//
// What an answer depends on, and how each is checked:
// - the command, its arguments (for exec those before --), the working directory, the user and the
//   environment variables cpcred reads: they make up the key, compared in full;
// - the hub kubeconfig files, the provider file, the profile snapshot and the credential cache
//   entry: their identity, size and times (stat), taken when the answer was made;
// - how long the snapshot (--profile-max-age) and the credential (expiry less the cache margin)
//   are served: the answer expires at the earlier of the two.
// Answers hold credentials: entries of a private cache store (cache-store.ts) in a directory under
// the credential cache. `cpcred cache clear` removes them with the credentials.
import {statSync} from 'node:fs'
import path from 'node:path'
import {isRecord} from '../core/json.js'
import {readCacheEntrySync, writeCacheEntry, type CacheKind} from './cache-store.js'
import type {AnswerQuestion} from '../usecases/ports.js'

// 2: exec's answer holds the target's connection and credential, not a kubeconfig with a token.
// 3: kept by the cache store, as {version, value}.
// 4: exec's credential is the content of its files (a token, a certificate and key), not an ExecCredential.
const VERSION = 4
/** Every environment variable the credential path reads. */
const KEY_ENV = [
  'KUBECONFIG',
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'CPCRED_PROVIDER_FILE',
  // They choose the hub (core/kubeconfig/hub-choice.ts).
  'CPCRED_HUB_CONTEXT',
  'CPCRED_HUB_KUBECONFIG',
  'KUBERNETES_EXEC_INFO',
  // In a pod they decide whether the hub is the in-cluster config, and its namespace.
  'KUBERNETES_SERVICE_HOST',
  'KUBERNETES_SERVICE_PORT',
  'POD_NAMESPACE',
] as const

export interface Answer {
  key: string
  /** Epoch milliseconds from which the answer is no longer given. */
  notAfter: number
  /** Each input file and its signature when the answer was made. */
  files: [string, string][]
  /** credential: the ExecCredential printed; exec: the PreparedTarget, as JSON. */
  payload: string
}

export function answerKey(
  question: AnswerQuestion,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return JSON.stringify({
    version: VERSION,
    command: question.command,
    argv: question.words,
    cwd,
    uid: process.getuid?.() ?? null,
    env: KEY_ENV.map((name) => env[name] ?? null),
  })
}

export function answersDir(credentialsDir: string): string {
  return path.join(credentialsDir, 'answers')
}

const ANSWERS: CacheKind<Answer> = {version: VERSION, isValue: isAnswer}

function isAnswer(value: unknown): value is Answer {
  return (
    isRecord(value) &&
    typeof value.key === 'string' &&
    typeof value.notAfter === 'number' &&
    typeof value.payload === 'string' &&
    Array.isArray(value.files) &&
    value.files.every(
      (entry) =>
        Array.isArray(entry) && entry.length === 2 && entry.every((part) => typeof part === 'string'),
    )
  )
}

/**
 * A file's identity, size and times, or that it is missing: a write, a rename over it or its
 * removal changes it. undefined when it cannot be told (permission denied).
 */
export function fileSignature(file: string): string | undefined {
  try {
    const info = statSync(file, {bigint: true})
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : undefined
  }
}

/** The answer for `key` if it may be given at `now`; never throws. */
export function findAnswer(credentialsDir: string, key: string, now: number): Answer | undefined {
  const answer = readCacheEntrySync(answersDir(credentialsDir), nameOf(key), ANSWERS)
  if (answer?.key !== key || !(now < answer.notAfter)) return undefined
  for (const [file, signature] of answer.files) {
    if (fileSignature(file) !== signature) return undefined
  }
  return answer
}

/**
 * Keeps an answer. `signatures` were taken before the inputs were read, so an input changed
 * meanwhile makes the answer a miss rather than a stale hit. A failure only costs the next run
 * the full path.
 */
export async function keepAnswer(
  credentialsDir: string,
  answer: Omit<Answer, 'files'>,
  signatures: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  const files: [string, string][] = []
  for (const [file, signature] of signatures) {
    if (signature === undefined) return
    files.push([file, signature])
  }
  await writeCacheEntry(answersDir(credentialsDir), nameOf(answer.key), ANSWERS, {...answer, files})
}

/**
 * A short file name for a key (two 32-bit FNV-1a lanes). Not a security boundary: the whole key is
 * stored and compared, so two keys sharing a name only miss.
 */
function nameOf(key: string): string {
  let first = 0x811c9dc5
  let second = 0x050c5d1f
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index)
    first = Math.imul(first ^ code, 0x01000193)
    second = Math.imul(second ^ code, 0x01000193)
  }
  return `${(first >>> 0).toString(16).padStart(8, '0')}${(second >>> 0).toString(16).padStart(8, '0')}`
}
