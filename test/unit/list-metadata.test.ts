// trailingListMetadata: a list's continue token and resourceVersion from the end of its JSON, and
// nothing (so the caller parses the whole list) when the text is not laid out as the server writes it.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {trailingListMetadata} from '../../src/core/list-metadata.js'

const item = (name: string) => ({
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ClusterProfile',
  metadata: {name},
})

describe('trailingListMetadata', () => {
  it("reads the list's own metadata when it comes last, as the API server writes a custom resource list", () => {
    const text = `${JSON.stringify({
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      items: [item('a'), item('b')],
      kind: 'ClusterProfileList',
      metadata: {continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', resourceVersion: '4711'},
    })}\n`
    assert.deepEqual(trailingListMetadata(text), {
      continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ',
      resourceVersion: '4711',
    })
  })

  it("says nothing when an item's metadata comes last: it never mistakes an item's for the list's", () => {
    const text = JSON.stringify({metadata: {continue: 'next', resourceVersion: '1'}, items: [item('last')]})
    assert.equal(trailingListMetadata(text), undefined)
  })

  it('says nothing for a text without metadata, one cut short, or metadata that is not an object', () => {
    assert.equal(trailingListMetadata(JSON.stringify({items: []})), undefined)
    assert.equal(trailingListMetadata('{"items":[],"metadata":{"continue":"x"'), undefined)
    assert.equal(trailingListMetadata('{"items":[],"metadata":"x"}'), undefined)
  })
})
