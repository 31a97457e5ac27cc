// A command's output is bytes, not text: `cpcred exec` on two targets passes what each command wrote
// (not UTF-8, a binary, a \r before a newline) to its --output-dir files and behind the prefix of its
// lines exactly, and its JSON records carry them as base64 beside the text (docs/ci.md).
import assert from 'node:assert/strict'
import {execFile} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcredBin, isolatedEnv, tempDir, testEnv} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

interface RawResult {
  code: number
  stdout: Buffer
  stderr: Buffer
}

/** cpcred through bin/run.js, its stdout and stderr as the bytes it wrote. */
function cpcredBytes(args: string[], env: NodeJS.ProcessEnv): Promise<RawResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cpcredBin, ...args],
      {env: {...isolatedEnv, ...env}, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024},
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({code, stdout, stderr})
      },
    )
  })
}

/** The `A\377\376B\n` of the report that found it: not UTF-8, and short. */
const NOT_UTF8 = Buffer.from('A\xff\xfeB\n', 'latin1')
const NEWLINE = 0x0a

/** The lines of `output` behind `prefix` (cpcred's `NS/NAME | `), their bytes after it, rejoined. */
function linesBehind(output: Buffer, prefix: string): Buffer {
  const marker = Buffer.from(prefix)
  const lines: Buffer[] = []
  for (let start = 0; start < output.length;) {
    let end = output.indexOf(NEWLINE, start)
    if (end === -1) end = output.length
    const line = output.subarray(start, end)
    if (line.subarray(0, marker.length).equals(marker)) lines.push(line.subarray(marker.length))
    start = end + 1
  }
  return Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]))
}

/** What the prefixed lines show of a stream: each line with a newline, the last one too. */
const asLines = (stream: Buffer) =>
  stream.at(-1) === NEWLINE ? stream : Buffer.concat([stream, Buffer.from('\n')])

