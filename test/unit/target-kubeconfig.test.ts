import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {EXEC_API_V1} from '../../src/core/access/exec-config.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {resolveAccess} from '../../src/core/access/resolve-access.js'
import {
  fileRereadSeconds,
  renderTargetKubeconfig,
  targetConnection,
  targetCredential,
} from '../../src/core/kubeconfig/target.js'

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
  it('has a user who reads the credential from files, so kubectl re-reads them and runs no plugin', () => {
    const connection = targetConnection(resolveAccess(profile, providers), {as: 'alice', asGroups: ['ops']})
    const document = JSON.parse(
      renderTargetKubeconfig(connection, {
        tokenFile: '/run/user/1/cpcred-1/exec-1-abc/token-1',
        certificateFile: '/run/user/1/cpcred-1/exec-1-abc/certificate-2',
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
    // No exec entry: kubectl's credential plugin policy (kuberc DenyAll, Allowlist) has nothing to refuse.
    assert.deepEqual(document.users[0]!.user, {
      tokenFile: '/run/user/1/cpcred-1/exec-1-abc/token-1',
      // One file for both: one rename renews the pair.
      'client-certificate': '/run/user/1/cpcred-1/exec-1-abc/certificate-2',
      'client-key': '/run/user/1/cpcred-1/exec-1-abc/certificate-2',
      as: 'alice',
      'as-groups': ['ops'],
    })
    assert.equal(document['current-context'], 'cpcred-target')
  })

  it('names only the files a token credential has, and never holds the credential itself', () => {
    const text = renderTargetKubeconfig(targetConnection(resolveAccess(profile, providers)), {
      tokenFile: '/tmp/token-1',
    })
    const user = (JSON.parse(text) as {users: {user: Record<string, unknown>}[]}).users[0]!.user
    assert.deepEqual(user, {tokenFile: '/tmp/token-1'})
    assert.doesNotMatch(text, /"token"|client-key-data|client-certificate-data|exec/)
  })
})

describe("what exec's credential files hold", () => {
  it('is the bare token, and the certificate chain followed by its key in one PEM', () => {
    const chain =
      '-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nB\n-----END CERTIFICATE-----'
    const key = '-----BEGIN EC PRIVATE KEY-----\nK\n-----END EC PRIVATE KEY-----\n'
    assert.deepEqual(targetCredential({token: 't0k'}), {token: 't0k'})
    assert.deepEqual(targetCredential({clientCertificateData: chain, clientKeyData: key}), {
      certificate: `${chain}\n${key}`,
    })
    // A certificate without its key is no credential for a file (the plugin output check refuses it first).
    assert.deepEqual(targetCredential({token: 't', clientCertificateData: chain}), {token: 't'})
  })

  it('is renewed early enough that client-go has re-read it before the old credential expires', () => {
    // A token file is re-read after 50 s, a certificate file by a 5-minute poll.
    assert.ok(fileRereadSeconds({token: 't'}) >= 50)
    assert.ok(fileRereadSeconds({certificate: 'pem'}) >= 300)
    assert.ok(fileRereadSeconds({token: 't', certificate: 'pem'}) >= 300)
  })
})
