import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, DiedOfSignal} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {execCommand, type ExecInput, type ExecPorts} from '../../src/usecases/exec.js'
import {runWithTerminal, TIMED_OUT_EXIT_CODE} from '../../src/usecases/exec-one.js'
import type {ChildResult} from '../../src/usecases/ports.js'
import {FAN_OUT_PRESENTERS} from '../../src/core/fleet/fan-out-presenters.js'
import {
  answers,
  children,
  fanOutPorts,
  NOW,
  execCredentialJson,
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
  temp,
} from './usecase-fakes.js'

const input: ExecInput = {
  question: {command: 'exec', words: ['fleet/eu']},
  targets: {names: ['fleet/eu'], all: false, allNamespaces: false},
  alone: true,
  fanOut: {
    parallel: 4,
    failFast: false,
    presenter: FAN_OUT_PRESENTERS.text,
    quiet: false,
    reports: [],
    stdin: 'none',
  },
  command: ['kubectl', 'get', 'pods'],
  providers: {},
  noCache: false,
  verbose: false,
  profileMaxAgeMs: 5_000,
  profileMaxStaleMs: 24 * 3600_000,
  asGroups: [],
  stdinIsTTY: true,
  renewCommand: (name) => ['cpcred', 'credential', name],
}

function world(
  options: {
    read?: () => ClusterProfile | Error
    kept?: ReturnType<typeof snapshot>[]
    exit?: () => Partial<ChildResult>
    targets?: ClusterProfile[]
    pluginStdout?: string
  } = {},
) {
  const hub = profileHub(options.read ?? (() => profile()))
  const kept = snapshots(options.kept)
  const plugin = plugins(options.pluginStdout === undefined ? {} : {stdout: options.pluginStdout})
  const cache = store()
  const book = answers()
  const told = notices()
  const child = children(options.exit)
  const files = temp()
  const fanOut = fanOutPorts()
  // The profiles of each fan-out, as its view was opened with them.
  const fannedOut = fanOut.views
  let forwarding = 0
  const ports: ExecPorts = {
    recentProfiles: async () => ({hub: hub.hub, snapshots: kept.snapshots, now: () => NOW}),
    providers: providerSource().source,
    plugins: plugin.runner,
    store: async () => cache.store,
    answers: async () => book.book,
    commands: async () => ({
      children: child.runner,
      temp: files.temp,
      renew: async () => assert.fail('no renewal expected'),
      forwardingSignals: async (_forward, action) => {
        forwarding++
        return action()
      },
    }),
    now: () => 0,
    notices: told.notices,
    targets: {
      openHub: async () =>
        options.targets ? targetHub(options.targets).hub : assert.fail('one named target is not selected'),
      pick: async (profiles) => profiles,
      notices: told.notices,
    },
    fanOutPorts: async () => fanOut.ports,
  }
  return {ports, hub, plugin, cache, book, told, child, files, fannedOut, forwarding: () => forwarding}
}

describe('exec on one target: failures first', () => {
  it('fails with the shell status 127 when the command is not found, and removes its files', async () => {
    const w = world({exit: () => ({exitCode: 127, notFound: true, startError: 'command not found'})})
    await assert.rejects(execCommand(w.ports, input), (error) => {
      assert.ok(error instanceof CpcredError)
      assert.equal(error.exitCode, 127)
      assert.match(error.message, /^kubectl: command not found/)
      return true
    })
    assert.equal(w.files.files.size, 0, 'the kubeconfig and credential files are removed')
    assert.equal(w.files.disposed(), 1)
  })

  it('without a target, says so before it says that no provider is configured', async () => {
    const w = world({targets: []})
    w.ports.providers = {
      load: async () => ({
        source: 'no provider file',
        warnings: [],
        providers: [],
        required: () => assert.fail('providers were required before the targets were known'),
      }),
    }
    // Not on a terminal: nobody can be asked to pick.
    w.ports.targets.pick = undefined
    await assert.rejects(
      execCommand(w.ports, {
        ...input,
        question: undefined,
        targets: {names: [], all: false, allNamespaces: false},
      }),
      /no target given/,
    )
  })

  it('dies of SIGINT when the command did, so that the shell sees ^C', async () => {
    const w = world({exit: () => ({exitCode: 130, signal: 'SIGINT'})})
    await assert.rejects(execCommand(w.ports, input), (error) => error instanceof DiedOfSignal)
    assert.equal(w.files.files.size, 0)
  })

  it('runs nothing when the plugin fails', async () => {
    const w = world()
    w.ports.plugins = plugins({exitCode: 2, stdout: ''}).runner
    await assert.rejects(execCommand(w.ports, input), /exited with code 2/)
    assert.equal(w.child.started.length, 0)
    assert.equal(w.files.disposed(), 1)
  })

  it('during a hub outage runs nothing without a cached credential', async () => {
    const w = world({read: () => outage(), kept: [snapshot(3600_000)]})
    await assert.rejects(execCommand(w.ports, input), /no credential for fleet\/eu is left in the cache/)
    assert.equal(w.plugin.runs.length, 0)
    assert.equal(w.child.started.length, 0)
    assert.equal(w.told.said.warnings.length, 1)
  })

  it('keeps no answer with --timeout, and stops the command in a group of its own', async () => {
    const w = world({kept: [snapshot(1_000)]})
    const code = await execCommand(w.ports, {...input, timeoutMs: 60_000})
    assert.equal(code, 0)
    assert.deepEqual(w.book.begun, [])
    assert.equal(w.child.started[0]!.ownGroup, true)
  })
})