describe('exec passes the bytes a command wrote', () => {
  let fixture: SpokeFixture
  let cacheHome: string
  /** What each target's command writes on stdout and on stderr. */
  let stdout: Buffer
  let stderr: Buffer
  let command: string[]
  const names = ['target', 'second']

  before(async () => {
    fixture = await spokeFixture({prefix: 'bytes'})
    cacheHome = await tempDir('cpcred-cache-')
    const {env, hub} = await testEnv()
    await applyProfile(hub, {
      metadata: {name: 'second', namespace: fixture.namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: [
          {name: 'fake', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    })
    // 8 KiB of random bytes on each stream, after the short line; stdout also has a \r before a
    // newline, and a last line without one.
    const outFile = path.join(fixture.dir, 'stdout.bin')
    const errFile = path.join(fixture.dir, 'stderr.bin')
    const outRandom = Buffer.concat([randomBytes(8192), Buffer.from('\r\nno newline at the end')])
    const errRandom = randomBytes(8192)
    await writeFile(outFile, outRandom)
    await writeFile(errFile, errRandom)
    stdout = Buffer.concat([NOT_UTF8, outRandom])
    stderr = Buffer.concat([NOT_UTF8, errRandom])
    command = [
      'sh',
      '-c',
      `printf 'A\\377\\376B\\n'; cat "$0"; printf 'A\\377\\376B\\n' >&2; cat "$1" >&2`,
      outFile,
      errFile,
    ]
  })

  const exec = (args: string[]) =>
    cpcredBytes(['exec', '-n', fixture.namespace, '--provider-file', fixture.providerFile, ...args], {
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: cacheHome,
    })
  const profiles = () => names.map((name) => `${fixture.namespace}/${name}`)
  /** The prefix of a target's lines: its profile padded to the longest, then ` | `. */
  const prefixOf = (profile: string) =>
    `${profile.padEnd(Math.max(...profiles().map((one) => one.length)))} | `

  it('on one target, the command has the terminal (here a pipe) and its bytes reach it as they are', async () => {
    const result = await exec(['target', '--', ...command])
    assert.equal(result.code, 0, result.stderr.toString())
    assert.ok(result.stdout.equals(stdout), 'stdout is not the bytes the command wrote')
    // The test plugin says on stderr that it issued a token (the first run), before the command runs.
    const before = result.stderr.subarray(0, result.stderr.length - stderr.length)
    assert.ok(
      result.stderr.subarray(before.length).equals(stderr),
      'stderr is not the bytes the command wrote',
    )
    assert.match(before.toString('utf8'), /^(fake-plugin: .*\n)*$/)
  })

  it('on two targets, --output-dir files and the prefixed lines are the bytes each command wrote', async () => {
    const dir = await tempDir('cpcred-bytes-')
    const result = await exec([...names, '--output-dir', dir, '--', ...command])
    assert.equal(result.code, 0, result.stderr.toString())
    // Every difference, so that a failure says which of the files and lines are wrong.
    const wrong: string[] = []
    for (const name of names) {
      const base = path.join(dir, fixture.namespace, name)
      if (!(await readFile(`${base}.stdout`)).equals(stdout)) wrong.push(`${name}.stdout`)
      if (!(await readFile(`${base}.stderr`)).equals(stderr)) wrong.push(`${name}.stderr`)
      // The prefix is cpcred's; the rest of each line is the command's bytes.
      const prefix = prefixOf(`${fixture.namespace}/${name}`)
      if (!linesBehind(result.stdout, prefix).equals(asLines(stdout))) wrong.push(`${name}'s stdout lines`)
      if (!linesBehind(result.stderr, prefix).equals(asLines(stderr))) wrong.push(`${name}'s stderr lines`)
    }
    assert.deepEqual(wrong, [], 'not the bytes the command wrote')
  })

  it('-o json, -o jsonl and --report json carry the bytes as base64 beside the text', async () => {
    const report = path.join(await tempDir('cpcred-bytes-report-'), 'fleet.json')
    const held = await exec([...names, '-o', 'json', '--report', `json=${report}`, '--', ...command])
    assert.equal(held.code, 0, held.stderr.toString())
    const streamed = await exec([...names, '-o', 'jsonl', '--', ...command])
    assert.equal(streamed.code, 0, streamed.stderr.toString())
    const sets: Array<[string, Array<Record<string, unknown>>]> = [
      ['-o json', JSON.parse(held.stdout.toString('utf8'))],
      ['--report json', JSON.parse(await readFile(report, 'utf8')).targets],
      [
        '-o jsonl',
        streamed.stdout
          .toString('utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ],
    ]
    const wrong: string[] = []
    for (const [format, records] of sets) {
      assert.deepEqual(records.map((record) => record.profile).sort(), profiles().sort(), format)
      for (const record of records) {
        // The text as before (what is not UTF-8 as U+FFFD); the exact bytes in base64.
        const decoded = (field: string) => Buffer.from(String(record[field]), 'base64')
        if (record.stdout !== stdout.toString('utf8')) wrong.push(`${format} ${record.profile} stdout`)
        if (record.stderr !== stderr.toString('utf8')) wrong.push(`${format} ${record.profile} stderr`)
        if (!decoded('stdoutBase64').equals(stdout)) wrong.push(`${format} ${record.profile} stdoutBase64`)
        if (!decoded('stderrBase64').equals(stderr)) wrong.push(`${format} ${record.profile} stderrBase64`)
      }
    }
    assert.deepEqual(wrong, [], 'not the bytes the command wrote')

    // Output that is UTF-8 has the text alone, as it always had.
    const text = await exec([...names, '-o', 'jsonl', '--', 'printf', 'ünïcode\\r\\n'])
    assert.equal(text.code, 0, text.stderr.toString())
    for (const line of text.stdout.toString('utf8').trimEnd().split('\n')) {
      const record = JSON.parse(line)
      assert.equal(record.stdout, 'ünïcode\r\n')
      assert.equal('stdoutBase64' in record, false)
      assert.equal('stderrBase64' in record, false)
    }
  })
})
