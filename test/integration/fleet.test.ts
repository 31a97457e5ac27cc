// CI at fleet scale against the real hub and spoke: --shard, --report, --output-dir, --timeout,
// and one plugin run for many targets that share a credential.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {readFile, readdir, stat} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {XMLParser} from 'fast-xml-parser'
import {parse} from 'yaml'
import {shardKey, shardOf} from '../../src/core/fleet/shard.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {applyProfile, cpcred, tempDir, testEnv} from '../helpers/env.js'
import {pluginRecords, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {isAlive, waitForPids, waitGone} from '../helpers/processes.js'
import {CSV_COLUMNS} from '../../src/core/fleet/fan-out-presenters.js'

const FLEET_SIZE = 40
const SHARDS = 4

describe('cpcred for CI at fleet scale', () => {
  let fixture: SpokeFixture
  let cacheHome: string
  const fleet: ClusterProfile[] = []

  before(async () => {
    fixture = await spokeFixture({prefix: 'fleet'})
    cacheHome = await tempDir('cpcred-cache-')
    const {env, hub} = await testEnv()
    const profiles = Array.from({length: FLEET_SIZE}, (_, index) => ({
      metadata: {
        name: `member-${String(index).padStart(2, '0')}`,
        namespace: fixture.namespace,
        labels: {fleet: 'yes', ...(index < 3 ? {trio: 'yes'} : {}), ...(index < 10 ? {ten: 'yes'} : {})},
      },
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: [
          {name: 'fake', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    }))
    for (const profile of profiles) fleet.push(await applyProfile(hub, profile))
  })

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cpcred([args[0]!, '-n', fixture.namespace, '--provider-file', fixture.providerFile, ...args.slice(1)], {
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: cacheHome,
      ...env,
    })
  const names = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^.*\//, ''))
      .sort()

  it('splits a 40-profile selection into disjoint shards that cover it, the same in list, exec, kubeconfig and sync', async () => {
    const seen = new Map<string, number>()
    for (let index = 1; index <= SHARDS; index++) {
      const listed = await run(['list', '-l', 'fleet=yes', '--shard', `${index}/${SHARDS}`, '-o', 'name'])
      assert.equal(listed.code, 0, listed.stderr)
      const shard = names(listed.stdout)
      for (const name of shard) {
        assert.ok(!seen.has(name), `${name} is in shard ${seen.get(name)} and ${index}`)
        seen.set(name, index)
      }
      // The assignment is the documented hash, not something cpcred made up for this run.
      const expected = fleet
        .filter((profile) => shardOf(shardKey(profile), SHARDS) === index)
        .map((profile) => profile.metadata.name)
        .sort()
      assert.deepEqual(shard, expected)

      // exec takes the shard from CPCRED_SHARD, as a CI matrix sets it for the whole job.
      const executed = await run(['exec', '-l', 'fleet=yes', '-o', 'json', '--', 'true'], {
        CPCRED_SHARD: `${index}/${SHARDS}`,
      })
      assert.equal(executed.code, 0, executed.stderr)
      const summary = JSON.parse(executed.stdout) as {profile: string}[]
      assert.deepEqual(names(summary.map((entry) => entry.profile).join('\n')), shard)

      const kubeconfig = await run(['kubeconfig', '-l', 'fleet=yes', '--shard', `${index}/${SHARDS}`])
      assert.equal(kubeconfig.code, 0, kubeconfig.stderr)
      const contexts = (parse(kubeconfig.stdout) as {contexts: {name: string}[]}).contexts
      assert.deepEqual(names(contexts.map((context) => context.name).join('\n')), shard)

      const synced = await run([
        'sync',
        '-l',
        'fleet=yes',
        '--shard',
        `${index}/${SHARDS}`,
        '--output-file',
        path.join(fixture.dir, 'never-written'),
        '--dry-run',
        '-o',
        'json',
      ])
      assert.equal(synced.code, 0, synced.stderr)
      const plan = JSON.parse(synced.stdout) as {changes: {action: string; profile: string}[]}
      assert.ok(plan.changes.every((change) => change.action === 'add'))
      assert.deepEqual(names(plan.changes.map((change) => change.profile).join('\n')), shard)
    }
    assert.equal(seen.size, FLEET_SIZE)
  })

  it('prints [] for an empty shard with -o json, and refuses a shard it cannot use', async () => {
    const trio = fleet.slice(0, 3)
    const count = 50
    const empty = Array.from({length: count}, (_, i) => i + 1).find(
      (index) => !trio.some((profile) => shardOf(shardKey(profile), count) === index),
    )!
    const result = await run([
      'exec',
      '-l',
      'trio=yes',
      '--shard',
      `${empty}/${count}`,
      '-o',
      'json',
      '--',
      'true',
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(JSON.parse(result.stdout), [])
    assert.match(
      result.stderr,
      new RegExp(
        `No ClusterProfiles match -l trio=yes in ${fixture.namespace} namespace \\(shard ${empty}/${count}\\)`,
      ),
    )

    const named = await run(['exec', fleet[0]!.metadata.name, '--shard', '1/2', '--', 'true'])
    assert.equal(named.code, 2)
    assert.match(named.stderr, /^error: --shard splits what -l, --all or --placement select/)
    const bad = await run(['list', '--shard', '3/2'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /^error: --shard "3\/2": INDEX must be from 1 to 2/)
    const auto = await run(['list', '--shard', 'auto'], {CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3'})
    assert.equal(auto.code, 0, auto.stderr)
    const noDir = await run(['exec', '-l', 'trio=yes', '--output-dir=', '--', 'true'])
    assert.equal(noDir.code, 2)
    assert.match(noDir.stderr, /^error: --output-dir is empty/)
    const badEnv = await run(['list', '-o', 'name'], {CPCRED_SHARD: 'two'})
    assert.equal(badEnv.code, 2)
    assert.match(badEnv.stderr, /^error: CPCRED_SHARD "two" is not INDEX\/COUNT/)
  })

  it('writes a JUnit report for 3 targets with one failure that a real XML parser reads', async () => {
    const dir = await tempDir('cpcred-reports-')
    const junit = path.join(dir, 'reports', 'fleet.xml')
    const json = path.join(dir, 'reports', 'fleet.json')
    const failing = fleet[1]!.metadata.name
    const result = await run([
      'exec',
      '-l',
      'trio=yes',
      '--report',
      `junit=${junit}`,
      '--report',
      `json=${json}`,
      '--',
      'sh',
      '-c',
      `echo "checking $CPCRED_PROFILE"; if [ "$CPCRED_PROFILE" = ${failing} ]; then echo 'boom <&>' >&2; exit 3; fi`,
    ])
    assert.equal(result.code, 1, result.stderr)
    assert.match(result.stderr, /1 of 3 failed/)
    assert.equal((await stat(junit)).mode & 0o777, 0o600)

    const parsed = new XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(
      await readFile(junit, 'utf8'),
    )
    const suite = parsed.testsuites.testsuite
    assert.equal(Number(suite.tests), 3)
    assert.equal(Number(suite.failures), 1)
    assert.equal(Number(suite.errors), 0)
    assert.equal(Number(suite.skipped), 0)
    const cases = suite.testcase as {
      classname: string
      name: string
      failure?: {type: string; '#text': string}
    }[]
    assert.deepEqual(
      cases.map((c) => c.classname),
      Array(3).fill(fixture.namespace),
    )
    assert.deepEqual(
      cases.map((c) => c.name).sort(),
      fleet.slice(0, 3).map((p) => p.metadata.name),
    )
    const failed = cases.filter((c) => c.failure)
    assert.equal(failed.length, 1)
    assert.equal(failed[0]!.name, failing)
    assert.equal(failed[0]!.failure!.type, 'exit-code')
    assert.match(failed[0]!.failure!['#text'], /boom <&>/)

    const report = JSON.parse(await readFile(json, 'utf8'))
    assert.deepEqual(report.counts, {total: 3, passed: 2, failed: 1, errors: 0, skipped: 0})
    // The report names the program only: arguments can carry secrets.
    assert.equal(report.program, 'sh')
    assert.ok(!JSON.stringify(report).includes('CPCRED_PROFILE" ='))
  })

  it("keeps each target's output in DIR/NAMESPACE/NAME.log, 0700 and 0600, with --quiet showing only the summary", async () => {
    const dir = path.join(await tempDir('cpcred-logs-'), 'logs')
    const result = await run([
      'exec',
      '-l',
      'trio=yes',
      '--output-dir',
      dir,
      '--quiet',
      '--',
      'sh',
      '-c',
      'echo "out $CPCRED_PROFILE"; echo "err $CPCRED_PROFILE" >&2; [ "$CPCRED_PROFILE" != member-02 ]',
    ])
    assert.equal(result.code, 1, result.stderr)
    assert.equal(result.stdout, '')
    assert.doesNotMatch(result.stderr, /out member/)
    assert.match(result.stderr, /PROFILE\s+EXIT\s+DURATION\s+NOTE/)
    // The NOTE says why the command failed, with --quiet too: its code and its last word on stderr.
    assert.match(result.stderr, /^\S+\/member-02 +1 +\S+ +exited with code 1: err member-02$/m)
    const quietAlone = await run([
      'exec',
      '-l',
      'trio=yes',
      '--quiet',
      '--',
      'sh',
      '-c',
      '[ "$CPCRED_PROFILE" != member-02 ]',
    ])
    assert.equal(quietAlone.code, 1, quietAlone.stderr)
    assert.match(quietAlone.stderr, /^\S+\/member-02 +1 +\S+ +exited with code 1$/m)
    assert.equal((await stat(dir)).mode & 0o777, 0o700)
    assert.equal((await stat(path.join(dir, fixture.namespace))).mode & 0o777, 0o700)
    const all = (await readdir(path.join(dir, fixture.namespace))).sort()
    assert.deepEqual(
      all,
      ['member-00', 'member-01', 'member-02'].flatMap((name) => [
        `${name}.log`,
        `${name}.stderr`,
        `${name}.stdout`,
      ]),
    )
    for (const name of ['member-00', 'member-01', 'member-02']) {
      const base = path.join(dir, fixture.namespace, name)
      // Each stream exactly, in a file of its own.
      assert.equal(await readFile(`${base}.stdout`, 'utf8'), `out ${name}\n`)
      assert.equal(await readFile(`${base}.stderr`, 'utf8'), `err ${name}\n`)
      for (const suffix of ['stdout', 'stderr'])
        assert.equal((await stat(`${base}.${suffix}`)).mode & 0o777, 0o600)
    }
    const files = all.filter((file) => file.endsWith('.log'))
    for (const file of files) {
      const log = path.join(dir, fixture.namespace, file)
      assert.equal((await stat(log)).mode & 0o777, 0o600)
      const name = file.replace(/\.log$/, '')
      const lines = (await readFile(log, 'utf8')).split('\n')
      assert.ok(lines.includes(`out ${name}`) && lines.includes(`err ${name}`), lines.join('|'))
      if (name === 'member-02') assert.ok(lines.includes('cpcred: exit code 1'))
      else assert.ok(!lines.some((line) => line.startsWith('cpcred:')))
    }
  })

  describe("each target's output for a program: kubectl version -o json on 10 targets, read by jq", () => {
    // kubectl's version-skew WARNING goes to stderr; stdout must stay JSON that jq reads.
    const versionCommand = [
      'sh',
      '-c',
      'echo "WARNING: version difference between client and server exceeds the supported minor version skew" >&2; exec kubectl version -o json',
    ]
    const hasJq = spawnSync('jq', ['--version']).status === 0
    const skip = hasJq ? false : 'jq is not installed (.ci/run installs it)'
    const tenNames = Array.from({length: 10}, (_, index) => `member-${String(index).padStart(2, '0')}`)
    /** The server's version, as jq reads it from one target's stdout. */
    const jqServerVersion = (json: string) => {
      const read = spawnSync('jq', ['-er', '.serverVersion.gitVersion'], {input: json, encoding: 'utf8'})
      assert.equal(read.status, 0, `jq could not read: ${json}\n${read.stderr}`)
      return read.stdout.trim()
    }
    const checkRecords = (records: Array<Record<string, unknown>>) => {
      assert.deepEqual(records.map((record) => String(record.profile).replace(/^.*\//, '')).sort(), tenNames)
      for (const record of records) {
        assert.equal(record.outcome, 'passed', JSON.stringify(record))
        assert.match(jqServerVersion(record.stdout as string), /^v1\.\d+\./)
        assert.match(record.stderr as string, /^WARNING: version difference/)
        assert.equal(record.stdoutTruncated, undefined)
      }
    }

    for (const format of ['json', 'yaml'] as const) {
      it(`-o ${format}: one record per target with its stdout and stderr apart`, {skip}, async () => {
        const result = await run(['exec', '-l', 'ten=yes', '-o', format, '--', ...versionCommand])
        assert.equal(result.code, 0, result.stderr)
        checkRecords(format === 'json' ? JSON.parse(result.stdout) : parse(result.stdout))
      })
    }

    it('-o jsonl: one JSON object a line, as each target ends', {skip}, async () => {
      const result = await run([
        'exec',
        '-l',
        'ten=yes',
        '-o',
        'jsonl',
        '--parallel',
        '3',
        '--',
        ...versionCommand,
      ])
      assert.equal(result.code, 0, result.stderr)
      const lines = result.stdout.trimEnd().split('\n')
      assert.equal(lines.length, 10)
      checkRecords(lines.map((line) => JSON.parse(line)))
      // The stream as a CI job reads it: jq on the whole of it, one target's output at a time.
      const read = spawnSync('jq', ['-r', '.stdout | fromjson | .serverVersion.major'], {
        input: result.stdout,
        encoding: 'utf8',
      })
      assert.equal(read.status, 0, read.stderr)
      assert.equal(read.stdout.trim().split('\n').length, 10)
    })

    it(
      "-o csv: a header and a row per target, as a real CSV reader (Python's csv) reads them",
      {skip},
      async () => {
        const result = await run([
          'exec',
          '-l',
          'ten=yes',
          '-o',
          'csv',
          '--parallel',
          '3',
          '--',
          ...versionCommand,
        ])
        assert.equal(result.code, 0, result.stderr)
        // Each row's stdout is kubectl's JSON of several lines, quoted as RFC 4180 has it.
        const read = spawnSync(
          'python3',
          ['-c', 'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'],
          {input: result.stdout, encoding: 'utf8'},
        )
        assert.equal(read.status, 0, read.stderr)
        const rows = JSON.parse(read.stdout) as Array<Record<string, string>>
        assert.deepEqual(Object.keys(rows[0]!), [...CSV_COLUMNS])
        checkRecords(rows.map((row) => ({...row, stdoutTruncated: undefined})))
        for (const row of rows) assert.equal(row.exitCode, '0')
      },
    )

    it('--report json: stdout and stderr apart for each target', {skip}, async () => {
      const file = path.join(await tempDir('cpcred-report-'), 'fleet.json')
      const result = await run([
        'exec',
        '-l',
        'ten=yes',
        '--quiet',
        '--report',
        `json=${file}`,
        '--',
        ...versionCommand,
      ])
      assert.equal(result.code, 0, result.stderr)
      checkRecords(JSON.parse(await readFile(file, 'utf8')).targets)
    })

    it('keeps a stream exactly: a line longer than 64 KiB whole, no newline added; -o json says where it cut', async () => {
      // 150,000 characters on one line without a newline, as `kubectl get --raw` prints a big list.
      const long = ['sh', '-c', `head -c 150000 /dev/zero | tr '\\0' a`]
      const dir = await tempDir('cpcred-out-')
      const streamed = await run(['exec', 'member-00', '-o', 'jsonl', '--output-dir', dir, '--', ...long])
      assert.equal(streamed.code, 0, streamed.stderr)
      const record = JSON.parse(streamed.stdout)
      assert.equal(record.stdout, 'a'.repeat(150000))
      assert.equal(record.stdoutTruncated, undefined)
      const file = path.join(dir, fixture.namespace, 'member-00.stdout')
      assert.equal(await readFile(file, 'utf8'), 'a'.repeat(150000))

      const held = await run(['exec', 'member-00', '-o', 'json', '--', ...long])
      assert.equal(held.code, 0, held.stderr)
      const [cut] = JSON.parse(held.stdout)
      assert.equal(cut.stdout, 'a'.repeat(64 * 1024))
      assert.equal(cut.stdoutTruncated, true)
      assert.equal(cut.outputCapBytes, 64 * 1024)
      assert.equal(cut.stderrTruncated, undefined)
    })

    it('--output-dir: NAME.stdout is the JSON alone, jq reads the file', {skip}, async () => {
      const dir = await tempDir('cpcred-out-')
      const result = await run([
        'exec',
        '-l',
        'ten=yes',
        '--quiet',
        '--output-dir',
        dir,
        '--',
        ...versionCommand,
      ])
      assert.equal(result.code, 0, result.stderr)
      for (const name of tenNames) {
        const base = path.join(dir, fixture.namespace, name)
        const read = spawnSync('jq', ['-er', '.serverVersion.gitVersion', `${base}.stdout`], {
          encoding: 'utf8',
        })
        assert.equal(read.status, 0, read.stderr)
        assert.match(await readFile(`${base}.stderr`, 'utf8'), /^WARNING: version difference/)
      }
    })
  })

  it('--timeout stops a hung target, wrapper and child, and reports it; alone it exits 124', async () => {
    const dir = await tempDir('cpcred-timeout-')
    const pids = path.join(dir, 'pids')
    const junit = path.join(dir, 'junit.xml')
    const hung = fleet[0]!.metadata.name
    const started = Date.now()
    const result = await run([
      'exec',
      '-l',
      'trio=yes',
      '--timeout',
      '1s',
      '--report',
      `junit=${junit}`,
      '--',
      'sh',
      '-c',
      // A wrapper whose child hangs: the child keeps the output open after the wrapper is gone.
      `if [ "$CPCRED_PROFILE" = ${hung} ]; then sleep 60 & echo $! >> ${pids}; wait; fi`,
    ])
    assert.equal(result.code, 1, result.stderr)
    assert.ok(Date.now() - started < 20_000, 'the hung target did not hold cpcred')
    const [sleeper] = await waitForPids(pids)
    assert.ok(await waitGone([sleeper!]), 'the hung child was stopped with its group')
    assert.match(result.stderr, new RegExp(`${hung}\\s+\\d+\\s+\\S+\\s+timed out after 1s`))
    const suite = new XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(
      await readFile(junit, 'utf8'),
    ).testsuites.testsuite
    const timedOut = (suite.testcase as {name: string; failure?: {type: string}}[]).find(
      (c) => c.name === hung,
    )
    assert.equal(timedOut?.failure?.type, 'timeout')

    const alone = await run([
      'exec',
      hung,
      '--timeout',
      '500ms',
      '--',
      'sh',
      '-c',
      `sleep 60 & echo $! >> ${pids}; wait`,
    ])
    assert.equal(alone.code, 124)
    assert.match(alone.stderr, /^error: sh timed out after 500ms/m)
    const pidsNow = await waitForPids(pids, 2)
    assert.ok(await waitGone([pidsNow[1]!]))
    assert.ok(!isAlive(pidsNow[1]!))
  })

  it('runs the plugin once for many targets that share a credential, even with --no-cache', async () => {
    const before = (await pluginRecords(fixture)).length
    const result = await run([
      'exec',
      '-l',
      'fleet=yes',
      '--no-cache',
      '--parallel',
      '8',
      '--quiet',
      '--',
      'true',
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, new RegExp(`all ${FLEET_SIZE} succeeded`))
    assert.equal((await pluginRecords(fixture)).length - before, 1)
  })
})
