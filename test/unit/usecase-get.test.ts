// getCommand with fakes at its ports: exec's selection and credential path, then each target's
// discovery (kept per server) and requests; a target that fails is an answer, not the end of the run.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import type {GetQuery} from '../../src/core/get/query.js'
import {getCommand, type GetInput, type GetPorts} from '../../src/usecases/get.js'
import type {CachedDiscovery, TargetEvent, TargetGet} from '../../src/usecases/ports.js'
import {getWatchCommand, type GetChange} from '../../src/usecases/get-watch.js'
import {
  answers,
  notices,
  outage,
  plugins,
  profile,
  profileHub,
  providerSource,
  snapshot,
  snapshots,
  store,
  targetHub,
  NOW,
} from './usecase-fakes.js'

/** Aggregated discovery of a small server: pods in the core group, deployments in apps. */
function discovery(extra: object[] = []) {
  const group = (name: string, resources: object[]) => ({
    metadata: {name},
    versions: [{version: 'v1', resources}],
  })
  const pods = {
    resource: 'pods',
    responseKind: {kind: 'Pod'},
    scope: 'Namespaced',
    singularResource: 'pod',
    verbs: ['list'],
    shortNames: ['po'],
  }
  const deployments = {
    resource: 'deployments',
    responseKind: {kind: 'Deployment'},
    scope: 'Namespaced',
    singularResource: 'deployment',
    verbs: ['list'],
    shortNames: ['deploy'],
  }
  return {
    '/api': {kind: 'APIGroupDiscoveryList', items: [group('', [pods])]},
    '/apis': {kind: 'APIGroupDiscoveryList', items: [group('apps', [deployments, ...extra])]},
  } as Record<string, unknown>
}

function table(names: string[]) {
  return {
    kind: 'Table',
    columnDefinitions: [
      {name: 'Name', type: 'string', format: 'name'},
      {name: 'Age', type: 'string'},
    ],
    rows: names.map((name) => ({cells: [name, '1m'], object: {metadata: {name, namespace: 'default'}}})),
  }
}

type Server = (request: TargetGet) => unknown | Promise<unknown>

/** A target's watch: what it tells `onEvent` until it ends (or fails). */
type Watcher = (
  request: TargetGet & {resourceVersion: string},
  onEvent: (event: TargetEvent) => void,
  signal: AbortSignal,
) => Promise<void>

/** Targets by server URL: each answers its discovery, then what `answer` says. */
function world(
  profiles: ClusterProfile[],
  servers: Record<string, Server>,
  kept = new Map<string, CachedDiscovery>(),
  watchers: Record<string, Watcher> = {},
) {
  const requests: {server: string; path: string; accept: string; query?: Record<string, string>}[] = []
  const closed: string[] = []
  const told = notices()
  const plugin = plugins()
  const reports: {file: string; content: string}[] = []
  const ports: GetPorts = {
    recentProfiles: async () => ({
      hub: profileHub(() => profiles[0]!).hub,
      snapshots: snapshots().snapshots,
      now: () => NOW,
    }),
    providers: providerSource().source,
    plugins: plugin.runner,
    store: async () => store().store,
    answers: async () => answers().book,
    notices: told.notices,
    targets: {openHub: async () => targetHub(profiles).hub, notices: told.notices},
    apis: {
      open: ({cluster}) => ({
        async get(request) {
          requests.push({
            server: cluster.server,
            path: request.path,
            accept: request.accept,
            query: request.query,
          })
          const serve = servers[cluster.server]
          if (!serve)
            throw new CpcredError('cannot reach the target: connection refused', {
              exitCode: ExitCode.Unreachable,
            })
          return serve(request)
        },
        async watch(request, _action, onEvent, signal) {
          const watcher = watchers[cluster.server]
          if (!watcher) throw new CpcredError('not watched', {exitCode: ExitCode.Failure})
          return watcher(request, onEvent, signal)
        },
        close: async () => void closed.push(cluster.server),
      }),
    },
    discovery: {
      read: async (server) => kept.get(server),
      write: async (server, value) => void kept.set(server, value),
    },
    now: () => 0,
    date: () => new Date(NOW),
    reportPorts: async () => ({
      makeDirectory: () => undefined,
      writeReport: async (file, content) => void reports.push({file, content}),
      error: () => undefined,
    }),
  }
  return {ports, requests, closed, told, plugin, kept, reports}
}

