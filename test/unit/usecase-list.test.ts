// listCommand with the hand-written hub of usecase-fakes.ts: a listing of the hub's pages, or of what
// a placement decided, whose references no profile answers to fail the listing once it is shown.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ExitCode} from '../../src/core/errors.js'
import type {PlacementDecision} from '../../src/core/fleet/placement.js'
import {listCommand, type ListInput} from '../../src/usecases/list.js'
import {notices, profile, provider, targetHub} from './usecase-fakes.js'

function decision(name: string, refs: string[]): PlacementDecision {
  return {
    metadata: {name, namespace: 'fleet'},
    decisions: refs.map((ref) => ({clusterProfileRef: {name: ref}})),
  }
}

const input = (extra: Partial<ListInput> = {}): ListInput => ({
  namespace: 'fleet',
  placementNamespace: 'fleet',
  providers: [provider()],
  ...extra,
})

const names = (outcome: Awaited<ReturnType<typeof listCommand>>) =>
  outcome.listing.profiles.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)

describe('listCommand', () => {
  it('lists the namespace, with the provider each profile would use', async () => {
    const told = notices()
    const outcome = await listCommand(
      {hub: targetHub([profile('eu'), profile('us', 'other')]).hub, notices: told.notices},
      input(),
    )
    assert.deepEqual(names(outcome), ['fleet/eu'])
    assert.equal(outcome.listing.chosen(outcome.listing.profiles[0]!)?.provider, 'idp')
    assert.equal(outcome.exitCode, ExitCode.Success)
  })

  it('--placement: the decided profiles in any namespace, in order; a reference no profile answers to fails it', async () => {
    const told = notices()
    const outcome = await listCommand(
      {
        hub: targetHub([profile('eu'), profile('us')], [decision('web', ['us', 'gone', 'eu'])]).hub,
        notices: told.notices,
      },
      input({placement: 'web'}),
    )
    assert.deepEqual(names(outcome), ['fleet/us', 'fleet/eu'])
    assert.deepEqual(
      outcome.unresolved.map(({profile}) => profile),
      ['fleet/gone'],
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
  })
})
