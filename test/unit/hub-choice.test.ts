// Which hub cpcred reads: the layers (flags, environment, `cpcred hub use`, kubectl's current
// context) and the hub a context cpcred wrote names.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  chooseHub,
  hubContextsOfOwned,
  parseSavedHub,
  sourceWords,
} from '../../src/core/kubeconfig/hub-choice.js'
import type {MergedKubeconfig} from '../../src/core/kubeconfig/merge.js'
import {ownerExtensions} from '../../src/core/kubeconfig/owner.js'

const saved = {context: 'kept', kubeconfig: '/kept.yaml'}

describe('chooseHub', () => {
  for (const [what, flags, env, want] of [
    [
      '--context wins over all',
      {context: 'flag'},
      {CPCRED_HUB_CONTEXT: 'env'},
      {source: 'flags', context: 'flag'},
    ],
    [
      '--kubeconfig alone: that file, its current context',
      {kubeconfig: '/k'},
      {CPCRED_HUB_CONTEXT: 'env'},
      {source: 'flags', kubeconfig: '/k'},
    ],
    [
      'CPCRED_HUB_CONTEXT wins over the kept hub',
      {},
      {CPCRED_HUB_CONTEXT: 'env'},
      {source: 'env', context: 'env'},
    ],
    [
      'CPCRED_HUB_KUBECONFIG is a list read instead of KUBECONFIG',
      {},
      {CPCRED_HUB_KUBECONFIG: '/a:/b'},
      {source: 'env', kubeconfigList: '/a:/b'},
    ],
    [
      'the in-cluster pin',
      {},
      {KUBECONFIG: '', CPCRED_HUB_CONTEXT: 'in-cluster'},
      {source: 'env', context: 'in-cluster', inCluster: true},
    ],
    [
      'the kept hub',
      {},
      {CPCRED_HUB_CONTEXT: ''},
      {source: 'saved', context: 'kept', kubeconfig: '/kept.yaml'},
    ],
  ] as const) {
    it(what, () => {
      const choice = chooseHub(flags, env, saved)
      assert.deepEqual(
        Object.fromEntries(Object.entries(choice).filter(([, value]) => value !== undefined)),
        want,
      )
    })
  }
  it("kubectl's current context when nothing else says", () => {
    assert.deepEqual(chooseHub({}, {}, undefined), {source: 'kubectl'})
  })
})

describe('sourceWords', () => {
  it('names each source as a message says it', () => {
    assert.equal(sourceWords({source: 'flags', context: 'x'}), '--context')
    assert.equal(sourceWords({source: 'flags'}), 'the current context of --kubeconfig')
    assert.equal(sourceWords({source: 'env', context: 'x'}), 'CPCRED_HUB_CONTEXT')
    assert.equal(sourceWords({source: 'env'}), 'the current context of CPCRED_HUB_KUBECONFIG')
    assert.equal(sourceWords({source: 'saved', context: 'x'}), 'cpcred hub use')
    assert.equal(sourceWords({source: 'kubectl'}), "kubectl's current context")
    assert.equal(sourceWords({source: 'kubectl'}, 'ns/p'), `the hub named by cpcred's context "ns/p"`)
  })
})

describe('hubContextsOfOwned', () => {
  const hub = 'https://hub.example:6443'
  const mark = ownerExtensions({hub}, 'ns/p')
  const merged = (extraHubContexts: number): MergedKubeconfig => ({
    clusters: [
      {name: 'hub', cluster: {server: hub}},
      {name: 'ns/p', cluster: {server: 'https://target.example', extensions: mark}},
    ],
    users: [],
    contexts: [
      ...Array.from({length: extraHubContexts}, (_, i) => ({name: `hub-${i}`, context: {cluster: 'hub'}})),
      {name: 'ns/p', context: {cluster: 'ns/p', extensions: mark}},
      {name: 'plain', context: {cluster: 'ns/p'}},
    ],
    'current-context': 'ns/p',
    contextSources: {},
  })
  it('finds the contexts that reach the hub a context cpcred wrote names', () => {
    assert.deepEqual(hubContextsOfOwned(merged(1), 'ns/p'), {hub, contexts: ['hub-0']})
    assert.deepEqual(hubContextsOfOwned(merged(2), 'ns/p'), {hub, contexts: ['hub-0', 'hub-1']})
    assert.deepEqual(hubContextsOfOwned(merged(0), 'ns/p'), {hub, contexts: []})
  })
  it('leaves any other context alone', () => {
    assert.equal(hubContextsOfOwned(merged(1), 'plain'), undefined)
    assert.equal(hubContextsOfOwned(merged(1), 'missing'), undefined)
  })
})

describe('parseSavedHub', () => {
  it('takes a context and an absolute kubeconfig, nothing else', () => {
    assert.deepEqual(parseSavedHub({context: 'hub'}), {context: 'hub'})
    assert.deepEqual(parseSavedHub({context: 'hub', kubeconfig: '/k'}), {context: 'hub', kubeconfig: '/k'})
    assert.equal(parseSavedHub({context: 'hub', kubeconfig: 'relative'}), undefined)
    assert.equal(parseSavedHub({context: ''}), undefined)
    assert.equal(parseSavedHub(['hub']), undefined)
    assert.equal(parseSavedHub(null), undefined)
  })
})
