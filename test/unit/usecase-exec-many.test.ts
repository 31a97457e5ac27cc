import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  ExitCode,
  OUTPUT_CLOSED_EXIT_CODE,
  QuietExit,
  signalExitCode,
  UsageError,
} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {execManyCommand, type ExecManyInput, type ExecManyPorts} from '../../src/usecases/exec-many.js'
import type {ChildRequest, ChildResult, ForwardingSignals} from '../../src/usecases/ports.js'
import {children, fanOutPorts, profile, targetRunInput, targetRunPorts} from './usecase-fakes.js'
import {FAN_OUT_PRESENTERS} from '../../src/core/fleet/fan-out-presenters.js'

/**
 * A run of many targets with fakes: `exit` decides each command's result (and may act as it runs);
 * every run of a command is an event `run NAME` in the same list as the fan-out's own.
 */
function world(
  options: {
    exit?: (request: ChildRequest, events: string[]) => Partial<ChildResult>
    refuse?: string[]
    stdinFails?: UsageError
    forwardingSignals?: ForwardingSignals
  } = {},
) {
  const events: string[] = []
  const fanOut = fanOutPorts({events, refuse: options.refuse, stdinFails: options.stdinFails})
  const child = children((request) => {
    events.push(`run ${request.env.CPCRED_PROFILE}`)
    return options.exit?.(request, events) ?? {}
  })
  const run = targetRunPorts(
    child.runner,
    options.forwardingSignals ? {forwardingSignals: options.forwardingSignals} : {},
  )
  const files = run.files
  const ports: ExecManyPorts = {...run.ports, ...fanOut.ports}
  return {ports, events, fanOut, child, files}
}

function input(profiles: ClusterProfile[], overrides: Partial<ExecManyInput> = {}): ExecManyInput {
  return {
    ...targetRunInput(),
    parallel: 1,
    failFast: false,
    presenter: FAN_OUT_PRESENTERS.text,
    quiet: false,
    reports: [],
    stdin: 'none',
    profiles,
    notRun: [],
    ...overrides,
  }
}

const failing = (name: string) => (request: ChildRequest) =>
  request.env.CPCRED_PROFILE === name ? {exitCode: 1} : {}

describe('execManyCommand: the exit code', () => {
  it('is 1 when one target fails, and every target still runs', async () => {
    const w = world({exit: failing('a')})
    const code = await execManyCommand(w.ports, input([profile('a'), profile('b')]))
    assert.equal(code, ExitCode.Failure)
    assert.deepEqual(
      w.events.filter((event) => event.startsWith('run ')),
      ['run a', 'run b'],
    )
    assert.deepEqual(
      w.fanOut.finished[0]!.results.map((result) => [result.profile, result.exitCode]),
      [
        ['fleet/a', 1],
        ['fleet/b', 0],
      ],
    )
  })

  it('is 1 with --fail-fast, and the targets after the failure never start', async () => {
    const w = world({exit: failing('a')})
    const code = await execManyCommand(w.ports, input([profile('a'), profile('b')], {failFast: true}))
    assert.equal(code, ExitCode.Failure)
    assert.ok(!w.events.includes('run b'), 'b started after a failed under --fail-fast')
    assert.equal(w.fanOut.finished[0]!.results[1]!.error, 'not started (--fail-fast)')
  })

  it("is the signal's (128+n) when a signal to cpcred interrupted the run, and the summary names it", async () => {
    const w = world({
      forwardingSignals: (forward, action) => {
        forward('SIGINT')
        return action()
      },
    })
    const code = await execManyCommand(w.ports, input([profile('a'), profile('b')]))
    assert.equal(code, signalExitCode('SIGINT'))
    assert.equal(w.fanOut.finished[0]!.interrupted, 'SIGINT')
    assert.ok(!w.events.some((event) => event.startsWith('run ')), 'a target started after the signal')
  })

  it('is 141, quietly and without a summary, when the reader of stdout went away while targets ran', async () => {
    const w: ReturnType<typeof world> = world({
      exit: (request) => {
        if (request.env.CPCRED_PROFILE === 'a') w.fanOut.closeReader()
        return {}
      },
    })
    await assert.rejects(
      execManyCommand(w.ports, input([profile('a'), profile('b')])),
      (error) => error instanceof QuietExit && error.exitCode === OUTPUT_CLOSED_EXIT_CODE,
    )
    assert.ok(!w.events.includes('run b'), 'a target started after the reader went away')
    assert.deepEqual(w.fanOut.finished, [], 'no summary for a reader that has gone')
  })

  it("is the copy of stdin's failure when cpcred's stdin could not be given to every target", async () => {
    const tooLarge = new UsageError('the input on stdin is larger than 256 MiB')
    const w = world({stdinFails: tooLarge})
    await assert.rejects(
      execManyCommand(w.ports, input([profile('a'), profile('b')], {stdin: 'copy'})),
      (error) => error === tooLarge,
    )
    assert.deepEqual(w.fanOut.spooled, ['/run/cpcred/stdin'])
    assert.ok(w.events.includes('stdin closed'))
  })

  it('is 1 when a report cannot be written, though every target succeeded, and says which', async () => {
    const w = world({refuse: ['/ci/out/fleet.xml']})
    const code = await execManyCommand(
      w.ports,
      input([profile('a')], {reports: [{kind: 'junit', file: '/ci/out/fleet.xml'}]}),
    )
    assert.equal(code, ExitCode.Failure)
    assert.deepEqual(w.fanOut.errors, [
      'could not write the junit report /ci/out/fleet.xml: /ci/out/fleet.xml is a directory, not a file',
    ])
  })

  it('is 0 when every target succeeded and every report was written', async () => {
    const w = world()
    const code = await execManyCommand(w.ports, input([profile('a'), profile('b')], {parallel: 2}))
    assert.equal(code, ExitCode.Success)
    assert.deepEqual(w.fanOut.views, [['fleet/a', 'fleet/b']])
  })
})

