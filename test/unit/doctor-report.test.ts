import assert from 'node:assert/strict'
import {readFileSync, writeFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {printerFor} from '../../src/adapters/printer.js'
import {showReport} from '../../src/cli/doctor.js'
import type {CheckResult} from '../../src/core/doctor/checks.js'
import {judgeKubectlPolicy} from '../../src/core/doctor/kuberc.js'
import {
  ASCII_SYMBOLS,
  UNICODE_SYMBOLS,
  doctorExitCode,
  doctorJson,
  renderDoctorReport,
  type DoctorReport,
} from '../../src/core/doctor/report.js'
import {formatCells} from '../../src/core/text/format.js'
import {goldenFiles, updateGolden} from '../helpers/golden.js'

const fixtures = new URL('../fixtures/doctor/', import.meta.url)
const assertGolden = goldenFiles(fixtures)

const hubChecks: CheckResult[] = [
  {id: 'hub-kubeconfig', status: 'ok', detail: 'context "hub" of /home/me/.kube/config'},
  {id: 'hub-tls', status: 'ok', detail: 'verified (TLSv1.3)'},
  {id: 'hub-identity', status: 'ok', detail: 'you are alice'},
  {id: 'hub-rbac', status: 'ok', detail: 'alice may get, list clusterprofiles in namespace "fleet"'},
  {id: 'hub-api', status: 'ok', detail: 'multicluster.x-k8s.io/v1alpha1 clusterprofiles served'},
  {
    id: 'hub-clock',
    status: 'warn',
    detail: "this machine's clock is 2m behind the hub's (its Date header)",
    hint: "sync this machine's clock",
  },
  {id: 'provider-file', status: 'ok', detail: '/home/me/.config/cpcred/providers.json: 1 provider (token)'},
  {id: 'provider-usage', status: 'ok', detail: '2 of 2 profiles in namespace "fleet" can be reached'},
]

const failingProfile: CheckResult[] = [
  {id: 'profile', status: 'ok', detail: 'fleet/eu-1, managed by "ocm"'},
  {id: 'resolution', status: 'ok', detail: 'Chose provider "token".'},
  {id: 'plugin-command', status: 'ok', detail: '/usr/bin/token-plugin is an executable file'},
  // kubectl's kuberc lists the plugin but not cpcred: the hint is several lines of YAML and a command.
  {
    id: 'kuberc',
    ...judgeKubectlPolicy(
      {
        kind: 'policy',
        policy: 'Allowlist',
        allowlist: ['/usr/bin/token-plugin'],
        file: '/home/me/.kube/kuberc',
      },
      [
        {role: 'the plugin (--mode plugin)', command: '/usr/bin/token-plugin'},
        {role: "cpcred's command (--mode cpcred)", command: '/opt/cpcred/bin/run.js'},
      ],
      (command) => command,
    ),
  },
  {
    id: 'plugin-run',
    status: 'fail',
    detail: 'provider "token" (/usr/bin/token-plugin) exited with code 1; its stderr:\nno login\n\x1b[31mred',
    hint: 'log in first',
    exitCode: 5,
  },
  {id: 'target-tls', status: 'ok', detail: 'verified (TLSv1.3)'},
  {id: 'target-auth', status: 'skip', detail: 'not checked: needs plugin-run'},
  {id: 'target-clock', status: 'ok', detail: "this machine's clock is within 1s of the target's"},
  {id: 'cache', status: 'ok', detail: 'no entry for fleet/eu-1'},
]

const passingProfile: CheckResult[] = failingProfile.map((check) =>
  check.id === 'kuberc'
    ? {
        id: 'kuberc',
        status: 'ok',
        detail: 'kubectl runs every credential plugin: no kuberc (/home/me/.kube/kuberc does not exist)',
      }
    : check.id === 'plugin-run'
      ? {id: 'plugin-run', status: 'ok', detail: 'bearer token (JWT, 900 characters)'}
      : check.id === 'target-auth'
        ? {
            id: 'target-auth',
            status: 'ok',
            detail: 'accepted: you are hub:system:serviceaccount:fleet:deployer',
          }
        : check,
)

const CAN_NOT_ASKED = {
  id: 'target-can' as const,
  why: "ask about one action with --can 'VERB RESOURCE [-n NAMESPACE]'",
}

const profileReport: DoctorReport = {
  mode: 'profile',
  checks: hubChecks,
  profiles: [
    {
      profile: 'fleet/eu-1',
      checks: failingProfile,
      notDone: [CAN_NOT_ASKED],
    },
  ],
}

const fleetReport: DoctorReport = {
  mode: 'fleet',
  checks: [...hubChecks, {id: 'profiles', status: 'ok', detail: '2 profiles in namespace "fleet"'}],
  profiles: [
    {profile: 'fleet/eu-1', checks: failingProfile, notDone: [CAN_NOT_ASKED]},
    {profile: 'fleet/us-1', checks: passingProfile, notDone: [CAN_NOT_ASKED]},
  ],
}

const text = (report: DoctorReport, symbols = ASCII_SYMBOLS) =>
  formatCells(renderDoctorReport(report, symbols).cells)

describe('the doctor report', () => {
  it('shows one line per check, the hint under a failure, and the skipped checks on one line', () => {
    assertGolden('profile.txt', text(profileReport))
  })

  it('uses symbols on a terminal, and marks each row with its status for colour', () => {
    const rendered = renderDoctorReport(profileReport, UNICODE_SYMBOLS)
    assertGolden('profile-terminal.txt', formatCells(rendered.cells))
    const failedRow = rendered.cells.rows.findIndex((row) => row[1] === 'plugin-run')
    assert.equal(rendered.statuses[failedRow], 'fail')
    assert.equal(rendered.cells.rows[failedRow]![0], '✗')
    assert.equal(rendered.statuses[failedRow + 1], undefined, 'continuation lines are not coloured')
  })

  it('shows a fleet as the hub checks and then one line per profile', () => {
    assertGolden('fleet.txt', text(fleetReport))
  })

  it('says so when every check passes', () => {
    const passing: DoctorReport = {
      mode: 'hub',
      checks: hubChecks.filter((check) => check.status === 'ok'),
      profiles: [],
    }
    assert.match(text(passing), /\nAll 7 checks pass\.\n$/)
    assert.match(text({...passing, checks: hubChecks}), /\nAll 8 checks pass, 1 with warnings\.\n$/)
  })

  it('exits with the class of the first failure in walking order', () => {
    assert.equal(doctorExitCode(profileReport), 5)
    assert.equal(doctorExitCode({...profileReport, profiles: []}), 0)
  })

  it('has a stable -o json shape: every key always present, hint null when there is none', () => {
    const json = doctorJson(fleetReport)
    const golden = new URL('fleet.json', fixtures)
    if (updateGolden) writeFileSync(golden, `${JSON.stringify(json, null, 2)}\n`)
    else assert.deepEqual(json, JSON.parse(readFileSync(golden, 'utf8')))
    for (const check of [...json.checks, ...json.profiles.flatMap((profile) => profile.checks)]) {
      assert.deepEqual(Object.keys(check), ['id', 'status', 'detail', 'hint'])
    }
    assert.deepEqual(Object.keys(json), ['checks', 'profiles', 'exitCode'])
    assert.deepEqual(
      json.profiles.map((profile) => [profile.profile, profile.status]),
      [
        ['fleet/eu-1', 'fail'],
        ['fleet/us-1', 'ok'],
      ],
    )
    // Exact data: an escape sequence in a plugin's stderr stays as it was; text output makes it visible.
    assert.ok(
      json.profiles[0]!.checks.find((check) => check.id === 'plugin-run')!.detail.endsWith('\x1b[31mred'),
    )
    assert.match(text(profileReport), /\\x1b\[31mred/)
  })
})

describe('showReport: symbols only on a terminal that can show them', () => {
  async function shown(stdoutIsTTY: boolean, env: NodeJS.ProcessEnv): Promise<string> {
    const out: string[] = []
    const printer = printerFor(
      {stdout: {write: (t: string) => out.push(t), isTTY: stdoutIsTTY}, stderr: {write: () => true}},
      {NO_COLOR: '1', ...env},
    )
    await showReport(printer, profileReport)
    return out.join('')
  }

  it('✓ and ✗ on a UTF-8 terminal; words with LC_ALL=C, TERM=dumb or no terminal', async () => {
    assert.match(await shown(true, {LANG: 'en_US.UTF-8'}), /^✗ +plugin-run/m)
    for (const [tty, env] of [
      [true, {LC_ALL: 'C', LANG: 'en_US.UTF-8'}],
      [true, {TERM: 'dumb', LANG: 'en_US.UTF-8'}],
      [false, {LANG: 'en_US.UTF-8'}],
    ] as const) {
      const text = await shown(tty, env)
      assert.match(text, /^FAIL +plugin-run/m)
      assert.doesNotMatch(text, /[✓✗]/)
    }
  })
})
