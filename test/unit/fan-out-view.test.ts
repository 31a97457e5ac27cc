import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {fanOutView} from '../../src/adapters/fan-out-view.js'
import {printerFor} from '../../src/adapters/printer.js'
import type {TargetResult} from '../../src/core/fleet/fan-out-report.js'
import {FAN_OUT_PRESENTERS, type FanOutFormat} from '../../src/core/fleet/fan-out-presenters.js'

/** A plugin that failed with a message of several lines, as run-plugin.ts words it. */
const pluginFailed: TargetResult = {
  profile: 'fleet/c01',
  exitCode: 5,
  durationMs: 120,
  started: false,
  error:
    'provider "token-request" (cpcred) exited with code 4; its stderr:\n\ntoken-request: forbidden\nmore',
}
const notFound: TargetResult = {
  profile: 'fleet/c02',
  exitCode: 5,
  durationMs: 3,
  started: false,
  error: 'provider "sso" (sso-login): command not found: sso-login',
  hint: 'brew install sso-login',
}
const passed: TargetResult = {profile: 'fleet/c03', exitCode: 0, durationMs: 80, started: true}

async function shown(quiet: boolean, results: TargetResult[]): Promise<{stdout: string; stderr: string}> {
  let stdout = ''
  let stderr = ''
  const streams = {
    stdout: {write: (text: string) => (stdout += text)},
    stderr: {write: (text: string) => (stderr += text)},
  }
  const printer = printerFor(streams)
  const view = fanOutView({
    profiles: results.map((result) => result.profile),
    printer,
    chalk: await printer.paint(),
    presenter: FAN_OUT_PRESENTERS.text,
    quiet,
  })
  results.forEach((result, index) => view.done(result, index + 1, results.length))
  await view.finish(results)
  return {stdout, stderr}
}

/** The NOTE of `profile` in the summary: its row's last column (columns are 2 or more spaces apart). */
function noteOf(stderr: string, profile: string): string {
  const lines = stderr.split('\n')
  const table = lines.slice(lines.findIndex((line) => line.startsWith('PROFILE ')))
  const row = table.find((line) => line.startsWith(`${profile} `))
  assert.ok(row, `no summary row for ${profile} in:\n${stderr}`)
  return row.split(/ {2,}/).at(-1)!
}

describe('fanOutView: the summary keeps the cause', () => {
  for (const quiet of [false, true]) {
    it(`${quiet ? 'with --quiet, ' : ''}the NOTE of a plugin failure is its first line and the first line of its stderr`, async () => {
      const {stderr} = await shown(quiet, [pluginFailed, passed])
      assert.equal(
        noteOf(stderr, 'fleet/c01'),
        'provider "token-request" (cpcred) exited with code 4; its stderr: token-request: forbidden',
      )
    })

    it(`${quiet ? 'with --quiet, ' : ''}the NOTE of a plugin not found carries its installHint`, async () => {
      const {stderr} = await shown(quiet, [notFound, passed])
      assert.equal(
        noteOf(stderr, 'fleet/c02'),
        'provider "sso" (sso-login): command not found: sso-login; brew install sso-login',
      )
    })
  }

  it('says why each skipped target was left out, by its cause', async () => {
    const skip = (profile: string, kind: 'not healthy' | 'tied duplicates'): TargetResult => ({
      profile,
      exitCode: 0,
      durationMs: 0,
      started: false,
      skipped: kind,
      error: `skipped: ${kind}`,
    })
    const {stderr} = await shown(true, [
      passed,
      skip('fleet/t1', 'tied duplicates'),
      skip('fleet/sick', 'not healthy'),
      skip('fleet/t2', 'tied duplicates'),
    ])
    assert.match(stderr, /^all 1 succeeded, 2 skipped \(tied duplicates\), 1 skipped \(not healthy\)$/m)
  })

  it('shows the whole failure and its hint when the target ends, without --quiet', async () => {
    const {stderr} = await shown(false, [notFound])
    assert.match(
      stderr,
      /^fleet\/c02 \| error: provider "sso" \(sso-login\): command not found: sso-login\nfleet\/c02 \| brew install sso-login\n/,
    )
  })

  it('says nothing of a target cpcred stopped because its reader went away', async () => {
    const stopped: TargetResult = {
      profile: 'fleet/c04',
      exitCode: 143,
      durationMs: 10,
      started: true,
      signal: 'SIGTERM',
      stopped: true,
      error: 'stopped (the output was closed)',
    }
    let stderr = ''
    const printer = printerFor({
      stdout: {write: () => true},
      stderr: {write: (text: string) => (stderr += text)},
    })
    const view = fanOutView({
      profiles: [stopped.profile],
      printer,
      chalk: await printer.paint(),
      presenter: FAN_OUT_PRESENTERS.text,
      quiet: false,
    })
    view.done(stopped, 1, 1)
    assert.equal(stderr, '')
  })
})

