// The plugin runner against real processes: shell wrappers as users write them around cloud CLIs.
import assert from 'node:assert/strict'
import {mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {STOP_GRACE_MS} from '../../src/adapters/process-group.js'
import {pluginRunner, type PluginRunRequest} from '../../src/adapters/process.js'
import {isAlive, shellScript, waitForPids, waitGone} from '../helpers/processes.js'

const CREDENTIAL =
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'

describe('pluginRunner', () => {
  let dir: string
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-runner-'))
  })
  after(() => rm(dir, {recursive: true, force: true}))

  const run = (command: string, request: Partial<PluginRunRequest> = {}) =>
    pluginRunner.run({
      command,
      args: [],
      env: {},
      interactive: false,
      timeoutMs: 10_000,
      maxStdoutBytes: 1024 * 1024,
      ...request,
    })

  async function timed<T>(action: () => Promise<T>): Promise<{value: T; ms: number}> {
    const started = performance.now()
    const value = await action()
    return {value, ms: performance.now() - started}
  }

  it('stops a shell wrapper whose child hangs (sleep without exec) at the timeout, child and all', async () => {
    const pids = path.join(dir, 'hung.pids')
    const wrapper = await shellScript(
      dir,
      'hung-wrapper',
      `echo "asking the identity provider" >&2\nsh -c 'echo $$ >> "${pids}"; exec sleep 30'\necho never`,
    )
    const {value: result, ms} = await timed(() => run(wrapper, {timeoutMs: 1000}))
    assert.equal(result.timedOut, true)
    assert.equal(result.exitCode, undefined)
    assert.match(result.stderr, /asking the identity provider/)
    // SIGTERM ends both at once: well before the grace runs out.
    assert.ok(ms < 1000 + STOP_GRACE_MS, `took ${Math.round(ms)} ms`)
    assert.ok(await waitGone(await waitForPids(pids)), 'the hung child was stopped too')
  })

  it('kills a grandchild that ignores SIGTERM after the grace, and stops waiting for it', async () => {
    const pids = path.join(dir, 'stubborn.pids')
    const wrapper = await shellScript(
      dir,
      'stubborn-wrapper',
      `sh -c 'trap "" TERM; echo $$ >> "${pids}"; while :; do sleep 1; done' &\nwait`,
    )
    const {value: result, ms} = await timed(() => run(wrapper, {timeoutMs: 1000}))
    assert.equal(result.timedOut, true)
    assert.ok(
      ms >= 1000 + STOP_GRACE_MS - 100,
      `SIGTERM alone cannot stop it, yet it took ${Math.round(ms)} ms`,
    )
    assert.ok(ms < 1000 + STOP_GRACE_MS + 2000, `took ${Math.round(ms)} ms`)
    assert.ok(await waitGone(await waitForPids(pids)), 'SIGKILL reached the grandchild')
  })

  it('does not wait for a daemon that escaped the group and holds stdout after the plugin exited', async () => {
    const pids = path.join(dir, 'escaped.pids')
    const wrapper = await shellScript(
      dir,
      'daemonizing-wrapper',
      `setsid sh -c 'echo $$ >> "${pids}"; exec sleep 20' &\nprintf '%s' '${CREDENTIAL}'`,
    )
    const {value: result, ms} = await timed(() => run(wrapper))
    assert.equal(result.exitCode, 0)
    assert.equal(result.stdout, CREDENTIAL)
    assert.ok(ms < 3000, `took ${Math.round(ms)} ms`)
    // A successful plugin's helpers are left alone: they are not cpcred's to stop.
    const [daemon] = await waitForPids(pids)
    assert.ok(isAlive(daemon!))
    process.kill(daemon!, 'SIGKILL')
  })

  it('stops a plugin that floods stdout once past the limit', async () => {
    const flood = await shellScript(dir, 'flood', 'yes credential')
    const result = await run(flood, {maxStdoutBytes: 64 * 1024})
    assert.equal(result.outputTooLarge, true)
    assert.ok(result.stdout.length <= 64 * 1024)
  })

  it('keeps only the end of a huge stderr', async () => {
    const noisy = await shellScript(
      dir,
      'noisy',
      `head -c 3000000 /dev/zero | tr '\\0' 'x' >&2\necho last line >&2\nprintf '%s' '${CREDENTIAL}'`,
    )
    const result = await run(noisy)
    assert.equal(result.exitCode, 0)
    assert.ok(result.stderr.length <= 128 * 1024, `kept ${result.stderr.length} bytes`)
    assert.match(result.stderr, /last line\n$/)
  })

  it('reports a plugin killed by a signal, one not found, and one not executable', async () => {
    const suicidal = await shellScript(dir, 'killed', 'kill -9 $$')
    const killed = await run(suicidal)
    assert.equal(killed.exitCode, undefined)
    assert.equal(killed.signal, 'SIGKILL')

    const missing = await run(path.join(dir, 'nonexistent'))
    assert.equal(missing.notFound, true)

    const notExecutable = await shellScript(dir, 'not-executable', 'exit 0')
    const {chmod} = await import('node:fs/promises')
    await chmod(notExecutable, 0o644)
    const refused = await run(notExecutable)
    assert.equal(refused.startError, 'EACCES')
  })

  it('passes the environment and exit code through', async () => {
    const script = await shellScript(dir, 'env', 'printf "%s" "$PLUGIN_GREETING"; exit 3')
    const result = await run(script, {env: {PLUGIN_GREETING: 'hello'}})
    assert.deepEqual([result.exitCode, result.stdout], [3, 'hello'])
  })
})
