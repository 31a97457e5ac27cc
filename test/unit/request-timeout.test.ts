// --request-timeout: kubectl's grammar (clientcmd.ParseTimeout), the usage error that names it, the
// failure that names the flag, and the client's deadline: a whole request, but only the start of a
// watch. The hub itself (a server that never answers) is test/integration/hub-outage.test.ts.
import assert from 'node:assert/strict'
import http from 'node:http'
import type net from 'node:net'
import {after, before, describe, it} from 'node:test'
import {DEFAULT_REQUEST_TIMEOUT_MS, parseRequestTimeout} from '../../src/core/duration.js'
import {ExitCode, UsageError} from '../../src/core/errors.js'
import {explainFailure} from '../../src/core/failures.js'
import {parseFlags} from '../../src/cli/flag-table.js'
import {HUB_FLAGS, hubSelection} from '../../src/cli/flags.js'
import {KubeClient, KubeConnectionError, staticAuth} from '../../src/adapters/kube-client.js'
import {translateKubeError} from '../../src/adapters/kube-errors.js'

describe('parseRequestTimeout: kubectl --request-timeout values', () => {
  const cases: [string, number][] = [
    ['0', 0],
    ['-0', 0],
    ['5', 5000],
    ['+5', 5000],
    ['120', 120_000],
    ['0s', 0],
    ['1s', 1000],
    ['2m', 120_000],
    ['3h', 10_800_000],
    ['1h30m', 5_400_000],
    ['1m0s', 60_000],
    ['1.5s', 1500],
    ['.5s', 500],
    ['1.s', 1000],
    ['500ms', 500],
    ['1500us', 1.5],
    ['2000000ns', 2],
    ['1µs', 0.001],
    ['+1m', 60_000],
    ['-0s', 0],
  ]
  for (const [text, ms] of cases) {
    it(`reads ${JSON.stringify(text)} as ${ms} ms`, () => assert.equal(parseRequestTimeout(text), ms))
  }

  const refused: [string, RegExp][] = [
    ['abc', /is not a timeout/],
    ['', /is not a timeout/],
    ['1.5', /is not a timeout/], // a bare number must be whole seconds
    ['-5', /is not a timeout/],
    ['5 s', /is not a timeout/],
    [' 5s', /is not a timeout/],
    ['1sec', /is not a timeout/],
    ['1d', /is not a timeout/],
    ['s', /is not a timeout/],
    ['.s', /is not a timeout/],
    ['1..5s', /is not a timeout/],
    ['-1s', /is negative/],
    ['-1h30m', /is negative/],
  ]
  for (const [text, why] of refused) {
    it(`refuses ${JSON.stringify(text)}, naming the grammar`, () => {
      assert.throws(
        () => parseRequestTimeout(text),
        (error: unknown) =>
          error instanceof UsageError &&
          error.exitCode === ExitCode.Usage &&
          why.test(error.message) &&
          error.message.startsWith(`--request-timeout ${JSON.stringify(text)} `) &&
          error.message.includes(
            'a whole number of seconds, or a number with a unit (e.g. 1s, 2m, 3h); 0 means no timeout',
          ),
      )
    })
  }
})

describe('--request-timeout among the hub flags', () => {
  const parse = (argv: string[]) => hubSelection(parseFlags(HUB_FLAGS, argv, 'usage').flags)

  it('defaults to 30s, and is read in every spelling of a flag', () => {
    assert.equal(DEFAULT_REQUEST_TIMEOUT_MS, 30_000)
    assert.equal(parse([]).requestTimeoutMs, 30_000)
    assert.equal(parse(['--request-timeout', '2s']).requestTimeoutMs, 2000)
    assert.equal(parse(['--request-timeout=7']).requestTimeoutMs, 7000)
    assert.equal(parse(['--request-timeout', '0']).requestTimeoutMs, 0)
  })

  it('refuses a value outside the grammar before any request, as a usage error', () => {
    assert.throws(() => parse(['--request-timeout', 'abc']), UsageError)
    assert.throws(() => parse(['--request-timeout=-1s']), /is negative/)
  })
})

describe('a request that outlives its deadline', () => {
  it('is an outage of the hub that names the timeout and the flag', () => {
    const error = translateKubeError(
      new KubeConnectionError('no answer within 2s', 'ETIMEDOUT', 2000),
      'list ClusterProfiles',
      'the hub (context "c" from --context, https://hub:6443)',
      {unreachableHint: 'check that the hub is running'},
    )
    assert.equal(error.exitCode, ExitCode.Unreachable)
    assert.equal(
      error.message,
      'cannot reach the hub (context "c" from --context, https://hub:6443): no answer within 2s (--request-timeout)',
    )
    assert.match(error.hint ?? '', /^check that the hub is running; .*--request-timeout \(0: no limit\)/)
  })

  it('keeps the words of a timeout with no deadline of its own (the socket went quiet)', () => {
    const error = explainFailure({kind: 'connection', code: 'ETIMEDOUT', reason: 'timed out'}, 'a', 'b')
    assert.equal(error.message, 'cannot reach b: timed out')
    assert.doesNotMatch(error.hint ?? '', /request-timeout/)
  })
})

describe('KubeClient deadlines', () => {
  // A server of this test: headers at once, then a body (or a watch's events) that trickles.
  let server: http.Server
  let base: string
  const sockets = new Set<net.Socket>()
  before(async () => {
    server = http.createServer((request, response) => {
      response.writeHead(200, {'Content-Type': 'application/json'})
      if (request.url?.startsWith('/silent')) return
      if (request.url?.startsWith('/slow-body')) {
        response.write('{"items": [')
        setTimeout(() => response.end(']}'), 1500)
        return
      }
      // A watch: an event now, another after the deadline, then the end.
      response.write('{"type":"ADDED","object":{"n":1}}\n')
      setTimeout(() => response.write('{"type":"ADDED","object":{"n":2}}\n'), 700)
      setTimeout(() => response.end(), 900)
    })
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  })
  after(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })
  const client = (requestMs: number, waiting?: (waiting: boolean) => void) =>
    new KubeClient(
      {server: base},
      staticAuth({}),
      {},
      {
        requestMs,
        waiting: waiting && {afterMs: 100, notify: waiting},
      },
    )

  it('cuts a request whose body is still coming at the deadline', async () => {
    const started = Date.now()
    await assert.rejects(client(300).request('GET', '/slow-body'), (error: unknown) => {
      assert.ok(error instanceof KubeConnectionError)
      assert.equal(error.code, 'ETIMEDOUT')
      assert.equal(error.deadlineMs, 300)
      assert.equal(error.reason, 'no answer within 300ms')
      return true
    })
    assert.ok(Date.now() - started < 1400, 'cut at the deadline, not when the body ended')
  })

  it('leaves a request alone with no deadline (0), as kubectl does', async () => {
    assert.deepEqual(await client(0).request('GET', '/slow-body'), {items: []})
  })

  it('lets a watch run past the deadline once it has started', async () => {
    const events: unknown[] = []
    await client(300).watch('/watch', {}, (event) => events.push(event.object))
    assert.deepEqual(events, [{n: 1}, {n: 2}])
  })

  it('says when a request has waited, and when nothing waits any more', async () => {
    const heard: boolean[] = []
    await assert.rejects(client(400, (waiting) => heard.push(waiting)).request('GET', '/silent'))
    assert.deepEqual(heard, [true, false])
    const quick: boolean[] = []
    await client(400, (waiting) => quick.push(waiting)).watch('/watch', {}, () => undefined)
    assert.deepEqual(quick, [], 'a watch that starts at once is not waited for')
  })
})
