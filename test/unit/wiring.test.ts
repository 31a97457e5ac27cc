// The wiring as a run gets it: one per process, and ports that answer right from the start.
import assert from 'node:assert/strict'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {KubeApiError, KubeConnectionError} from '../../src/adapters/kube-client.js'
import {processWiring, wire} from '../../src/cli/wiring.js'

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

  it('is built once per run: every front of the run gets the same one', () => {
    assert.equal(processWiring(), processWiring())
    assert.equal(processWiring().printer, processWiring().printer)
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
