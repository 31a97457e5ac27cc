import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {inventoriesNote, inventoriesOf} from '../../src/core/profiles/inventories.js'

function profile(namespace: string, name: string): ClusterProfile {
  return {metadata: {namespace, name}, spec: {clusterManager: {name: 'm'}}}
}

const names = (profiles: ClusterProfile[]) =>
  profiles.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)

describe('inventoriesOf', () => {
  it('groups profiles by namespace, the namespaces sorted, each keeping the order it was given', () => {
    // A placement's order: namespaces interleaved, names not sorted.
    const grouped = inventoriesOf([
      profile('west', 'z'),
      profile('east', 'b'),
      profile('west', 'a'),
      profile('east', 'a'),
    ])
    assert.deepEqual(
      grouped.map((inventory) => [inventory.namespace, names(inventory.profiles)]),
      [
        ['east', ['east/b', 'east/a']],
        ['west', ['west/z', 'west/a']],
      ],
    )
  })

  it('has no inventory for no profiles', () => {
    assert.deepEqual(inventoriesOf([]), [])
  })
})

describe('inventoriesNote', () => {
  it('says nothing of one inventory', () => {
    assert.equal(inventoriesNote(inventoriesOf([profile('a', 'x'), profile('a', 'y')])), undefined)
    assert.equal(inventoriesNote([]), undefined)
  })

  it('names each inventory of several and counts its profiles', () => {
    assert.equal(
      inventoriesNote(inventoriesOf([profile('b', 'x'), profile('a', 'x'), profile('b', 'y')])),
      '2 inventories (KEP-4322: one per namespace): a (1), b (2)',
    )
  })

  it('names ten and counts the rest, so a hub of many namespaces stays one line', () => {
    const many = Array.from({length: 12}, (_, index) => profile(`ns-${String(index).padStart(2, '0')}`, 'x'))
    assert.equal(
      inventoriesNote(inventoriesOf(many)),
      `12 inventories (KEP-4322: one per namespace): ${Array.from(
        {length: 10},
        (_, index) => `ns-${String(index).padStart(2, '0')} (1)`,
      ).join(', ')} and 2 more`,
    )
  })
})
