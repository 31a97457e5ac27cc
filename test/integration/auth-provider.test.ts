// A hub kubeconfig whose user is a legacy auth-provider (gcp, azure, oidc: kubectl dropped them,
// client-node still computes their header) works through the bundle of client-node the build makes
// (dist/vendor), in a process that cannot import the package itself, as in an npm install.
import assert from 'node:assert/strict'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {applyProfile, cpcred, createNamespace, repoRoot, tempDir, testEnv} from '../helpers/env.js'
import {hubConsumer} from '../helpers/hub-consumer.js'

const noClientNode = path.join(repoRoot, 'test', 'helpers', 'no-client-node.mjs')

describe('a hub kubeconfig with a legacy auth-provider user', () => {
  let namespace: string
  let kubeconfig: string
  let token: string

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
    // gcp's provider with a token it holds and an expiry ahead: client-node sends it as it is.
    kubeconfig = path.join(await tempDir('cpcred-auth-provider-'), 'hub.kubeconfig')
    await writeFile(
      kubeconfig,
      YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {name: 'hub', cluster: {server: env.hub.server, 'certificate-authority-data': env.hub.caData}},
        ],
        users: [
          {
            name: 'legacy',
            user: {
              'auth-provider': {
                name: 'gcp',
                config: {'access-token': token, expiry: new Date(Date.now() + 3_600_000).toISOString()},
              },
            },
          },
        ],
        contexts: [{name: 'hub', context: {cluster: 'hub', user: 'legacy', namespace}}],
        'current-context': 'hub',
      }),
      {mode: 0o600},
    )
  })

  it('lists the profiles with the header the provider computes, without the client-node package', async () => {
    const result = await cpcred(['list', '--kubeconfig', kubeconfig], {
      NODE_OPTIONS: `--import=${noClientNode}`,
    })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^NAME\s/)
    assert.match(result.stdout, /^through-the-provider\s+test-manager\s/m)
    assert.doesNotMatch(result.stderr, /DeprecationWarning/)
    assert.ok(!`${result.stdout}${result.stderr}`.includes(token), 'the token is printed')
  })
})