/** A server: discovery, then a Table of `rows` for any list. */
function serving(rows: string[], extra: object[] = []): Server {
  const found = discovery(extra)
  return (request) => found[request.path] ?? table(rows)
}

const query = (over: Partial<GetQuery> = {}): GetQuery => ({
  items: [{resource: 'pods'}],
  allNamespaces: false,
  noHeaders: false,
  shape: 'table',
  ...over,
})

function input(names: string[], over: Partial<GetInput> = {}): GetInput {
  return {
    targets: {names, all: false, allNamespaces: false},
    query: query(),
    parallel: 4,
    reports: [],
    asGroups: [],
    stdinIsTTY: false,
    providers: {},
    noCache: false,
    verbose: false,
    profileMaxAgeMs: 0,
    profileMaxStaleMs: 0,
    ...over,
  }
}

describe('getCommand: failures first', () => {
  it('a target that cannot be reached is a failure of its own; the others answer; exit 1', async () => {
    const w = world([profile('eu'), profile('down'), profile('us')], {
      'https://eu.example': serving(['a']),
      'https://us.example': serving(['b']),
    })
    const outcome = await getCommand(
      w.ports,
      input(['eu', 'down', 'us'], {reports: [{kind: 'junit', file: '/r/get.xml'}]}),
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.deepEqual(outcome.failures, [
      {
        cluster: 'fleet/down',
        error: 'cannot reach the target: connection refused',
        exitCode: ExitCode.Unreachable,
      },
    ])
    assert.deepEqual(
      outcome.sections[0]!.answers.map((answer) => [answer.cluster, answer.table?.rows.length]),
      [
        ['fleet/eu', 1],
        ['fleet/us', 1],
      ],
    )
    assert.deepEqual(
      outcome.results.map((result) => [result.profile, result.exitCode]),
      [
        ['fleet/eu', 0],
        ['fleet/down', 3],
        ['fleet/us', 0],
      ],
    )
    assert.equal(w.reports.length, 1)
    assert.match(
      w.reports[0]!.content,
      /<testsuite name="cpcred get pods"[\s\S]*<testcase classname="fleet" name="down"[^/]*>\s*<error message="cannot reach the target: connection refused"/,
    )
  })

  it("a resource one target does not serve is that target's row; exit 1", async () => {
    const w = world([profile('eu'), profile('us')], {
      'https://eu.example': serving(
        ['w'],
        [{resource: 'widgets', responseKind: {kind: 'Widget'}, scope: 'Namespaced', verbs: ['list']}],
      ),
      'https://us.example': serving([]),
    })
    const outcome = await getCommand(
      w.ports,
      input(['eu', 'us'], {query: query({items: [{resource: 'widgets'}]})}),
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.deepEqual(outcome.failures, [])
    assert.deepEqual(
      outcome.sections.map((section) =>
        section.answers.map((answer) => [answer.cluster, answer.error ?? answer.table?.rows.length]),
      ),
      [
        [
          ['fleet/eu', 1],
          ['fleet/us', 'the server doesn\'t have a resource type "widgets"'],
        ],
      ],
    )
  })

  it('a credential plugin that fails fails its target with exit 5, not the run', async () => {
    const w = world([profile('eu')], {'https://eu.example': serving(['a'])})
    w.ports.plugins = plugins({exitCode: 1, stdout: '', stderr: 'no login'}).runner
    const outcome = await getCommand(w.ports, input(['eu']))
    assert.equal(outcome.failures[0]?.exitCode, ExitCode.PluginFailed)
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.deepEqual(w.requests, [], 'nothing is asked without a credential')
  })

  it('--timeout gives up on a target that does not answer, and closes its connections', async () => {
    const w = world([profile('slow'), profile('eu')], {
      'https://slow.example': () => new Promise(() => undefined),
      'https://eu.example': serving(['a']),
    })
    const outcome = await getCommand(w.ports, input(['slow', 'eu'], {timeoutMs: 50}))
    assert.deepEqual(outcome.failures, [
      {cluster: 'fleet/slow', error: 'timed out after 50ms', exitCode: ExitCode.Unreachable},
    ])
    assert.equal(outcome.results.find((result) => result.profile === 'fleet/slow')?.timedOut, true)
    assert.ok(w.closed.includes('https://slow.example'))
    assert.equal(outcome.sections[0]!.answers.length, 1)
  })

  it('a usage error of the selection (--min-targets) ends the run before any target is asked', async () => {
    const w = world([profile('eu')], {'https://eu.example': serving(['a'])})
    await assert.rejects(
      getCommand(
        w.ports,
        input(['eu'], {targets: {names: ['eu'], all: false, allNamespaces: false, minTargets: 2}}),
      ),
      /fewer|at least|min/i,
    )
    assert.deepEqual(w.requests, [])
  })
})

describe('getCommand: one profile named by itself, read as exec reads it', () => {
  /** The hub's reads and the selection's hub opened, with copies of profiles kept `kept`. */
  function oneNamed(read: () => ClusterProfile | Error, kept: ReturnType<typeof snapshot>[]) {
    const w = world([profile('eu')], {'https://eu.example': serving(['a'])})
    const reader = profileHub(read)
    const remembered = snapshots(kept)
    w.ports.recentProfiles = async () => ({hub: reader.hub, snapshots: remembered.snapshots, now: () => NOW})
    let selections = 0
    w.ports.targets = {
      openHub: async () => {
        selections += 1
        return targetHub([profile('eu')]).hub
      },
      notices: w.told.notices,
    }
    return {...w, reads: reader.reads, remembered: remembered.remembered, selections: () => selections}
  }

  it('a copy read within --profile-max-age answers: the hub is not asked', async () => {
    const w = oneNamed(() => assert.fail('the hub was asked'), [snapshot(1_000, profile('eu'))])
    const outcome = await getCommand(w.ports, input(['eu'], {profileMaxAgeMs: 5_000}))
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.deepEqual(w.reads, [])
    assert.equal(w.selections(), 0)
    assert.deepEqual(w.requests.at(-1)?.server, 'https://eu.example')
  })

  it('an older copy is read again from the hub and kept; --no-cache neither reads nor keeps one', async () => {
    const w = oneNamed(() => profile('eu'), [snapshot(60_000, profile('eu'))])
    await getCommand(w.ports, input(['eu'], {profileMaxAgeMs: 5_000}))
    assert.deepEqual(
      w.reads.map((read) => [read.name, read.remember]),
      [['eu', true]],
    )
    assert.equal(w.remembered.length, 1)
    const fresh = oneNamed(() => profile('eu'), [snapshot(1_000, profile('eu'))])
    await getCommand(fresh.ports, input(['eu'], {profileMaxAgeMs: 5_000, noCache: true}))
    assert.deepEqual(
      fresh.reads.map((read) => [read.name, read.remember]),
      [['eu', false]],
    )
    assert.equal(fresh.remembered.length, 0)
  })

  it('while the hub is down, the last copy serves with a warning, and only a cached credential', async () => {
    const w = oneNamed(() => outage(), [snapshot(3600_000, profile('eu'))])
    const outcome = await getCommand(w.ports, input(['eu'], {profileMaxStaleMs: 24 * 3600_000}))
    assert.equal(w.told.said.warnings.length, 1)
    assert.match(w.told.said.warnings[0]!, /fleet\/eu/)
    assert.match(outcome.failures[0]?.error ?? '', /no credential for fleet\/eu is left in the cache/)
    assert.equal(w.plugin.runs.length, 0)
    assert.deepEqual(w.requests, [])
  })

  it('a name with -A, -l, --healthy or --min-targets 2 is a selection: the hub is asked', async () => {
    const selections = [
      {names: ['eu'], all: false, allNamespaces: true},
      {names: ['eu'], all: false, allNamespaces: false, healthy: true},
      {names: ['eu'], all: false, allNamespaces: false, minTargets: 2},
    ]
    for (const targets of selections) {
      const w = oneNamed(() => assert.fail('read as one profile'), [snapshot(1_000, profile('eu'))])
      await getCommand(w.ports, input(['eu'], {targets, profileMaxAgeMs: 5_000})).catch(() => undefined)
      assert.equal(w.selections(), 1, JSON.stringify(targets))
    }
  })
})

describe('getCommand: answers', () => {
  it('asks each target for a Table by the resolved resource, in the selection order; names put together', async () => {
    const w = world([profile('eu'), profile('us')], {
      'https://eu.example': serving(['x']),
      'https://us.example': serving(['y']),
    })
    const outcome = await getCommand(
      w.ports,
      input(['eu', 'us'], {
        query: query({
          items: [
            {resource: 'deploy', name: 'x'},
            {resource: 'deploy', name: 'y'},
          ],
          namespace: 'web',
        }),
      }),
    )
    assert.equal(outcome.exitCode, ExitCode.Success)
    const asked = w.requests.filter(
      (request) => !request.path.startsWith('/api/') && request.path !== '/api' && request.path !== '/apis',
    )
    assert.deepEqual(asked.map((request) => `${request.server}${request.path}`).sort(), [
      'https://eu.example/apis/apps/v1/namespaces/web/deployments/x',
      'https://eu.example/apis/apps/v1/namespaces/web/deployments/y',
      'https://us.example/apis/apps/v1/namespaces/web/deployments/x',
      'https://us.example/apis/apps/v1/namespaces/web/deployments/y',
    ])
    assert.equal(outcome.sections.length, 1)
    assert.equal(outcome.sections[0]!.resource?.resource, 'deployments')
    assert.deepEqual(
      outcome.sections[0]!.answers.map((answer) => answer.table?.rows.length),
      [2, 2],
    )
  })

  it('keeps discovery per server: a second run asks for none', async () => {
    const servers = {'https://eu.example': serving(['a'])}
    const first = world([profile('eu')], servers)
    await getCommand(first.ports, input(['eu']))
    assert.deepEqual(
      first.requests
        .map((request) => request.path)
        .filter((path) => path === '/api' || path === '/apis')
        .sort(),
      ['/api', '/apis'],
    )
    const second = world([profile('eu')], servers, first.kept)
    const outcome = await getCommand(second.ports, input(['eu']))
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.deepEqual(
      second.requests.map((request) => request.path),
      ['/api/v1/namespaces/default/pods'],
    )
  })

  it('asks for discovery again when a word is not in what was kept (a CRD added since), once', async () => {
    const kept = new Map<string, CachedDiscovery>()
    const first = world([profile('eu')], {'https://eu.example': serving(['a'])}, kept)
    await getCommand(first.ports, input(['eu']))
    const widget = {resource: 'widgets', responseKind: {kind: 'Widget'}, scope: 'Namespaced', verbs: ['list']}
    const second = world([profile('eu')], {'https://eu.example': serving(['w'], [widget])}, kept)
    const outcome = await getCommand(
      second.ports,
      input(['eu'], {query: query({items: [{resource: 'widgets'}]})}),
    )
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.deepEqual(second.requests.map((request) => request.path).sort(), [
      '/api',
      '/apis',
      '/apis/apps/v1/namespaces/default/widgets',
    ])
  })

  it('discovery older than 6 hours is asked again', async () => {
    const kept = new Map<string, CachedDiscovery>([
      ['https://eu.example', {fetchedAt: NOW - 7 * 3600_000, resources: []}],
    ])
    const w = world([profile('eu')], {'https://eu.example': serving(['a'])}, kept)
    await getCommand(w.ports, input(['eu']))
    assert.ok(w.requests.some((request) => request.path === '/apis'))
    assert.equal(kept.get('https://eu.example')?.fetchedAt, NOW)
  })

  it('targets that need the same credential share one plugin run', async () => {
    const same = (name: string) => {
      const p = profile(name)
      p.status!.accessProviders![0]!.cluster!.server = 'https://spoke.example'
      return p
    }
    const w = world([same('a'), same('b'), same('c')], {'https://spoke.example': serving(['p'])})
    const outcome = await getCommand(w.ports, input(['a', 'b', 'c']))
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.equal(w.plugin.runs.length, 1)
  })

  it('-o json asks for the objects and annotates each with its profile, told as each target answers', async () => {
    const list = {kind: 'PodList', apiVersion: 'v1', items: [{metadata: {name: 'p'}}]}
    const found = discovery()
    const w = world([profile('eu')], {'https://eu.example': (request) => found[request.path] ?? list})
    const streamed: string[] = []
    w.ports.onObjects = (cluster, objects) => streamed.push(`${cluster}:${objects.length}`)
    const outcome = await getCommand(w.ports, input(['eu'], {query: query({shape: 'objects'})}))
    const last = w.requests.at(-1)!
    assert.equal(last.accept, 'application/json')
    const [object] = outcome.sections[0]!.answers[0]!.objects!
    assert.deepEqual(object, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'p', annotations: {'multicluster.x-k8s.io/cluster-profile': 'fleet/eu'}},
    })
    assert.deepEqual(streamed, ['fleet/eu:1'])
  })
})

