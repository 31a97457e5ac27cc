// A hub kubeconfig whose user is a legacy auth-provider (gcp, azure, oidc: kubectl dropped them,
// client-node still computes their header) works through the bundle of client-node the build makes
// (dist/vendor), in a process that cannot import the package itself, as in an npm install.
import assert from 'node:assert/strict'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcred, createNamespace, repoRoot, tempDir, testEnv} from '../helpers/env.js'
import {hubConsumer} from '../helpers/hub-consumer.js'
import {oneUserKubeconfig, type ClusterInfo} from '../testenv/testenv.js'

const noClientNode = path.join(repoRoot, 'test', 'helpers', 'no-client-node.mjs')

describe('a hub kubeconfig with a legacy auth-provider user', () => {
  let namespace: string
  let token: string
  let dir: string
  let hubCluster: ClusterInfo

  before(async () => {
    const {env, hub} = await testEnv()
    namespace = await createNamespace(hub, 'auth-provider')
    await applyProfile(hub, {
      metadata: {name: 'through-the-provider', namespace},
      spec: {clusterManager: {name: 'test-manager'}},
    })
    const reader = await hubConsumer(
      hub,
      namespace,
      'reader',
      [{apiGroups: ['multicluster.x-k8s.io'], resources: ['clusterprofiles'], verbs: ['get', 'list']}],
      namespace,
      {verb: 'list', group: 'multicluster.x-k8s.io', resource: 'clusterprofiles', name: ''},
    )
    token = reader.token
    dir = await tempDir('cpcred-auth-provider-')
    hubCluster = env.hub
  })

  /** A hub kubeconfig whose one user is `provider`. */
  async function kubeconfigFor(provider: {name: string; config: Record<string, string>}): Promise<string> {
    const file = path.join(dir, `${provider.name}.kubeconfig`)
    await writeFile(file, oneUserKubeconfig(hubCluster, {'auth-provider': provider}, namespace), {
      mode: 0o600,
    })
    return file
  }

  async function listsWith(kubeconfig: string): Promise<void> {
    const result = await cpcred(['list', '--kubeconfig', kubeconfig], {
      NODE_OPTIONS: `--import=${noClientNode}`,
    })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^NAME\s/)
    assert.match(result.stdout, /^through-the-provider\s+test-manager\s/m)
    assert.doesNotMatch(result.stderr, /DeprecationWarning/)
    assert.ok(!`${result.stdout}${result.stderr}`.includes(token), 'the token is printed')
  }

  it('gcp: lists the profiles with the token the provider holds, without the client-node package', async () => {
    // A token it holds with an expiry ahead: client-node sends it as it is.
    await listsWith(
      await kubeconfigFor({
        name: 'gcp',
        config: {'access-token': token, expiry: new Date(Date.now() + 3_600_000).toISOString()},
      }),
    )
  })

  it('oidc: lists the profiles with an id-token that has not expired, without the client-node package', async () => {
    // The ServiceAccount token is a JWT whose exp is an hour ahead: client-node's oidc provider
    // sends it without asking the issuer (which is not there) for a new one.
    await listsWith(
      await kubeconfigFor({
        name: 'oidc',
        config: {'client-id': 'cpcred', 'id-token': token, 'idp-issuer-url': 'https://127.0.0.1:9/'},
      }),
    )
  })
})