describe('execManyCommand: directories, logs and reports', () => {
  it('makes every directory before any target runs, and a wrong one fails before any runs', async () => {
    const w = world()
    await execManyCommand(
      w.ports,
      input([profile('a', 'team-1'), profile('b', 'team-2')], {
        outputDir: '/ci/logs',
        reports: [{kind: 'json', file: '/ci/reports/fleet.json'}],
      }),
    )
    const firstRun = w.events.findIndex((event) => event.startsWith('run '))
    assert.deepEqual(
      w.events.slice(0, firstRun).filter((event) => event.startsWith('mkdir ')),
      ['mkdir /ci/logs', 'mkdir /ci/logs/team-1', 'mkdir /ci/logs/team-2', 'mkdir /ci/reports'],
    )

    const refused = world({refuse: ['/ci/reports']})
    await assert.rejects(
      execManyCommand(
        refused.ports,
        input([profile('a')], {reports: [{kind: 'junit', file: '/ci/reports/fleet.xml'}]}),
      ),
      /cannot create the directory \/ci\/reports/,
    )
    assert.ok(!refused.events.some((event) => event.startsWith('run ')), 'a target ran before the error')
  })

  it('writes each report once, after every target has ended and the summary is out', async () => {
    const w = world({exit: failing('b')})
    await execManyCommand(
      w.ports,
      input([profile('a'), profile('b')], {
        parallel: 2,
        reports: [
          {kind: 'junit', file: '/ci/fleet.xml'},
          {kind: 'json', file: '/ci/fleet.json'},
        ],
      }),
    )
    const reports = w.events.filter((event) => event.startsWith('report '))
    assert.deepEqual(reports, ['report /ci/fleet.xml', 'report /ci/fleet.json'])
    const lastDone = w.events.findLastIndex((event) => event.startsWith('done '))
    assert.ok(w.events.indexOf('finish') > lastDone, 'the summary came before a target ended')
    assert.ok(w.events.indexOf('report /ci/fleet.xml') > w.events.indexOf('finish'))
    const json = JSON.parse(w.fanOut.files.get('/ci/fleet.json')!) as {
      targets: Array<{profile: string; exitCode: number}>
    }
    assert.deepEqual(
      json.targets.map((target) => [target.profile, target.exitCode]),
      [
        ['fleet/a', 0],
        ['fleet/b', 1],
      ],
    )
    assert.match(w.fanOut.files.get('/ci/fleet.xml')!, /<testsuite[^>]* tests="2" failures="1"/)
  })

  it("keeps each target's log, ending with how it ended, and closes its three files", async () => {
    const w = world({exit: failing('b')})
    await execManyCommand(w.ports, input([profile('a'), profile('b')], {outputDir: '/ci/logs'}))
    assert.equal(w.fanOut.files.get('/ci/logs/fleet/a.log'), '')
    assert.equal(w.fanOut.files.get('/ci/logs/fleet/b.log'), 'cpcred: exit code 1\n')
    for (const file of ['b.log', 'b.stdout', 'b.stderr'])
      assert.ok(w.events.includes(`closed /ci/logs/fleet/${file}`), `${file} left open`)
  })
})
