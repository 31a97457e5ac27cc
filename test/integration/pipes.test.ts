// Output into pipes, as CI pipelines and shells read it: a slow reader, a pipe that a Node parent has
// made non-blocking, and a reader that stops after one line. What arrives must be what a file gets,
// with the same exit code and no EAGAIN/EPIPE text.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {
  applyProfile,
  cpcredBin,
  createNamespace,
  isolatedEnv,
  repoRoot,
  tempDir,
  testEnv,
} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

const FLEET_SIZE = 40
// 56 KB of annotation per profile: `list -o json` of the namespace is over 2 MB.
const PADDING = 'p'.repeat(56 * 1024)
// 100 KB per target, in lines of 100 characters, as in a log a CI job would pipe into grep.
const PRINTER = 'head -c 100000 /dev/zero | tr "\\0" a | fold -w 100'
const nonblockingParent = path.join(repoRoot, 'test', 'helpers', 'nonblocking-parent.mjs')

interface Outcome {
  code: number
  stdout: Buffer
  stderr: string
}

/** Runs `command` (argv) under bash with stdout into a file and returns what the file received. */
function viaShell(script: string, command: string[], env: NodeJS.ProcessEnv, dir: string): Promise<Outcome> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}`)
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'bash', out, ...command], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      readFile(out).then(
        (stdout) => resolve({code: code ?? -1, stdout, stderr}),
        () => resolve({code: code ?? -1, stdout: Buffer.alloc(0), stderr}),
      )
    })
  })
}

// $1 is the file; the rest is the command. The exit code is the command's, not the reader's.
const TO_FILE = 'out=$1; shift; "$@" > "$out"'
const SLOW_READER = 'out=$1; shift; "$@" | (sleep 1; cat > "$out"); exit "${PIPESTATUS[0]}"'
const FIRST_LINE = 'out=$1; shift; "$@" | head -1 > "$out"; exit "${PIPESTATUS[0]}"'

/** A Node parent shares its stdout with cpcred and makes it non-blocking; we read it paused for 1 s. */
function viaNonblockingParent(command: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nonblockingParent, ...command], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const chunks: Buffer[] = []
    let stderr = ''
    child.stdout.pause()
    setTimeout(() => child.stdout.resume(), 1000)
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout: Buffer.concat(chunks), stderr}))
  })
}

/** Output that differs between two runs by time alone (ages, durations) or by the order of targets. */
function comparable(text: string, unordered: boolean): string {
  // An age that gains a digit between runs widens its column: spaces are compared as one.
  const stable = text
    .replace(/\b\d+[smhd]\d+[smh]\b/g, 'T')
    .replace(/\b\d+(\.\d+)?(ms|s|m|h|d)\b/g, 'T')
    .replace(/ +/g, ' ')
  return unordered ? stable.split('\n').sort().join('\n') : stable
}

describe('output into pipes', () => {
  let fixture: SpokeFixture
  let env: NodeJS.ProcessEnv
  let dir: string

  before(async () => {
    // The plugin reports half the token's hour: doctor rightly warns when the reported expiry passes
    // the token's own, which a plugin reporting an hour from each run does once this file has run a
    // minute on a busy machine.
    fixture = await spokeFixture({prefix: 'pipes', pluginEnv: {PLUGIN_TTL_SECONDS: '1800'}})
    dir = await tempDir('cpcred-pipes-')
    const {env: testenv, hub} = await testEnv()
    for (let index = 1; index < FLEET_SIZE; index++) {
      await applyProfile(hub, {
        metadata: {
          name: `member-${String(index).padStart(2, '0')}`,
          namespace: fixture.namespace,
          annotations: {'cpcred.test/padding': PADDING},
        },
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {server: testenv.spoke.server, 'certificate-authority-data': testenv.spoke.caData},
            },
          ],
        },
      })
    }
    env = {
      ...isolatedEnv,
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: path.join(dir, 'cache'),
    }
  })

  const ns = () => ['-n', fixture.namespace]
  const providers = () => ['--provider-file', fixture.providerFile]
  const cases: Array<{what: string; args: () => string[]; unordered?: boolean; large?: boolean}> = [
    {what: 'list -o json', args: () => ['list', ...ns(), '-o', 'json'], large: true},
    {what: 'list -o yaml', args: () => ['list', ...ns(), '-o', 'yaml'], large: true},
    {what: 'list -o wide', args: () => ['list', ...ns(), '-o', 'wide', ...providers()]},
    {what: 'list', args: () => ['list', ...ns()]},
    {what: 'list -o name', args: () => ['list', ...ns(), '-o', 'name']},
    {what: 'describe', args: () => ['describe', `${fixture.namespace}/target`, ...providers()]},
    {what: 'kubeconfig --all', args: () => ['kubeconfig', ...ns(), '--all', ...providers()]},
    {
      what: 'exec on 40 targets, 100 KB each',
      args: () => ['exec', ...ns(), '--all', ...providers(), '--', 'sh', '-c', PRINTER],
      unordered: true,
      large: true,
    },
    {
      what: 'exec on one target',
      args: () => ['exec', `${fixture.namespace}/target`, ...providers(), '--', 'sh', '-c', PRINTER],
    },
    {what: 'doctor --all', args: () => ['doctor', ...ns(), '--all', ...providers()], unordered: true},
    {
      what: 'sync --dry-run',
      args: () => [
        'sync',
        ...ns(),
        '--all',
        ...providers(),
        '--output-file',
        path.join(dir, 'synced'),
        '--dry-run',
      ],
    },
    {what: '__complete', args: () => ['__complete', 'exec', '--']},
  ]

  for (const {what, args, unordered = false, large = false} of cases) {
    it(`${what}: a slow reader and a non-blocking pipe get what a file gets; head -1 ends it quietly`, async () => {
      const command = [process.execPath, cpcredBin, ...args()]
      const file = await viaShell(TO_FILE, command, env, dir)
      assert.equal(file.code, 0, file.stderr)
      if (large)
        assert.ok(file.stdout.length >= 2_000_000, `${what} printed only ${file.stdout.length} bytes`)
      const expected = comparable(file.stdout.toString(), unordered)

      for (const [reader, outcome] of [
        ['slow reader', await viaShell(SLOW_READER, command, env, dir)],
        ['non-blocking pipe', await viaNonblockingParent(command, env)],
      ] as const) {
        assert.equal(outcome.code, file.code, `${reader}: ${outcome.stderr}`)
        assert.equal(outcome.stdout.length > 0, file.stdout.length > 0)
        // Byte counts first: a cut is then reported as a size, not a 2 MB diff.
        // (Only where no age can change between runs.)
        if (large && !unordered) {
          assert.equal(outcome.stdout.length, file.stdout.length, `${reader}: bytes that arrived`)
        }
        assert.equal(comparable(outcome.stdout.toString(), unordered), expected, `${reader}: the same output`)
        assert.doesNotMatch(outcome.stderr, /EAGAIN|EPIPE|Error:/)
      }

      const first = await viaShell(FIRST_LINE, command, env, dir)
      const firstLine = first.stdout.toString()
      if (unordered)
        assert.ok(file.stdout.toString().split('\n').includes(firstLine.replace(/\n$/, '')), firstLine)
      else assert.equal(firstLine, file.stdout.toString().split('\n')[0]! + (file.stdout.length ? '\n' : ''))
      assert.doesNotMatch(first.stderr, /EAGAIN|EPIPE|Error:|\n\s+at /)
      // The command's own writer dies of SIGPIPE on one target; a fan-out stops its targets (141, as a
      // shell reports SIGPIPE); everything else ends with its own code.
      if (what === 'exec on one target') assert.ok([0, 141].includes(first.code), first.stderr)
      else if (what.startsWith('exec on 40')) assert.equal(first.code, 141, first.stderr)
      else assert.equal(first.code, 0, first.stderr)
    })
  }

  it('exec --all | head -1 ends quietly every time: 141 and nothing on stderr, 20 runs in a row', async () => {
    // Targets still running when head goes are stopped by cpcred: that is not theirs to report.
    const command = [
      process.execPath,
      cpcredBin,
      'exec',
      ...ns(),
      '--all',
      ...providers(),
      '--',
      'sh',
      '-c',
      'yes | head -100000',
    ]
    // The plugin's own words go to stderr on its first run: have the credential before counting.
    assert.equal((await viaShell(TO_FILE, command, env, dir)).code, 0)
    for (let run = 1; run <= 20; run++) {
      const outcome = await viaShell(FIRST_LINE, command, env, dir)
      assert.equal(outcome.code, 141, `run ${run}: ${outcome.stderr}`)
      assert.equal(outcome.stderr, '', `run ${run}`)
      assert.match(outcome.stdout.toString(), /^\S+ +\| y\n$/, `run ${run}`)
    }
  })

  it('list -w stops with 141 once its reader has gone, at its next row, as kubectl get -w does', async () => {
    const {hub, env: testenv} = await testEnv()
    const namespace = await createNamespace(hub, 'pipes-watch')
    const member = (name: string) => ({
      metadata: {name, namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {accessProviders: [{name: 'fake', cluster: {server: testenv.spoke.server}}]},
    })
    await applyProfile(hub, member('first'))
    const started = Date.now()
    const watching = viaShell(
      FIRST_LINE,
      [process.execPath, cpcredBin, 'list', '-w', '-n', namespace],
      env,
      dir,
    )
    // head has its line and has gone; the next change makes cpcred write, and find nobody reading.
    await new Promise((resolve) => setTimeout(resolve, 2000))
    await applyProfile(hub, member('second'))
    const outcome = await watching
    assert.equal(outcome.code, 141, outcome.stderr)
    assert.match(outcome.stdout.toString(), /^NAME\s/)
    assert.equal(outcome.stderr, '')
    assert.ok(Date.now() - started < 30_000)
  })
})
