import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {UsageError} from '../../src/core/errors.js'
import {renderSelf, whoamiCommand, type WhoamiInput, type WhoamiPorts} from '../../src/usecases/whoami.js'
import type {SelfSubjectReview} from '../../src/usecases/ports.js'
import {notices, plugins, profile, providerSource, sessionHub, store} from './usecase-fakes.js'

const input: WhoamiInput = {
  profile: 'fleet/eu',
  allNamespaces: false,
  providers: {},
  noCache: false,
  stdinIsTTY: false,
}
const review: SelfSubjectReview = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'SelfSubjectReview',
  status: {userInfo: {username: 'alice', groups: ['dev', 'ops'], extra: {b: ['2'], a: ['1']}}},
}

function world(reviewed: () => Promise<SelfSubjectReview> = async () => review) {
  const hub = sessionHub([profile()])
  const plugin = plugins()
  const cache = store()
  const told = notices()
  const reviews: string[] = []
  const caches: number[] = []
  const ports: WhoamiPorts = {
    openHub: async () => hub.hub,
    providers: providerSource(['a provider warning']).source,
    plugins: plugin.runner,
    cache: async () => {
      caches.push(1)
      return cache.store
    },
    target: {
      reviewSelf: async (resolution, credential) => {
        reviews.push(`${resolution.profile} ${credential.token}`)
        return reviewed()
      },
    },
    notices: told.notices,
  }
  return {ports, hub, plugin, told, reviews, caches}
}

describe('whoami: failures first', () => {
  it('passes on a refusal to choose (no profile and no terminal) before any credential', async () => {
    const w = world()
    // No terminal to pick on: the refusal is find-profiles' oneProfile's.
    w.ports.openHub = async () => ({
      ...w.hub.hub,
      chooser: {
        interactive: false,
        pickOne: async () => assert.fail('nobody is at a terminal to be asked'),
      },
    })
    await assert.rejects(whoamiCommand(w.ports, {...input, profile: undefined}), UsageError)
    assert.equal(w.plugin.runs.length, 0)
  })

  it("passes on the target's refusal", async () => {
    const w = world(async () => {
      throw new Error('the target says 401')
    })
    await assert.rejects(whoamiCommand(w.ports, input), /401/)
    assert.deepEqual(w.reviews, ['fleet/eu fresh-token'])
  })

  it('with --no-cache asks for no cache', async () => {
    const w = world()
    await whoamiCommand(w.ports, {...input, noCache: true})
    assert.deepEqual(w.caches, [])
    assert.equal(w.plugin.runs.length, 1)
  })
})

describe('whoami', () => {
  it('reviews the credential the profile resolves to, after saying the provider warnings', async () => {
    const w = world()
    assert.deepEqual(await whoamiCommand(w.ports, input), review)
    assert.deepEqual(w.hub.chosen, ['fleet/eu'])
    assert.deepEqual(w.told.said.warnings, ['a provider warning'])
    assert.ok(w.hub.closed() >= 1, 'the hub connection is closed')
  })

  it('renders the table kubectl auth whoami prints, extras sorted', () => {
    assert.deepEqual(renderSelf(review).rows, [
      ['ATTRIBUTE', 'VALUE'],
      ['Username', 'alice'],
      ['Groups', '[dev ops]'],
      ['Extra: a', '[1]'],
      ['Extra: b', '[2]'],
    ])
  })
})
