// The test environment acts only on clusters it started from this checkout. A copied checkout keeps
// .testenv/env.json, with the original's absolute paths and pids: its status, down and demo must
// refuse that file and leave the original's clusters running. A pid is signalled only while it is
// still the recorded process, and status asks the servers rather than trusting pids.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {cp, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {
  adminConnection,
  CHECKOUT,
  down,
  envFile,
  isRunning,
  stopApiserver,
  type TestEnv,
} from '../testenv/testenv.js'
import {kubeRequest, waitFor} from '../testenv/http.js'
import {repoRoot, runProgram, tempDir} from '../helpers/env.js'

const SKIPPED = new Set(['node_modules', 'dist', '.git', '.testenv', 'oclif.manifest.json'])

/** A copy of this checkout's files (node_modules linked, not copied), as `cp -r` would make one. */
async function copyCheckout(from: string, to: string): Promise<void> {
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !SKIPPED.has(path.relative(from, source).split(path.sep)[0]!),
  })
  await symlink(path.join(repoRoot, 'node_modules'), path.join(to, 'node_modules'))
}

const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs')
/** `npm run testenv -- ARGS` (or another script of the checkout) run in `checkout`. */
const inCheckout = (checkout: string, script: string, args: string[] = []) =>
  // The real environment: the binaries are cached under the user's XDG_CACHE_HOME.
  runProgram(process.execPath, [tsx, script, ...args], {
    cwd: checkout,
    env: {...process.env, CPCRED_DEMO_DIR: '', NO_COLOR: '1'},
  })

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the test environment never acts on clusters this checkout did not start', () => {
  let original: string
  let env: TestEnv
  let handStarted: number | undefined

  before(async () => {
    // The original checkout, with its environment in .testenv as `npm run testenv -- up` leaves it.
    original = path.join(await tempDir('cpcred-checkout-'), 'original')
    await copyCheckout(repoRoot, original)
    const started = await inCheckout(original, 'test/testenv/cli.ts', ['up'])
    assert.equal(started.code, 0, started.stderr)
    // Read as it is: this checkout's readEnv refuses it, since the copy started it.
    env = JSON.parse(await readFile(envFile(path.join(original, '.testenv')), 'utf8')) as TestEnv
  })
  after(async () => {
    if (handStarted !== undefined) {
      try {
        process.kill(handStarted, 'SIGKILL')
      } catch {
        // It has already gone.
      }
    }
    await inCheckout(original, 'test/testenv/cli.ts', ['down'])
    await rm(path.dirname(original), {recursive: true, force: true})
  })

  const serving = async (cluster: 'hub' | 'spoke') => {
    const response = await kubeRequest(await adminConnection(env[cluster]), 'GET', '/readyz').catch(
      () => undefined,
    )
    return response?.status === 200
  }

  it('a copied checkout refuses its copy of .testenv: status, demo and down leave the original running', async () => {
    const copy = path.join(path.dirname(original), 'copy')
    await copyCheckout(original, copy)
    await cp(path.join(original, '.testenv'), path.join(copy, '.testenv'), {recursive: true})

    const refused = new RegExp(
      `refusing to act on the test environment recorded in ${path.join(copy, '.testenv', 'env.json')}: it was written for ${path.join(original, '.testenv')}`,
    )
    const status = await inCheckout(copy, 'test/testenv/cli.ts', ['status'])
    assert.equal(status.code, 1, status.stdout)
    assert.match(status.stderr, refused)
    assert.doesNotMatch(status.stdout, /serving|running/)

    const demo = await inCheckout(copy, 'scripts/demo.ts')
    assert.equal(demo.code, 1, demo.stdout)
    assert.match(demo.stderr, refused)
    // Nothing was applied to the original's hub, nor written into its directory.
    const hub = await adminConnection(env.hub)
    assert.equal((await kubeRequest(hub, 'GET', '/api/v1/namespaces/cpcred-demo')).status, 404)
    const written = await runProgram('ls', [path.join(original, '.testenv')])
    assert.doesNotMatch(written.stdout, /providers\.json|consumer\.kubeconfig/)

    const stopped = await inCheckout(copy, 'test/testenv/cli.ts', ['down'])
    assert.equal(stopped.code, 1, stopped.stdout)
    assert.match(stopped.stderr, refused)
    // The copy's state is left for the user to remove: down deleted nothing.
    assert.ok((await readFile(path.join(copy, '.testenv', 'env.json'), 'utf8')).length > 0)

    for (const info of env.processes) assert.ok(isRunning(info), `${info.name} of the original still runs`)
    assert.ok(await serving('hub'))
    assert.ok(await serving('spoke'))
    const own = await inCheckout(original, 'test/testenv/cli.ts', ['status'])
    assert.equal(own.code, 0, own.stderr)
    assert.match(own.stdout, /^hub: +https:\/\/127\.0\.0\.1:\d+ +serving$/m)
  })

  it('a state file of another checkout is refused even in the same directory', async () => {
    const dir = await tempDir('cpcred-foreign-env-')
    const foreign = {...env, dir, checkout: path.join(path.dirname(original), 'elsewhere')}
    await writeFile(envFile(dir), JSON.stringify(foreign), {mode: 0o600})
    await assert.rejects(
      () => down(dir),
      new RegExp(`it was started by the checkout in ${foreign.checkout}, not by this one \\(${CHECKOUT}\\)`),
    )
    for (const info of env.processes) assert.ok(isRunning(info), `${info.name} still runs`)
  })

  it('down signals a recorded pid only while it is the recorded process (command line and start time)', async () => {
    const sleeper = spawn('sleep', ['300'], {detached: true, stdio: 'ignore'})
    const pid = sleeper.pid!
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!
    const withProcess = async (recorded: TestEnv['processes'][number]) => {
      const dir = await tempDir('cpcred-pids-')
      await writeFile(envFile(dir), JSON.stringify({...env, dir, checkout: CHECKOUT, processes: [recorded]}))
      await down(dir)
    }
    const alive = () => isRunning({pid, binary: 'sleep', args: ['300']})
    try {
      // The pid now runs something else than what was recorded, or started later: left alone.
      await withProcess({
        name: 'hub-apiserver',
        pid,
        log: '',
        binary: env.processes[0]!.binary,
        args: ['--x'],
      })
      assert.ok(alive(), 'another command line is not signalled')
      await withProcess({name: 'hub-etcd', pid, log: '', binary: 'sleep', args: ['300'], startTime: '1'})
      assert.ok(alive(), 'another start time is not signalled')
      // The very process recorded: stopped (so the checks above could have failed).
      await withProcess({name: 'hub-etcd', pid, log: '', binary: 'sleep', args: ['300'], startTime})
      await waitFor('sleep to stop', 5_000, async () => (alive() ? undefined : true))
    } finally {
      sleeper.kill('SIGKILL')
    }
  })

  it('status asks the servers: a hub restarted by hand is serving, and down leaves it alone', async () => {
    const hubProcess = env.processes.find((recorded) => recorded.name === 'hub-apiserver')!
    await stopApiserver(env, 'hub')
    assert.equal(await serving('hub'), false)
    const restarted = spawn(hubProcess.binary, hubProcess.args, {detached: true, stdio: 'ignore'})
    handStarted = restarted.pid
    restarted.unref()
    await waitFor('the hub restarted by hand', 90_000, async () =>
      (await serving('hub')) ? true : undefined,
    )

    const status = await inCheckout(original, 'test/testenv/cli.ts', ['status'])
    assert.equal(status.code, 0, status.stdout + status.stderr)
    assert.match(
      status.stdout,
      /^hub: +https:\/\/\S+ +serving \(not by the process this environment started/m,
    )
    assert.match(status.stdout, /^spoke: +https:\/\/\S+ +serving$/m)
    assert.match(status.stdout, /^hub-apiserver +pid \d+ +stopped$/m)

    const stopped = await inCheckout(original, 'test/testenv/cli.ts', ['down'])
    assert.equal(stopped.code, 0, stopped.stderr)
    await pause(500)
    assert.ok(
      isRunning({pid: handStarted!, binary: hubProcess.binary, args: hubProcess.args}),
      'the hub started by hand was not signalled',
    )
  })
})
