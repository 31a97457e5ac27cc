// A profile on the real hub that points at the real spoke, and a provider file whose plugin is
// test/plugins/fake-plugin.mjs returning a hub ServiceAccount token that the spoke accepts.
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {
  applyProfile,
  createNamespace,
  createServiceAccount,
  repoRoot,
  serviceAccountToken,
  tempDir,
  testEnv,
  writeProviderFile,
} from './env.js'

export const fakePlugin = path.join(repoRoot, 'test', 'plugins', 'fake-plugin.mjs')

/** What the tests run on a target to learn whom it takes them for: kubectl's identity check, as JSON. */
export const KUBECTL_WHOAMI = ['kubectl', 'auth', 'whoami', '-o', 'json']

export interface SpokeFixture {
  namespace: string
  profile: ClusterProfile
  dir: string
  providerFile: string
  tokenFile: string
  recordFile: string
  /** The identity the spoke maps the token to. */
  username: string
  hubKubeconfig: string
  /** The hub and spoke it lives on. */
  clusters: Clusters
}

/** A running hub and spoke: the run's shared pair (testEnv()), or a test's own (from up()). */
export type Clusters = Awaited<ReturnType<typeof testEnv>>

export interface SpokeFixtureOptions {
  prefix: string
  providerName?: string
  /** Extra fields for the provider entry (policies) and its execConfig. */
  provider?: Record<string, unknown>
  execConfig?: Record<string, unknown>
  /** Extra extensions on the profile's cluster. */
  extensions?: {name: string; extension: unknown}[]
  pluginEnv?: Record<string, string>
  profileName?: string
  /** Where (default: the run's shared hub and spoke); a test that restarts one needs its own. */
  clusters?: Clusters
}

export async function spokeFixture(options: SpokeFixtureOptions): Promise<SpokeFixture> {
  const clusters = options.clusters ?? (await testEnv())
  const {env, hub} = clusters
  const namespace = await createNamespace(hub, options.prefix)
  await createServiceAccount(hub, namespace, 'deployer')
  const dir = await tempDir(`cpcred-${options.prefix}-`)
  const tokenFile = path.join(dir, 'token')
  await writeFile(
    tokenFile,
    await serviceAccountToken(hub, namespace, 'deployer', [env.spoke.server], 3600),
    {mode: 0o600},
  )
  const recordFile = path.join(dir, 'record.jsonl')
  const providerName = options.providerName ?? 'fake'
  const profile = await applyProfile(hub, {
    metadata: {name: options.profileName ?? 'target', namespace},
    spec: {clusterManager: {name: 'test-manager'}},
    status: {
      accessProviders: [
        {
          name: providerName,
          cluster: {
            server: env.spoke.server,
            'certificate-authority-data': env.spoke.caData,
            extensions: options.extensions,
          },
        },
      ],
    },
  })
  const providerFile = await writeProviderFile(dir, [
    {
      name: providerName,
      execConfig: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: fakePlugin,
        env: Object.entries({
          PLUGIN_TOKEN_FILE: tokenFile,
          PLUGIN_RECORD: recordFile,
          ...options.pluginEnv,
        }).map(([name, value]) => ({name, value})),
        provideClusterInfo: true,
        ...options.execConfig,
      },
      ...options.provider,
    },
  ])
  return {
    namespace,
    profile,
    dir,
    providerFile,
    tokenFile,
    recordFile,
    username: `hub:system:serviceaccount:${namespace}:deployer`,
    hubKubeconfig: env.hub.kubeconfig,
    clusters,
  }
}

/** Another profile of the fixture's spoke, in its namespace and through its provider: one cluster as a fleet. */
export async function anotherSpokeProfile(
  fixture: SpokeFixture,
  name: string,
  labels?: Record<string, string>,
): Promise<ClusterProfile> {
  return applyProfile(fixture.clusters.hub, {
    metadata: {name, namespace: fixture.namespace, labels},
    spec: fixture.profile.spec,
    status: {accessProviders: fixture.profile.status?.accessProviders},
  })
}

export interface PluginRecord {
  argv: string[]
  env: Record<string, string>
  info: {
    apiVersion: string
    kind: string
    spec: {interactive: boolean; cluster?: Record<string, unknown>}
  } | null
  pid: number
}

export async function pluginRecords(fixture: SpokeFixture): Promise<PluginRecord[]> {
  try {
    const text = await readFile(fixture.recordFile, 'utf8')
    return text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PluginRecord)
  } catch {
    return []
  }
}

/** The provider file users are given for the built-in plugins ("command": "cpcred"), unchanged. */
export const documentedProviderFile = path.join(repoRoot, 'docs', 'examples', 'providers.json')

/**
 * A profile of the spoke offering only `token-request`, as docs/flow-token-request.md sets one up:
 * its exec extension (`extension`) names the hub ServiceAccount whose token the spoke accepts, or
 * none (in a pod, the pod's own).
 */
export function tokenRequestProfileOf(
  spoke: {server: string; caData: string},
  metadata: {namespace: string; name: string; labels?: Record<string, string>},
  extension: Record<string, string>,
): ClusterProfile {
  return {
    metadata,
    spec: {clusterManager: {name: 'test-manager'}},
    status: {
      accessProviders: [
        {
          name: 'token-request',
          cluster: {
            server: spoke.server,
            'certificate-authority-data': spoke.caData,
            extensions: [{name: 'client.authentication.k8s.io/exec', extension}],
          },
        },
      ],
    },
  }
}

/** A namespace with the ServiceAccount `deployer` and `tokenRequestProfileOf` it, named `target`. */
export async function tokenRequestProfile(prefix: string): Promise<{namespace: string; username: string}> {
  const {env, hub} = await testEnv()
  const namespace = await createNamespace(hub, prefix)
  await createServiceAccount(hub, namespace, 'deployer')
  await applyProfile(
    hub,
    tokenRequestProfileOf(env.spoke, {namespace, name: 'target'}, {serviceAccount: 'deployer', namespace}),
  )
  return {namespace, username: `hub:system:serviceaccount:${namespace}:deployer`}
}
