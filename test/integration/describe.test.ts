import assert from 'node:assert/strict'
import {before, describe, it} from 'node:test'
import {cpcred, testEnv} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

describe('cpcred describe against the real hub', () => {
  let fixture: SpokeFixture

  before(async () => {
    fixture = await spokeFixture({
      prefix: 'describe',
      extensions: [
        {name: 'client.authentication.k8s.io/exec', extension: {clusterName: 'target'}},
        {name: 'clusterprofiles.multicluster.x-k8s.io/exec/additional-envs', extension: {FAKE_REGION: 'eu'}},
      ],
    })
  })

  const describeProfile = (...args: string[]) =>
    cpcred(['describe', ...args, '--provider-file', fixture.providerFile], {
      KUBECONFIG: fixture.hubKubeconfig,
    })

  it('shows the profile, its providers and the resolution, with env values redacted', async () => {
    const {env} = await testEnv()
    const result = await describeProfile(`${fixture.namespace}/target`)
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, new RegExp(`^Name: +target\\nNamespace: +${fixture.namespace}\\n`))
    assert.match(result.stdout, new RegExp(`Server: +${env.spoke.server.replace(/\./g, '\\.')}\\n`))
    assert.match(result.stdout, /Certificate Authority: +CN=cpcred-testenv-ca, expires /)
    assert.match(
      result.stdout,
      /client\.authentication\.k8s\.io\/exec:\n +Value: +\{"clusterName":"target"\}\n +Effect: +passed to the plugin/,
    )
    assert.match(
      result.stdout,
      /Ignored the profile's clusterprofiles\.multicluster\.x-k8s\.io\/exec\/additional-envs extension: provider "fake" has no profileSourcedEnvVarsPolicy/,
    )
    assert.match(result.stdout, /Command: +\S*fake-plugin\.mjs\n/)
    assert.match(result.stdout, /PLUGIN_TOKEN_FILE=<redacted>/)
    assert.ok(!result.stdout.includes(fixture.tokenFile), 'env values stay redacted without --show-env')

    const shown = await describeProfile(`${fixture.namespace}/target`, '--show-env')
    assert.ok(shown.stdout.includes(`PLUGIN_TOKEN_FILE=${fixture.tokenFile}`))
  })

  it('prints the resolution as JSON for scripts', async () => {
    const result = await describeProfile(`${fixture.namespace}/target`, '-o', 'json')
    assert.equal(result.code, 0, result.stderr)
    const data = JSON.parse(result.stdout)
    assert.equal(data.resolution.provider, 'fake')
    assert.match(data.resolution.command, /fake-plugin\.mjs$/)
    assert.deepEqual(
      data.resolution.env.map((variable: {name: string}) => variable.name),
      ['PLUGIN_TOKEN_FILE', 'PLUGIN_RECORD', 'KUBECONFIG', 'CPCRED_HUB_CONTEXT'],
    )
    // The hub pin a plugin-mode kubeconfig adds: where the profile was read, never a secret.
    assert.deepEqual(data.resolution.env.slice(2), [
      {name: 'KUBECONFIG', value: fixture.hubKubeconfig, source: 'hub'},
      {name: 'CPCRED_HUB_CONTEXT', value: 'hub', source: 'hub'},
    ])
  })

  it('suggests the right name and refuses to prompt without a terminal', async () => {
    const typo = await describeProfile('targt', '-n', fixture.namespace)
    assert.equal(typo.code, 1)
    assert.equal(
      typo.stderr,
      `error: ClusterProfile "targt" not found in namespace "${fixture.namespace}"\ndid you mean ${fixture.namespace}/target?\n`,
    )
    const none = await describeProfile()
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^error: a profile is required\n/)
  })
})
