import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, UsageError} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {
  selectExecTargets,
  type ExecTargetInput,
  type ExecTargetPorts,
} from '../../src/usecases/exec-targets.js'
import {notices, profile, provider, targetHub} from './usecase-fakes.js'

const none: ExecTargetInput = {names: [], all: false, allNamespaces: false}

function world(profiles: ClusterProfile[], pick?: ExecTargetPorts['pick']) {
  const hub = targetHub(profiles)
  const told = notices()
  const folded: string[][] = []
  const ports: ExecTargetPorts = {
    openHub: async () => hub.hub,
    pick,
    fold: (found) => {
      folded.push(found.map((p) => p.metadata.name))
      return found
    },
    notices: told.notices,
  }
  return {ports, hub, told, folded}
}

describe('selectExecTargets: failures first', () => {
  it('refuses to guess without a terminal when nothing is named or selected', async () => {
    const w = world([profile('a')])
    await assert.rejects(selectExecTargets(w.ports, none, [provider()]), (error) => {
      assert.ok(error instanceof UsageError)
      assert.match(error.message, /no target given/)
      return true
    })
    assert.equal(w.hub.closed(), 1, 'the hub connection is closed on failure too')
  })

  it('fails a selection smaller than --min-targets', async () => {
    const w = world([profile('a')])
    await assert.rejects(
      selectExecTargets(w.ports, {...none, all: true, minTargets: 2}, [provider()]),
      (error) => error instanceof CpcredError && /fewer than --min-targets 2/.test(error.message),
    )
  })

  it('passes on a name the hub does not have', async () => {
    const w = world([profile('a')])
    await assert.rejects(selectExecTargets(w.ports, {...none, names: ['fleet/zz']}, [provider()]), /zz/)
  })
})

describe('selectExecTargets', () => {
  it('selects by names and --all, folded', async () => {
    const w = world([profile('a'), profile('b')])
    const found = await selectExecTargets(w.ports, {...none, all: true}, [provider()])
    assert.deepEqual(
      found.map((p) => p.metadata.name),
      ['a', 'b'],
    )
    assert.deepEqual(w.folded, [['a', 'b']])
    const named = await selectExecTargets(w.ports, {...none, names: ['fleet/b']}, [provider()])
    assert.deepEqual(
      named.map((p) => p.metadata.name),
      ['b'],
    )
  })

  it('says where it looked when a selection matches nothing, and returns none', async () => {
    const w = world([])
    assert.deepEqual(await selectExecTargets(w.ports, {...none, all: true}, [provider()]), [])
    assert.deepEqual(w.told.said.notes, ['No ClusterProfiles found in fleet namespace.'])
  })

  it('lets the user pick on a terminal when nothing is named or selected', async () => {
    const offered: string[][] = []
    const w = world([profile('a'), profile('b')], async (profiles) => {
      offered.push(profiles.map((p) => p.metadata.name))
      return profiles.slice(1)
    })
    const picked = await selectExecTargets(w.ports, none, [provider()])
    assert.deepEqual(offered, [['a', 'b']])
    assert.deepEqual(
      picked.map((p) => p.metadata.name),
      ['b'],
    )
  })
})
