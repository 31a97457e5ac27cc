// What `cpcred version` reports: the version, commit and build date stamped into this copy when it
// was packed (dist/build-info.json, written by scripts/stamp.ts; a checkout has none, so "unknown"),
// the Node running it, where its documentation lies, and the kubectl found on PATH.
import {execFile} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {findExecutable} from './executables.js'

export interface BuildInfo {
  version: string
  commit: string
  buildDate: string
  node: string
  /** The package's folder, and its docs/ when shipped (hints cite docs/… relative to it). */
  packageDir: string
  docs?: string
  kubectl: {path?: string; version?: string; problem?: string}
}

/** kubectl is asked once, briefly: a hung or broken kubectl never holds `cpcred version` up. */
const KUBECTL_TIMEOUT_MS = 3000

// The package root from this module: dist/adapters/build-info.js or a dist/fast bundle (two below it).
const packageDir = () => fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')

export async function readBuildInfo(env: NodeJS.ProcessEnv = process.env): Promise<BuildInfo> {
  const root = packageDir()
  const pjson = readJson(path.join(root, 'package.json'))
  const stamp = readJson(path.join(root, 'dist', 'build-info.json'))
  const docs = path.join(root, 'docs')
  return {
    version: text(stamp.version) ?? text(pjson.version) ?? 'unknown',
    commit: text(stamp.commit) ?? 'unknown',
    buildDate: text(stamp.buildDate) ?? 'unknown',
    node: process.version,
    packageDir: root,
    ...(existsSync(docs) ? {docs} : {}),
    kubectl: await kubectlOnPath(env),
  }
}

async function kubectlOnPath(env: NodeJS.ProcessEnv): Promise<BuildInfo['kubectl']> {
  const found = await findExecutable('kubectl', env.PATH)
  if (found.kind !== 'found') return {problem: 'not found on PATH'}
  return new Promise((resolve) => {
    try {
      execFile(
        found.path,
        ['version', '--client', '-o', 'json'],
        {timeout: KUBECTL_TIMEOUT_MS, env, maxBuffer: 1024 * 1024},
        (error, stdout) => {
          const version = clientVersion(stdout)
          if (version) resolve({path: found.path, version})
          else if (error?.killed)
            resolve({path: found.path, problem: `no answer in ${KUBECTL_TIMEOUT_MS / 1000}s`})
          else resolve({path: found.path, problem: 'did not say its version'})
        },
      )
    } catch (error) {
      // spawn throws some start failures (E2BIG, EACCES on some systems) instead of calling back.
      resolve({
        path: found.path,
        problem: `cannot start: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      })
    }
  })
}

function clientVersion(stdout: string): string | undefined {
  try {
    const parsed = JSON.parse(stdout) as {clientVersion?: {gitVersion?: unknown}}
    return text(parsed.clientVersion?.gitVersion)
  } catch {
    return undefined
  }
}

function readJson(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined
