import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {credentialCommand, type CredentialInput, type CredentialPorts} from '../../src/usecases/credential.js'
import {credentialKey, keepAnswer, resolveProfile} from '../../src/usecases/credential-pipeline.js'
import {
  answers,
  execCredentialJson,
  NOW,
  notices,
  outage,
  PIN,
  plugins,
  profile,
  profileHub,
  providerSource,
  snapshot,
  snapshots,
  store,
} from './usecase-fakes.js'

const input: CredentialInput = {
  question: {command: 'credential', words: ['fleet/eu']},
  ref: {namespace: 'fleet', name: 'eu'},
  apiVersion: 'client.authentication.k8s.io/v1',
  providers: {},
  noCache: false,
  verbose: false,
  profileMaxAgeMs: 5_000,
  profileMaxStaleMs: 24 * 3600_000,
}

function world(
  options: {
    read?: () => ReturnType<Parameters<typeof profileHub>[0]>
    kept?: ReturnType<typeof snapshot>[]
    warnings?: string[]
  } = {},
) {
  const hub = profileHub(options.read ?? (() => profile()))
  const kept = snapshots(options.kept)
  const plugin = plugins()
  const cache = store()
  const book = answers()
  const told = notices()
  const printed: string[] = []
  const stores: number[] = []
  const ports: CredentialPorts = {
    recentProfiles: async () => ({hub: hub.hub, snapshots: kept.snapshots, now: () => NOW}),
    providers: providerSource(options.warnings).source,
    plugins: plugin.runner,
    store: async () => {
      stores.push(1)
      return cache.store
    },
    answers: async () => book.book,
    stdinIsTTY: () => false,
    notices: told.notices,
    print: (output) => printed.push(output),
  }
  return {ports, hub, kept, plugin, cache, book, told, printed, stores}
}

describe('credentialCommand: failures first', () => {
  it('prints nothing and keeps no answer when the plugin fails', async () => {
    const w = world()
    w.ports.plugins = plugins({exitCode: 1, stdout: '', stderr: 'login required'}).runner
    await assert.rejects(credentialCommand(w.ports, input), (error) => {
      assert.ok(error instanceof CpcredError)
      assert.equal(error.exitCode, ExitCode.PluginFailed)
      assert.match(
        error.message,
        /provider "idp" \(\/bin\/idp\) exited with code 1; its stderr:\nlogin required/,
      )
      return true
    })
    assert.deepEqual(w.printed, [])
    assert.deepEqual(w.book.kept, [])
  })

  it('during a hub outage never runs the plugin: no cached credential means unreachable (3)', async () => {
    const w = world({read: () => outage(), kept: [snapshot(3600_000)]})
    await assert.rejects(credentialCommand(w.ports, input), (error) => {
      assert.ok(error instanceof CpcredError)
      assert.equal(error.exitCode, ExitCode.Unreachable)
      assert.match(error.message, /no credential for fleet\/eu is left in the cache/)
      return true
    })
    assert.equal(w.plugin.runs.length, 0)
    assert.equal(w.told.said.warnings.length, 1, 'the stale profile is said before the failure')
    assert.match(w.told.said.warnings[0]!, /using ClusterProfile fleet\/eu as read 60m ago/)
  })

  it('keeps no answer when something was said on the way (warnings are not replayed)', async () => {
    const w = world({kept: [snapshot(1_000)], warnings: ['the provider file has an unknown field']})
    await credentialCommand(w.ports, input)
    assert.equal(w.printed.length, 1)
    assert.deepEqual(w.told.said.warnings, ['the provider file has an unknown field'])
    assert.equal(w.book.begun.length, 1)
    assert.deepEqual(w.book.kept, [])
  })

  it('with --no-cache asks for no store, keeps no answer and reads the hub', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await credentialCommand(w.ports, {...input, noCache: true})
    assert.deepEqual(w.stores, [])
    assert.deepEqual(w.book.begun, [])
    assert.equal(w.hub.reads.length, 1)
    assert.equal(w.plugin.runs.length, 1)
  })

  it('with --verbose keeps no answer (a hit would not explain itself) and says where the credential came from', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await credentialCommand(w.ports, {...input, verbose: true})
    assert.deepEqual(w.book.begun, [])
    assert.match(
      w.told.said.notes.join('\n'),
      /credential for fleet\/eu via provider "idp": .*from the plugin/,
    )
  })
})

