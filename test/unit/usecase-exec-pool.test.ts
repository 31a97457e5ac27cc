import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ExitCode} from '../../src/core/errors.js'
import type {TargetResult} from '../../src/core/fleet/fan-out-report.js'
import {runTargets, type PoolInput} from '../../src/usecases/exec-pool.js'
import type {TargetRunPorts} from '../../src/usecases/exec-prepare.js'
import type {ChildRequest, ChildResult, RunningChild} from '../../src/usecases/ports.js'
import {children, plugins, profile, provider, targetRunInput, targetRunPorts} from './usecase-fakes.js'

function deps(overrides: Partial<TargetRunPorts> = {}) {
  const child = children()
  const signals: Array<(signal: NodeJS.Signals) => void> = []
  const {ports: value, files} = targetRunPorts(child.runner, {
    forwardingSignals: async (forward, action) => {
      signals.push(forward)
      return action()
    },
    ...overrides,
  })
  return {deps: value, files, child, signals}
}

const input = targetRunInput()

function options(overrides: Partial<PoolInput> = {}) {
  const done: TargetResult[] = []
  const value: PoolInput = {
    parallel: 2,
    failFast: false,
    openOutput: () => ({close: () => undefined}),
    onDone: (result) => done.push(result),
    ...overrides,
  }
  return {options: value, done}
}