describe('getWatchCommand: the first table, then each change on every target', () => {
  /** A one-row Table of a watch's event; the server sends the columns with a watch's first event only. */
  const event = (type: TargetEvent['type'], name: string, resourceVersion: string, columns: boolean) => ({
    type,
    object: {
      kind: 'Table',
      ...(columns ? {columnDefinitions: table([]).columnDefinitions} : {}),
      metadata: {resourceVersion},
      rows: [{cells: [name, '0s'], object: {metadata: {name, namespace: 'default', resourceVersion}}}],
    },
  })
  const listed = (names: string[]) => () => ({...table(names), metadata: {resourceVersion: '10'}})

  it('follows each target from its answer, resumes after a failure where it stopped, and tells its changes', async () => {
    const stop = new AbortController()
    const asked: string[] = []
    let eu = 0
    const w = world(
      [profile('eu'), profile('us')],
      {'https://eu.example': serving(['a']), 'https://us.example': serving(['b'])},
      undefined,
      {
        'https://eu.example': async (request, onEvent) => {
          asked.push(`eu@${request.resourceVersion} ${request.accept}`)
          if (++eu === 1) {
            onEvent(event('ADDED', 'c', '11', true))
            throw new CpcredError('cannot reach the target: connection refused', {
              exitCode: ExitCode.Unreachable,
            })
          }
          onEvent(event('DELETED', 'c', '12', false))
          stop.abort()
        },
        'https://us.example': async (request, onEvent, signal) => {
          asked.push(`us@${request.resourceVersion}`)
          onEvent(event('ADDED', 'd', '11', true))
          await new Promise((resolve) => signal.addEventListener('abort', resolve))
        },
      },
    )
    for (const server of ['https://eu.example', 'https://us.example'])
      w.ports.apis = wrapList(w.ports.apis, server, listed([server === 'https://eu.example' ? 'a' : 'b']))
    const firsts: string[][] = []
    const changes: GetChange[] = []
    const code = await getWatchCommand(
      {
        ...w.ports,
        sleep: async () => undefined,
        view: {
          all: (outcome) => void firsts.push(outcome.sections[0]!.answers.map((answer) => answer.cluster)),
          change: (change) => void changes.push(change),
        },
      },
      {...input(['eu', 'us']), signal: stop.signal},
    )
    assert.equal(code, ExitCode.Success)
    assert.deepEqual(firsts, [['fleet/eu', 'fleet/us']])
    const told = (cluster: string) =>
      changes
        .filter((change) => change.cluster === cluster)
        .map(({type, table}) => [type, table?.rows[0]?.cells[0], table?.columnDefinitions.length])
    // The DELETED event came without columns: those of the watch's first event stand in.
    assert.deepEqual(told('fleet/eu'), [
      ['ADDED', 'c', 2],
      ['DELETED', 'c', 2],
    ])
    assert.deepEqual(told('fleet/us'), [['ADDED', 'd', 2]])
    // From the first answer's resourceVersion, then from the last event's; as a Table, as kubectl -w asks.
    assert.deepEqual(
      asked.filter((line) => line.startsWith('eu')),
      [
        'eu@10 application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
        'eu@11 application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      ],
    )
    assert.deepEqual(
      asked.filter((line) => line.startsWith('us')),
      ['us@10'],
    )
    assert.match(
      w.told.said.warnings.join('\n'),
      /fleet\/eu: cannot reach the target: connection refused; retrying in/,
    )
    assert.deepEqual([...w.closed].sort(), ['https://eu.example', 'https://us.example'])
  })

  it('a target that failed its first answer is not followed; exit 1 when the watch ends', async () => {
    const stop = new AbortController()
    const w = world([profile('eu'), profile('down')], {'https://eu.example': serving(['a'])}, undefined, {
      'https://eu.example': async (_request, _onEvent, signal) => {
        stop.abort()
        await new Promise((resolve) =>
          signal.aborted ? resolve(undefined) : signal.addEventListener('abort', resolve),
        )
      },
    })
    w.ports.apis = wrapList(w.ports.apis, 'https://eu.example', listed(['a']))
    const code = await getWatchCommand(
      {...w.ports, view: {all: () => undefined, change: () => assert.fail('no change')}},
      {...input(['eu', 'down']), signal: stop.signal},
    )
    assert.equal(code, ExitCode.Failure)
  })
})

/** `apis` whose list requests to `server` answer `list()` (a Table with its resourceVersion). */
function wrapList(apis: GetPorts['apis'], server: string, list: () => unknown): GetPorts['apis'] {
  return {
    open(target) {
      const api = apis.open(target)
      if (target.cluster.server !== server) return api
      return {
        ...api,
        get: async (request, action) =>
          request.path.startsWith('/api/v1/namespaces/') ? list() : api.get(request, action),
      }
    },
  }
}
