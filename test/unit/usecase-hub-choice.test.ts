// `cpcred hub use` and `cpcred hub` with hand-written fakes: a context is checked before it is kept,
// the kept file is absolute, and what still wins over the kept hub is named.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {UsageError} from '../../src/core/errors.js'
import type {SavedHub} from '../../src/core/kubeconfig/hub-choice.js'
import type {HubConfig, HubSelection} from '../../src/usecases/ports.js'
import {hubCommand, hubUseCommand} from '../../src/usecases/hub-choice.js'

function fakes(contexts: string[], kept?: SavedHub) {
  const writes: (SavedHub | undefined)[] = []
  const loads: HubSelection[] = []
  let saved = kept
  return {
    writes,
    loads,
    ports: {
      saved: {
        file: '/home/u/.config/cpcred/hub.json',
        read: async () => saved,
        write: async (next: SavedHub | undefined) => {
          writes.push(next)
          saved = next
        },
      },
      async loadConfig(selection: HubSelection): Promise<HubConfig> {
        loads.push(selection)
        const context = selection.context ?? 'current'
        if (!contexts.includes(context)) throw new UsageError(`context "${context}" not found`)
        return {
          merged: {clusters: [], users: [], contexts: [], contextSources: {}},
          files: [selection.kubeconfig ?? '/home/u/.kube/config'],
          context,
          server: 'https://hub.example',
          user: 'admin',
          namespace: 'default',
          chosenBy: 'cpcred hub use',
        }
      },
    },
  }
}

describe('hubUseCommand', () => {
  it('refuses a context the kubeconfig does not hold, and keeps nothing', async () => {
    const {ports, writes} = fakes(['hub'])
    await assert.rejects(
      hubUseCommand(ports, {context: 'nope', env: {}, cwd: '/w'}),
      /context "nope" not found/,
    )
    assert.deepEqual(writes, [])
  })

  it('keeps the context and the kubeconfig made absolute, checked as the kept hub', async () => {
    const {ports, writes, loads} = fakes(['hub'])
    const used = await hubUseCommand(ports, {context: 'hub', kubeconfig: 'k/hub.yaml', env: {}, cwd: '/w'})
    assert.deepEqual(writes, [{context: 'hub', kubeconfig: '/w/k/hub.yaml'}])
    assert.deepEqual(loads, [{context: 'hub', kubeconfig: '/w/k/hub.yaml', source: 'saved'}])
    assert.equal(used.config?.context, 'hub')
    assert.deepEqual(used.overriddenBy, [])
  })

  it('names the variables that still win over the kept hub', async () => {
    const {ports} = fakes(['hub'])
    const env = {CPCRED_HUB_CONTEXT: 'other', CPCRED_HUB_KUBECONFIG: '/k'}
    const used = await hubUseCommand(ports, {context: 'hub', env, cwd: '/w'})
    assert.deepEqual(used.overriddenBy, ['CPCRED_HUB_CONTEXT', 'CPCRED_HUB_KUBECONFIG'])
  })

  it('--unset forgets the kept hub without loading anything', async () => {
    const {ports, writes, loads} = fakes([], {context: 'hub'})
    const used = await hubUseCommand(ports, {unset: true, env: {}, cwd: '/w'})
    assert.deepEqual(writes, [undefined])
    assert.deepEqual(loads, [])
    assert.equal(used.config, undefined)
  })
})

describe('hubCommand', () => {
  it('gives the hub as loaded and every layer, the kept hub among them', async () => {
    const {ports, loads} = fakes(['current'], {context: 'hub'})
    const shown = await hubCommand(ports, {selection: {}, env: {}})
    // The loader applies the layers; hubCommand passes the flags on as they are.
    assert.deepEqual(loads, [{}])
    assert.equal(shown.config.context, 'current')
    assert.equal(shown.chain.length, 4)
    assert.match(
      shown.chain[2]!,
      /^cpcred hub use \(\/home\/u\/\.config\/cpcred\/hub\.json\): context "hub"$/,
    )
    assert.match(shown.chain[0]!, /--kubeconfig not set, --context not set/)
  })
})
