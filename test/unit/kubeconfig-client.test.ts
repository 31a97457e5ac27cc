// clientForContext with a user whose credential comes from an exec plugin: the runner is injected
// (the wiring passes the plugin runner use case), gets the cluster and its exec extension, and runs
// again once after a 401, as client-go does.
import assert from 'node:assert/strict'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {after, before, describe, it} from 'node:test'
import {clientForContext} from '../../src/adapters/kubeconfig-client.js'
import type {ExecPluginRequest} from '../../src/usecases/ports.js'

describe('clientForContext: an exec plugin user', () => {
  const seen: string[] = []
  let server: http.Server
  let url: string
  before(async () => {
    server = http.createServer((request, response) => {
      seen.push(request.headers.authorization ?? '')
      const fresh = request.headers.authorization === 'Bearer tok-2'
      response.writeHead(fresh ? 200 : 401, {'Content-Type': 'application/json'})
      response.end(fresh ? '{"ok":true}' : '{"kind":"Status","code":401}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('runs the injected runner with the cluster and its exec extension, and again after a 401', async () => {
    const requests: ExecPluginRequest[] = []
    const extension = {clusterName: 'hub'}
    const client = await clientForContext(
      {
        clusters: [
          {
            name: 'hub',
            cluster: {
              server: url,
              extensions: [{name: 'client.authentication.k8s.io/exec', extension}],
            },
          },
        ],
        users: [
          {name: 'me', user: {exec: {apiVersion: 'client.authentication.k8s.io/v1', command: 'login'}}},
        ],
        contexts: [{name: 'ctx', context: {cluster: 'hub', user: 'me'}}],
        contextSources: {},
      },
      'ctx',
      {
        stdinIsTTY: false,
        runExecPlugin: async (request) => {
          requests.push(request)
          return {token: `tok-${requests.length}`}
        },
      },
    )
    try {
      assert.deepEqual(await client.request('GET', '/version'), {ok: true})
    } finally {
      await client.close()
    }
    assert.equal(requests.length, 2)
    assert.equal(requests[0]!.exec.command, 'login')
    assert.equal(requests[0]!.cluster?.server, url)
    assert.deepEqual(requests[0]!.clusterConfig, extension)
    assert.deepEqual(seen, ['Bearer tok-1', 'Bearer tok-2'])
  })
})