describe('credentialCommand', () => {
  it('prints the ExecCredential and keeps it as the answer, tied to the snapshot and the cache entry', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await credentialCommand(w.ports, input)
    assert.equal(w.hub.reads.length, 0, 'a snapshot within --profile-max-age is used')
    assert.equal(w.plugin.runs.length, 1)
    assert.equal(w.printed.length, 1)
    const printed = JSON.parse(w.printed[0]!) as {kind: string; status: {token: string}}
    assert.equal(printed.kind, 'ExecCredential')
    assert.equal(printed.status.token, 'fresh-token')
    assert.deepEqual(w.book.begun, [{command: 'credential', words: ['fleet/eu']}])
    assert.equal(w.book.kept.length, 1)
    const {payload, from} = w.book.kept[0]!
    assert.equal(payload, w.printed[0])
    assert.equal(from.cacheKey, w.cache.keys[0])
    assert.equal(from.snapshot.fetchedAt, NOW - 1_000)
    assert.equal(from.profileMaxAgeMs, 5_000)
  })

  it('serves a cached credential without running the plugin, in the apiVersion kubectl asked for', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await credentialCommand(w.ports, input)
    const again = world({kept: [snapshot(1_000)]})
    again.ports.store = async () => w.cache.store
    again.ports.plugins = plugins({stdout: execCredentialJson('must-not-run')}).runner
    await credentialCommand(again.ports, {...input, apiVersion: 'client.authentication.k8s.io/v1beta1'})
    const printed = JSON.parse(again.printed[0]!) as {apiVersion: string; status: {token: string}}
    assert.equal(printed.status.token, 'fresh-token')
    assert.equal(printed.apiVersion, 'client.authentication.k8s.io/v1beta1')
  })

  it('pins the hub in the plugin environment', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await credentialCommand(w.ports, input)
    const env = w.plugin.runs[0]!.env
    assert.equal(env.KUBECONFIG, PIN.kubeconfigPaths[0])
    assert.equal(env.CPCRED_HUB_CONTEXT, PIN.context)
  })
})

describe('the pipeline steps', () => {
  it('keys a credential by the hub identity: another hub user never shares it', () => {
    const resolution = resolveProfile(profile(), providerSourceProviders())
    const one = credentialKey({identity: 'alice', pin: PIN}, resolution)
    const other = credentialKey({identity: 'bob', pin: PIN}, resolution)
    assert.notEqual(one, other)
    assert.equal(one, credentialKey({identity: 'alice', pin: PIN}, resolution))
  })

  it('keeps no answer without a snapshot, without a cached credential, or after a warning', async () => {
    const book = answers()
    const draft = book.book.begin({command: 'credential', words: []}, {providers: {}})
    const obtained = {cacheKey: 'k', cachedUntil: new Date(NOW + 60_000)}
    await keepAnswer(draft, 'x', {obtained, profileMaxAgeMs: 5_000, warned: false})
    await keepAnswer(draft, 'x', {
      obtained: {cacheKey: 'k'},
      snapshot: snapshot(0),
      profileMaxAgeMs: 5_000,
      warned: false,
    })
    await keepAnswer(draft, 'x', {obtained, snapshot: snapshot(0), profileMaxAgeMs: 5_000, warned: true})
    await keepAnswer(undefined, 'x', {obtained, snapshot: snapshot(0), profileMaxAgeMs: 5_000, warned: false})
    assert.deepEqual(book.kept, [])
    await keepAnswer(draft, 'x', {obtained, snapshot: snapshot(0), profileMaxAgeMs: 5_000, warned: false})
    assert.equal(book.kept.length, 1)
  })
})

function providerSourceProviders() {
  return [
    {name: 'idp', execConfig: {apiVersion: 'client.authentication.k8s.io/v1' as const, command: '/bin/idp'}},
  ]
}