/** Children that run until told: `finish(name, result)`. */
function heldChildren() {
  const waiting = new Map<string, (result: ChildResult) => void>()
  const killed: Array<[string, NodeJS.Signals]> = []
  const stopped: string[] = []
  const started: string[] = []
  const runner = {
    inherited: () => assert.fail('a fan-out never gives a target the terminal'),
    prefixed(request: ChildRequest): RunningChild {
      const name = request.env.CPCRED_PROFILE!
      started.push(name)
      return {
        result: new Promise((resolve) => waiting.set(name, resolve)),
        kill: (signal) => killed.push([name, signal]),
        stop: () => {
          stopped.push(name)
          waiting.get(name)?.({exitCode: 143, signal: 'SIGTERM', notFound: false})
        },
      }
    },
    close: async () => undefined,
  }
  const finish = (name: string, exitCode = 0) => waiting.get(name)?.({exitCode, notFound: false})
  return {runner, finish, killed, stopped, started}
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('runTargets: failures first', () => {
  it('reports a target whose plugin fails as not started, and runs the others', async () => {
    let runs = 0
    const failingOnce = {
      run: async (request: Parameters<ReturnType<typeof plugins>['runner']['run']>[0]) => {
        runs++
        return runs === 1
          ? {exitCode: 1, stdout: '', stderr: '', notFound: false, timedOut: false, outputTooLarge: false}
          : plugins().runner.run(request)
      },
    }
    const d = deps({plugins: failingOnce, cache: undefined})
    const o = options({parallel: 1})
    const outcome = await runTargets(d.deps, input, [profile('a'), profile('b')], o.options)
    assert.equal(outcome.results[0]!.started, false)
    assert.equal(outcome.results[0]!.exitCode, ExitCode.PluginFailed)
    assert.match(outcome.results[0]!.error!, /exited with code 1/)
    assert.equal(outcome.results[1]!.exitCode, 0)
    assert.equal(d.files.disposed(), 1)
  })

  it("keeps the hint of a failure: a plugin not found names the provider's installHint", async () => {
    const missing = plugins({notFound: true, exitCode: 127})
    const withHint = {
      ...input,
      providers: [{...provider(), execConfig: {...provider().execConfig, installHint: 'brew install idp'}}],
    }
    const d = deps({plugins: missing.runner, cache: undefined})
    const outcome = await runTargets(d.deps, withHint, [profile('a')], options().options)
    assert.match(outcome.results[0]!.error!, /command not found: \/bin\/idp/)
    assert.equal(outcome.results[0]!.hint, 'brew install idp')
  })

  it('with --fail-fast stops the running targets and starts no more after the first failure', async () => {
    const held = heldChildren()
    const d = deps({children: held.runner})
    const o = options({parallel: 2, failFast: true})
    const running = runTargets(d.deps, input, [profile('a'), profile('b'), profile('c')], o.options)
    while (held.started.length < 2) await tick()
    held.finish('a', 1)
    const outcome = await running
    assert.deepEqual(held.stopped, ['b'])
    assert.deepEqual(held.started, ['a', 'b'])
    assert.equal(outcome.results[2]!.started, false)
    assert.equal(outcome.results[2]!.error, 'not started (--fail-fast)')
  })

  it('passes a signal to every running command, starts none after it, and says which it was', async () => {
    const held = heldChildren()
    const d = deps({children: held.runner})
    const o = options({parallel: 2})
    const running = runTargets(d.deps, input, [profile('a'), profile('b'), profile('c')], o.options)
    while (held.started.length < 2) await tick()
    d.signals[0]!('SIGINT')
    held.finish('a', 130)
    held.finish('b', 130)
    const outcome = await running
    assert.deepEqual(held.killed, [
      ['a', 'SIGINT'],
      ['b', 'SIGINT'],
    ])
    assert.equal(outcome.interrupted, 'SIGINT')
    assert.equal(outcome.results[2]!.error, 'not started (interrupted by SIGINT)')
  })

  it('stops when told (the reader of the output has gone), and says it was stopped', async () => {
    const held = heldChildren()
    const d = deps({children: held.runner})
    const stop = new AbortController()
    const o = options({parallel: 1, stop: stop.signal})
    const running = runTargets(d.deps, input, [profile('a'), profile('b')], o.options)
    while (held.started.length < 1) await tick()
    stop.abort('the output was closed')
    const outcome = await running
    assert.deepEqual(held.stopped, ['a'])
    assert.equal(outcome.stopped, true)
    assert.equal(outcome.results[1]!.error, 'not started (the output was closed)')
  })

  it('reports a command it stopped because the reader went away as stopped, not as killed by SIGTERM', async () => {
    const held = heldChildren()
    const d = deps({children: held.runner})
    const stop = new AbortController()
    const o = options({parallel: 2, stop: stop.signal})
    const running = runTargets(d.deps, input, [profile('a'), profile('b')], o.options)
    while (held.started.length < 2) await tick()
    held.finish('a', 0)
    await tick()
    stop.abort('the output was closed')
    const outcome = await running
    assert.deepEqual(outcome.results[0], {profile: 'fleet/a', exitCode: 0, durationMs: 0, started: true})
    assert.deepEqual(outcome.results[1], {
      profile: 'fleet/b',
      exitCode: 143,
      durationMs: 0,
      started: true,
      signal: 'SIGTERM',
      stopped: true,
      error: 'stopped (the output was closed)',
    })
  })

  it('starts no command whose credential was still being obtained when told to stop', async () => {
    const held = heldChildren()
    let release: () => void = () => undefined
    const slowPlugin = {
      run: async (request: Parameters<ReturnType<typeof plugins>['runner']['run']>[0]) => {
        await new Promise<void>((resolve) => (release = resolve))
        return plugins().runner.run(request)
      },
    }
    const d = deps({children: held.runner, plugins: slowPlugin, cache: undefined})
    const stop = new AbortController()
    const o = options({parallel: 1, stop: stop.signal})
    const running = runTargets(d.deps, input, [profile('a')], o.options)
    await tick()
    stop.abort('the output was closed')
    release()
    const outcome = await running
    assert.deepEqual(held.started, [])
    assert.equal(outcome.results[0]!.error, 'not started (the output was closed)')
    assert.equal(d.files.disposed(), 1)
  })
})

describe('runTargets', () => {
  it('runs every target with its own kubeconfig, shares one plugin run, and removes every file', async () => {
    const plugin = plugins()
    const d = deps({plugins: plugin.runner})
    const o = options({parallel: 3})
    const outcome = await runTargets(d.deps, input, [profile('a'), profile('b'), profile('c')], o.options)
    assert.deepEqual(
      outcome.results.map((result) => [result.profile, result.exitCode]),
      [
        ['fleet/a', 0],
        ['fleet/b', 0],
        ['fleet/c', 0],
      ],
    )
    assert.equal(o.done.length, 3)
    const kubeconfigs = new Set(d.child.started.map(({request}) => request.env.KUBECONFIG))
    assert.equal(kubeconfigs.size, 3)
    assert.equal(d.child.started[0]!.mode, 'prefixed')
    assert.equal(d.files.files.size, 0)
    assert.equal(d.files.disposed(), 1)
    assert.equal(d.child.closed(), 1, 'what started the commands is let go once, after the last')
    assert.equal(plugin.runs.length, 3, 'three servers: three credentials')
  })

  it('runs the plugin once for targets that need the same credential', async () => {
    const plugin = plugins()
    const d = deps({plugins: plugin.runner})
    const same = (name: string) => ({...profile('shared'), metadata: {name, namespace: 'fleet'}})
    await runTargets(d.deps, input, [same('x'), same('y'), same('z')], options({parallel: 3}).options)
    assert.equal(plugin.runs.length, 1)
    assert.equal(d.child.started.length, 3)
  })
})
