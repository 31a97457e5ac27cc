import assert from 'node:assert/strict'
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {KubeApiError, KubeConnectionError, connectionError} from '../../src/adapters/kube-client.js'
import {isOutage, translateKubeError} from '../../src/adapters/kube-errors.js'
import {ProfileSnapshots} from '../../src/adapters/profile-snapshots.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, {recursive: true, force: true}))))

const refused = () =>
  connectionError(Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'}))
const wrapped = (error: unknown) => translateKubeError(error, 'get clusterprofile', 'hub https://hub:6443')

describe('isOutage: when a snapshot may stand in for the hub', () => {
  const outages: Array<[string, unknown]> = [
    ['a refused connection', refused()],
    ['a timeout', new KubeConnectionError('timed out', 'ETIMEDOUT')],
    ['a reset connection', new KubeConnectionError('connection reset', 'ECONNRESET')],
    ['an unreachable network', new KubeConnectionError('network unreachable', 'ENETUNREACH')],
    ['a 503', new KubeApiError(503, undefined, 'GET', '/apis')],
    ['a 500', new KubeApiError(500, undefined, 'GET', '/apis')],
  ]
  for (const [name, error] of outages) {
    it(`is ${name}, as thrown and as the hub adapter wraps it`, () => {
      assert.equal(isOutage(error), true)
      assert.equal(isOutage(wrapped(error)), true)
    })
  }

  const answers: Array<[string, unknown]> = [
    ['a 401: the hub answered, the credential is wrong', new KubeApiError(401, undefined, 'GET', '/apis')],
    ['a 403: the hub answered, the rights are gone', new KubeApiError(403, undefined, 'GET', '/apis')],
    ['a 404', new KubeApiError(404, undefined, 'GET', '/apis')],
    ['a 429', new KubeApiError(429, undefined, 'GET', '/apis')],
    [
      'a TLS verification failure: the server may not be the hub',
      connectionError(Object.assign(new Error('self-signed'), {code: 'SELF_SIGNED_CERT_IN_CHAIN'})),
    ],
    ['an unknown host name', new KubeConnectionError('host name not found', 'ENOTFOUND')],
    ['any other error', new Error('boom')],
    ['nothing', undefined],
  ]
  for (const [name, error] of answers) {
    it(`is not ${name}`, () => {
      assert.equal(isOutage(error), false)
      if (error !== undefined) assert.equal(isOutage(wrapped(error)), false)
    })
  }
})

describe('ProfileSnapshots.last: the copy a hub outage falls back on', () => {
  const profile: ClusterProfile = {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name: 'eu', namespace: 'fleet'},
    spec: {clusterManager: {name: 'm'}},
  }

  it('keeps the snapshot of any age, for the hub it was read from only', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-snapshots-'))
    dirs.push(dir)
    let now = Date.parse('2026-03-01T12:00:00Z')
    const snapshots = new ProfileSnapshots(dir, () => now)
    const kept = await snapshots.remember('hub-a', profile)
    assert.ok(kept)
    now += 6 * 3_600_000
    const last = await snapshots.last('hub-a', 'fleet', 'eu')
    assert.equal(last?.fetchedAt, kept.fetchedAt)
    assert.equal(last?.hub, 'hub-a')
    assert.equal(await snapshots.last('hub-b', 'fleet', 'eu'), undefined)
  })

  it('refuses a snapshot whose recorded hub is another, even under this hub’s name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-snapshots-'))
    dirs.push(dir)
    const snapshots = new ProfileSnapshots(dir)
    const kept = await snapshots.remember('hub-a', profile)
    const entry = JSON.parse(await readFile(kept!.file, 'utf8')) as {value: {hub: string}}
    entry.value.hub = 'hub-b'
    await writeFile(kept!.file, JSON.stringify(entry), {mode: 0o600})
    assert.equal(await snapshots.last('hub-a', 'fleet', 'eu'), undefined)
  })
})
