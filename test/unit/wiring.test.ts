// The wiring as a run gets it: one printer per run, and ports that answer right from the start.
import assert from 'node:assert/strict'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {KubeApiError, KubeConnectionError} from '../../src/adapters/kube-client.js'
import {wire} from '../../src/cli/wiring.js'

const HUB_KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{name: hub, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: hub, user: {token: not-a-secret}}]
contexts: [{name: hub, context: {cluster: hub, user: hub, namespace: fleet}}]
current-context: hub
`

describe('the wiring', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cpcred-wiring-'))
  after(() => rmSync(dir, {recursive: true, force: true}))
  const kubeconfig = path.join(dir, 'hub.yaml')
  writeFileSync(kubeconfig, HUB_KUBECONFIG, {mode: 0o600})
  const env = {
    HOME: dir,
    XDG_CACHE_HOME: path.join(dir, 'cache'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    KUBECONFIG: kubeconfig,
  }

  it('has one printer for the whole run: every port that prints shares it', () => {
    const wiring = wire(env)
    assert.equal(wiring.printer, wiring.printer)
    assert.notEqual(wire(env).printer, wiring.printer, 'another run, another printer')
  })

  it('says whether the hub is down before any profile was read from it', async () => {
    const {hub} = await wire(env).recentProfiles({})
    assert.equal(hub.namespace, 'fleet')
    assert.equal(
      hub.isOutage(new KubeConnectionError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')),
      true,
    )
    assert.equal(hub.isOutage(new KubeApiError(503, undefined, 'GET', '/apis')), true)
    assert.equal(hub.isOutage(new KubeApiError(403, undefined, 'GET', '/apis')), false)
  })
})
