import assert from 'node:assert/strict'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {cpcred, serviceAccountToken, tempDir, testEnv, writeProviderFile} from '../helpers/env.js'
import {fakePlugin, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

describe('cpcred whoami against the real spoke', () => {
  let fixture: SpokeFixture
  before(async () => {
    fixture = await spokeFixture({prefix: 'whoami'})
  })

  it('prints the identity the credential maps to, as kubectl auth whoami does', async () => {
    const result = await cpcred(
      ['whoami', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^ATTRIBUTE\s+VALUE$/)
    assert.match(lines[1]!, new RegExp(`^Username\\s+${fixture.username}$`))
    assert.match(lines[2]!, /^Groups\s+\[system:authenticated\]$/)
  })

  it('prints the SelfSubjectReview with -o json', async () => {
    const result = await cpcred(
      ['whoami', 'target', '-n', fixture.namespace, '--provider-file', fixture.providerFile, '-o', 'json'],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(result.code, 0, result.stderr)
    const review = JSON.parse(result.stdout)
    assert.equal(review.kind, 'SelfSubjectReview')
    assert.equal(review.status.userInfo.username, fixture.username)
  })

  it('reports a target that rejects the credential as denied (exit 4)', async () => {
    const {hub} = await testEnv()
    const dir = await tempDir()
    // A token for another audience: the spoke does not accept it.
    const tokenFile = path.join(dir, 'token')
    await writeFile(
      tokenFile,
      await serviceAccountToken(hub, fixture.namespace, 'deployer', ['https://elsewhere.example'], 600),
      {mode: 0o600},
    )
    const file = await writeProviderFile(dir, [
      {
        name: 'fake',
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: fakePlugin,
          env: [{name: 'PLUGIN_TOKEN_FILE', value: tokenFile}],
        },
      },
    ])
    const result = await cpcred(
      ['whoami', `${fixture.namespace}/target`, '--provider-file', file, '--no-cache'],
      {KUBECONFIG: fixture.hubKubeconfig},
    )
    assert.equal(result.code, 4)
    assert.match(
      result.stderr,
      /^fake-plugin: issued a token\nerror: the target of .*\/target \(https:\/\/127\.0\.0\.1:\d+\) rejected the credentials \(401 Unauthorized\)\n/,
    )
  })
})
