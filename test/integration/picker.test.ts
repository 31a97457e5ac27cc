import assert from 'node:assert/strict'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcredBin, isolatedEnv, testEnv} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {runOnTty} from '../helpers/tty.js'

describe('interactive picking on a terminal', () => {
  let fixture: SpokeFixture

  before(async () => {
    fixture = await spokeFixture({prefix: 'picker', profileName: 'alpha-east'})
    const {env, hub} = await testEnv()
    await applyProfile(hub, {
      metadata: {name: 'beta-west', namespace: fixture.namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: [
          {name: 'fake', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    })
  })

  const env = () => ({...isolatedEnv, KUBECONFIG: fixture.hubKubeconfig})

  it('describe without a name offers a fuzzy search over the profiles', async () => {
    const session = runOnTty(
      [
        process.execPath,
        cpcredBin,
        'describe',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
      ],
      env(),
    )
    await session.waitFor('Which ClusterProfile?')
    await session.waitFor('beta-west')
    session.type('btw')
    await new Promise((resolve) => setTimeout(resolve, 300))
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.match(output, /Name:\s+beta-west/)
  })

  it('exec without a target offers a multi-select and runs on the chosen ones', async () => {
    const session = runOnTty(
      [
        process.execPath,
        cpcredBin,
        'exec',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
        '--',
        'sh',
        '-c',
        'echo ran on $CPCRED_PROFILE',
      ],
      env(),
    )
    await session.waitFor('Run on which clusters?')
    await session.waitFor('beta-west')
    // Select the first entry (alpha-east) and the second (beta-west), then run.
    session.type(' ')
    session.type('\x1b[B')
    session.type(' ')
    await new Promise((resolve) => setTimeout(resolve, 300))
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.match(output, /alpha-east \| ran on alpha-east/)
    assert.match(output, /beta-west +\| ran on beta-west/)
  })
})
