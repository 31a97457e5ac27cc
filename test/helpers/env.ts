// Access to the real hub and spoke that test/run.ts started for this test run.
import {execFile} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {mkdtempSync} from 'node:fs'
import {mkdtemp, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {kubeCall, type Connection} from '../testenv/http.js'
import {adminConnection, readEnv, requestServiceAccountToken, type TestEnv} from '../testenv/testenv.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const cpcredBin = path.join(repoRoot, 'bin', 'run.js')

let cached: Promise<{env: TestEnv; hub: Connection; spoke: Connection}> | undefined

/** The running environment; fails clearly when the tests were not started through `npm test`. */
export function testEnv(): Promise<{env: TestEnv; hub: Connection; spoke: Connection}> {
  cached ??= (async () => {
    const dir = process.env.CPCRED_TESTENV
    const env = dir ? await readEnv(dir) : undefined
    if (!env) throw new Error('no test environment: run integration tests through `npm test` (test/run.ts)')
    return {env, hub: await adminConnection(env.hub), spoke: await adminConnection(env.spoke)}
  })()
  return cached
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`
}

/** Creates a namespace with a unique name (namespaces are never deleted: there is no controller). */
export async function createNamespace(
  connection: Connection,
  prefix: string,
  labels: Record<string, string> = {},
): Promise<string> {
  const name = uniqueName(prefix)
  await kubeCall(connection, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name, labels},
  })
  return name
}

const profilesPath = (namespace: string) =>
  `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles`

/** Creates a profile and then writes its status through the status subresource, as a manager would. */
export async function applyProfile(hub: Connection, profile: ClusterProfile): Promise<ClusterProfile> {
  const namespace = profile.metadata.namespace!
  const {status, ...withoutStatus} = profile
  const created = await kubeCall<ClusterProfile>(hub, 'POST', profilesPath(namespace), {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    ...withoutStatus,
  })
  if (!status) return created
  return kubeCall<ClusterProfile>(hub, 'PUT', `${profilesPath(namespace)}/${profile.metadata.name}/status`, {
    ...created,
    status,
  })
}

export async function getProfile(hub: Connection, namespace: string, name: string): Promise<ClusterProfile> {
  return kubeCall<ClusterProfile>(hub, 'GET', `${profilesPath(namespace)}/${name}`)
}

export async function createServiceAccount(hub: Connection, namespace: string, name: string): Promise<void> {
  await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {name},
  })
}

/** A hub ServiceAccount token; the default audience is the hub's own API. */
export async function serviceAccountToken(
  hub: Connection,
  namespace: string,
  name: string,
  audiences: string[] = [],
  seconds = 3600,
) {
  return requestServiceAccountToken(hub, namespace, name, audiences, seconds)
}

export async function tempDir(prefix = 'cpcred-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix))
}

/** Writes a kubeconfig that reaches `server` with a bearer token; returns its path. */
export async function tokenKubeconfig(
  dir: string,
  name: string,
  server: string,
  caData: string,
  token: string,
  namespace = 'default',
) {
  const file = path.join(dir, `${name}.kubeconfig`)
  await writeFile(
    file,
    YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{name, cluster: {server, 'certificate-authority-data': caData}}],
      users: [{name, user: {token}}],
      contexts: [{name, context: {cluster: name, user: name, namespace}}],
      'current-context': name,
    }),
    {mode: 0o600},
  )
  return file
}

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a program to completion without a shell; never throws for a non-zero exit. */
export function runProgram(
  file: string,
  args: string[],
  options: {env?: NodeJS.ProcessEnv; cwd?: string} = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {env: options.env ?? process.env, cwd: options.cwd, maxBuffer: 256 * 1024 * 1024},
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({code, stdout, stderr})
      },
    )
  })
}

// One private home per test process: cpcred never reads the developer's kubeconfig, provider
// file or credential cache.
const isolatedHome = mkdtempSync(path.join(os.tmpdir(), 'cpcred-home-'))

export const isolatedEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: isolatedHome,
  XDG_CONFIG_HOME: path.join(isolatedHome, '.config'),
  XDG_CACHE_HOME: path.join(isolatedHome, '.cache'),
  NO_COLOR: '1',
}

/** Runs the built cpcred binary, isolated from the developer's own kubeconfig and settings. */
export function cpcred(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return runProgram(process.execPath, [cpcredBin, ...args], {env: {...isolatedEnv, ...env}})
}

/** Writes a provider file (upstream JSON format) and returns its path. */
export async function writeProviderFile(dir: string, providers: unknown[]): Promise<string> {
  const file = path.join(dir, 'providers.json')
  await writeFile(file, JSON.stringify({providers}, null, 2), {mode: 0o600})
  return file
}