describe('fanOutView: records for a program', () => {
  async function records(format: FanOutFormat) {
    let stdout = ''
    let stderr = ''
    const printer = printerFor({
      stdout: {write: (text: string) => (stdout += text)},
      stderr: {write: (text: string) => (stderr += text)},
    })
    const {targetStreams} = await import('../../src/core/fleet/target-streams.js')
    const held = new Map([[passed.profile, targetStreams(1024)]])
    held.get(passed.profile)!.stdout.push(Buffer.from('{"clientVersion": {}}'))
    held.get(passed.profile)!.stderr.push(Buffer.from('WARNING: skew'))
    const view = fanOutView({
      profiles: [passed.profile, notFound.profile],
      printer,
      chalk: await printer.paint(),
      presenter: FAN_OUT_PRESENTERS[format],
      quiet: false,
      streams: {get: (key) => held.get(key), take: (key) => void held.delete(key)},
    })
    view.line?.(passed.profile, 'stdout', Buffer.from('{"clientVersion": {}}'))
    view.done(passed, 1, 2)
    const afterFirst = stdout
    await view.finish([passed, notFound])
    return {stdout, stderr, afterFirst, held}
  }

  it('-o jsonl prints each record as its target ends, and lets go of its output', async () => {
    const {stdout, afterFirst, held} = await records('jsonl')
    assert.deepEqual(JSON.parse(afterFirst), {
      profile: 'fleet/c03',
      outcome: 'passed',
      exitCode: 0,
      durationMs: 80,
      stdout: '{"clientVersion": {}}\n',
      stderr: 'WARNING: skew\n',
    })
    assert.equal(held.size, 0)
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    assert.deepEqual(
      lines.map((line) => [line.profile, line.outcome, line.stdout]),
      [
        ['fleet/c03', 'passed', '{"clientVersion": {}}\n'],
        ['fleet/c02', 'error', ''],
      ],
    )
  })

  it('-o json prints one array at the end, stdout of the targets going to stderr', async () => {
    const {stdout, stderr, afterFirst} = await records('json')
    assert.equal(afterFirst, '')
    const parsed = JSON.parse(stdout)
    assert.equal(parsed[0].stderr, 'WARNING: skew\n')
    assert.deepEqual(JSON.parse(parsed[0].stdout), {clientVersion: {}})
    assert.match(stderr, /fleet\/c03 \| \{"clientVersion": \{\}\}/)
  })

  it('-o csv prints the header with the first row, each row as its target ends, quoted by RFC 4180', async () => {
    const {stdout, afterFirst, held} = await records('csv')
    assert.equal(
      afterFirst,
      'profile,outcome,exitCode,durationMs,signal,timedOut,error,hint,stdout,stderr\r\n' +
        'fleet/c03,passed,0,80,,,,,"{""clientVersion"": {}}\n","WARNING: skew\n"\r\n',
    )
    assert.equal(held.size, 0)
    const rest = stdout.slice(afterFirst.length)
    assert.match(rest, /^fleet\/c02,error,/)
    assert.ok(rest.endsWith(',,\r\n'), 'a target never run has empty stdout and stderr')
  })

  it('-o yaml carries the same record', async () => {
    const {stdout} = await records('yaml')
    assert.match(stdout, /^- profile: fleet\/c03\n/)
    assert.match(stdout, /stderr: \|?\s*WARNING: skew/)
  })
})