describe('exec on one target', () => {
  it('runs the command with the terminal against a private kubeconfig, and its exit code is ours', async () => {
    const w = world({kept: [snapshot(1_000)], exit: () => ({exitCode: 3})})
    assert.equal(await execCommand(w.ports, input), 3)
    const [{request, mode}] = w.child.started as [(typeof w.child.started)[0]]
    assert.equal(mode, 'inherited')
    assert.deepEqual([request.command, ...request.args], ['kubectl', 'get', 'pods'])
    assert.match(request.env.KUBECONFIG!, /^\/run\/cpcred\/kubeconfig-/)
    assert.equal(request.env.CPCRED_PROFILE, 'eu')
    assert.equal(request.env.CPCRED_NAMESPACE, 'fleet')
    assert.equal(w.forwarding(), 1, "cpcred's signals go to the command while it runs")
    assert.equal(w.files.files.size, 0)
  })

  it('keeps the prepared target as the answer to the same exec', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await execCommand(w.ports, input)
    assert.deepEqual(w.book.begun, [{command: 'exec', words: ['fleet/eu']}])
    assert.equal(w.book.kept.length, 1)
    const target = JSON.parse(w.book.kept[0]!.payload) as {
      env: Record<string, string>
      credential: {token?: string}
    }
    assert.equal(target.env.CPCRED_PROFILE, 'eu')
    assert.match(target.credential.token!, /fresh-token/)
  })

  it("renews a short credential's file early enough for kubectl to re-read it before it expires", async () => {
    // 100 s: a command must start with half of it left (50 s), but kubectl re-reads a token file
    // only every 50 s, so the renewal asks for 70 s left, which the cached copy no longer has.
    const expiresAt = new Date(Date.now() + 100_000)
    const w = world({kept: [snapshot(1_000)], pluginStdout: execCredentialJson('short-token', expiresAt)})
    await execCommand(w.ports, input)
    const target = JSON.parse(w.book.kept[0]!.payload) as {refresh: {minLifetimeSeconds: number; at: number}}
    assert.equal(target.refresh.minLifetimeSeconds, 70)
    // Not before half of it has passed, so that a plugin of short credentials is not asked every few seconds.
    assert.ok(Math.abs(target.refresh.at - (expiresAt.getTime() - 50_000)) < 1_000, 'renewed halfway')
  })

  it('a single target picked (not named) runs alone, without an answer', async () => {
    const w = world({targets: [profile('us')]})
    const code = await execCommand(w.ports, {
      ...input,
      question: undefined,
      targets: {names: [], all: false, allNamespaces: false},
    })
    assert.equal(code, 0)
    assert.equal(w.child.started[0]!.mode, 'inherited')
    assert.deepEqual(w.book.kept, [])
    assert.deepEqual(w.fannedOut, [])
  })

  it('goes to the fan-out with CI output even for one target, and with many targets', async () => {
    const w = world({kept: [snapshot(1_000)]})
    await execCommand(w.ports, {...input, fanOut: {...input.fanOut, quiet: true}})
    const many = world({targets: [profile('a'), profile('b')]})
    await execCommand(many.ports, {
      ...input,
      alone: false,
      targets: {names: [], all: true, allNamespaces: false},
    })
    assert.deepEqual(
      [...w.fannedOut, ...many.fannedOut].map((profiles) => profiles.map((key) => key.split('/')[1])),
      [['eu'], ['a', 'b']],
    )
    // The fan-out runs every command (three) with prefixed output; none gets the terminal.
    assert.deepEqual(
      [...w.child.started, ...many.child.started].map((started) => started.mode),
      ['prefixed', 'prefixed', 'prefixed'],
    )
  })

  it('ends quietly when a selection matches nothing', async () => {
    const w = world({targets: []})
    const selection = {names: [], selector: 'env=none', all: false, allNamespaces: false}
    assert.equal(await execCommand(w.ports, {...input, alone: false, targets: selection}), 0)
    assert.deepEqual(w.fannedOut, [])
    assert.deepEqual(w.told.said.notes, ['No ClusterProfiles match -l env=none in fleet namespace.'])
  })
})

describe('runWithTerminal (the answered path)', () => {
  it('stops a command that outlives --timeout and exits 124 as timeout(1) does', async () => {
    const files = temp()
    const running = children()
    let stopped = 0
    const hanging = {
      ...running.runner,
      inherited: () => ({
        result: new Promise<ChildResult>((resolve) => {
          setTimeout(() => resolve({exitCode: 143, signal: 'SIGTERM', notFound: false}), 50)
        }),
        kill: () => undefined,
        stop: () => stopped++,
      }),
    }
    const target = {
      connection: {server: 'https://eu.example'},
      credential: {token: 't0k'},
      env: {CPCRED_PROFILE: 'eu', CPCRED_NAMESPACE: 'fleet'},
    }
    await assert.rejects(
      runWithTerminal(
        {
          children: hanging,
          temp: files.temp,
          renew: async () => '',
          forwardingSignals: (_f, action) => action(),
        },
        ['sleep', '60'],
        target as never,
        {timeoutMs: 1},
      ),
      (error) => error instanceof CpcredError && error.exitCode === TIMED_OUT_EXIT_CODE,
    )
    assert.equal(stopped, 1)
    assert.equal(files.files.size, 0)
  })
})
