import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {fanOutView} from '../../src/adapters/fan-out-view.js'
import {printerFor} from '../../src/adapters/printer.js'
import type {TargetResult} from '../../src/core/fleet/fan-out-report.js'

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
    json: false,
    quiet,
  })
  results.forEach((result, index) => view.done(result, index + 1, results.length))
  view.finish(results)
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
      json: false,
      quiet: false,
    })
    view.done(stopped, 1, 1)
    assert.equal(stderr, '')
  })
})
