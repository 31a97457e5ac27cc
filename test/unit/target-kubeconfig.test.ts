import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {EXEC_API_V1} from '../../src/core/access/exec-config.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {resolveAccess} from '../../src/core/access/resolve-access.js'
import {renderTargetKubeconfig, targetConnection, TARGET_EXEC_API} from '../../src/core/kubeconfig/target.js'

const profile = {
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ClusterProfile',
  metadata: {name: 'eu', namespace: 'fleet'},
  spec: {clusterManager: {name: 'm'}},
  status: {
    accessProviders: [
      {
        name: 'token',
        cluster: {
          server: 'https://eu.example:6443',
          'tls-server-name': 'eu',
          'proxy-url': 'http://proxy:3128',
        },
      },
    ],
  },
}
const providers: Provider[] = [{name: 'token', execConfig: {apiVersion: EXEC_API_V1, command: '/bin/p'}}]

describe("exec's temporary kubeconfig", () => {
  it('has a user whose exec entry reads the credential file, so kubectl can refresh it', () => {
    const connection = targetConnection(resolveAccess(profile, providers), {as: 'alice', asGroups: ['ops']})
    const document = JSON.parse(
      renderTargetKubeconfig(connection, {
        reader: '/bin/cat',
        file: '/run/user/1/cpcred-1/exec-1-abc/credential-1',
      }),
    ) as {
      clusters: {cluster: Record<string, unknown>}[]
      users: {user: Record<string, unknown>}[]
      'current-context': string
    }
    assert.deepEqual(document.clusters[0]!.cluster, {
      server: 'https://eu.example:6443',
      'tls-server-name': 'eu',
      'proxy-url': 'http://proxy:3128',
    })
    assert.deepEqual(document.users[0]!.user, {
      exec: {
        apiVersion: TARGET_EXEC_API,
        command: '/bin/cat',
        args: ['/run/user/1/cpcred-1/exec-1-abc/credential-1'],
        env: null,
        interactiveMode: 'Never',
        provideClusterInfo: false,
      },
      as: 'alice',
      'as-groups': ['ops'],
    })
    assert.equal(document['current-context'], 'cpcred-target')
  })

  it('never holds the credential itself, in the file or the exec entry', () => {
    const text = renderTargetKubeconfig(targetConnection(resolveAccess(profile, providers)), {
      reader: '/bin/cat',
      file: '/tmp/credential-1',
    })
    assert.doesNotMatch(text, /token|client-key|client-certificate/)
  })
})
