import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  HUB_CHECK_IDS,
  HUB_PLAN,
  PROFILE_CHECK_IDS,
  PROFILE_PLAN,
  SELECTION_PLAN,
  exitCodeOf,
  fail,
  failureClass,
  fallbackHint,
  ok,
  overallStatus,
  runPlan,
  warn,
  type CheckId,
  type CheckOutcome,
  type CheckResult,
  type PlannedCheck,
} from '../../src/core/doctor/checks.js'
import {CpcredError, ExitCode} from '../../src/core/errors.js'

/** A runner that answers from a table and records which checks it was asked to run. */
function scripted(answers: Partial<Record<CheckId, CheckOutcome | Error>>) {
  const ran: CheckId[] = []
  const run = async (id: CheckId): Promise<CheckOutcome> => {
    ran.push(id)
    const answer = answers[id] ?? ok(`${id} fine`)
    if (answer instanceof Error) throw answer
    return answer
  }
  return {ran, run}
}

describe('the plan', () => {
  it('walks the chain in the order of the issue: hub, RBAC, API, provider file, then the profile', () => {
    assert.deepEqual(
      [...HUB_PLAN, ...SELECTION_PLAN].map((check) => check.id),
      [...HUB_CHECK_IDS],
    )
    assert.deepEqual(
      PROFILE_PLAN.map((check) => check.id),
      [...PROFILE_CHECK_IDS],
    )
  })

  it('needs only checks that come earlier, so a walk in order always knows their results', () => {
    const plans: PlannedCheck[][] = [
      [...HUB_PLAN, ...SELECTION_PLAN],
      [...HUB_PLAN, ...PROFILE_PLAN],
    ]
    for (const plan of plans) {
      plan.forEach((check, index) => {
        const earlier = plan.slice(0, index).map((entry) => entry.id)
        for (const need of check.needs) assert.ok(earlier.includes(need), `${check.id} needs ${need}`)
      })
    }
  })

  it('has a fallback hint for every check, naming the profile where it helps', () => {
    for (const id of [...HUB_CHECK_IDS, ...PROFILE_CHECK_IDS]) assert.ok(fallbackHint(id).length > 10, id)
    assert.match(fallbackHint('plugin-run', 'fleet/eu-1'), /cpcred describe fleet\/eu-1 --show-env/)
  })
})

describe('runPlan', () => {
  it('runs every check when all pass, in order', async () => {
    const {ran, run} = scripted({})
    const results = await runPlan(HUB_PLAN, run)
    assert.deepEqual(
      ran,
      HUB_PLAN.map((check) => check.id),
    )
    assert.ok(results.every((result) => result.status === 'ok'))
  })

  it('skips what needs a failed check, and what needs a skipped one, but runs independent checks', async () => {
    const {ran, run} = scripted({'hub-tls': fail(ExitCode.Unreachable, 'refused', 'start the hub')})
    const results = await runPlan(HUB_PLAN, run)
    assert.deepEqual(ran, ['hub-kubeconfig', 'hub-tls', 'provider-file'])
    const byId = Object.fromEntries(results.map((result) => [result.id, result]))
    assert.equal(byId['hub-identity']!.status, 'skip')
    assert.equal(byId['hub-identity']!.detail, 'not checked: needs hub-tls')
    assert.equal(byId['hub-rbac']!.detail, 'not checked: needs hub-identity')
    assert.equal(byId['provider-usage']!.detail, 'not checked: needs hub-rbac and hub-api')
  })

  it('does not skip what needs a check that only warned', async () => {
    const {ran, run} = scripted({'hub-tls': warn('through a proxy')})
    await runPlan(HUB_PLAN, run)
    assert.ok(ran.includes('hub-identity'))
  })

  it('takes the hub results into account for a profile', async () => {
    const earlier: CheckResult[] = [
      {id: 'hub-api', status: 'fail', detail: 'no CRD', hint: 'install it', exitCode: 3},
      {id: 'provider-file', status: 'ok', detail: 'fine'},
    ]
    const {ran, run} = scripted({})
    const results = await runPlan(PROFILE_PLAN, run, {earlier})
    assert.deepEqual(ran, [])
    assert.ok(results.every((result) => result.status === 'skip'))
  })

  it("turns a CpcredError into that check's failure, with its exit code and hint", async () => {
    const {run} = scripted({
      'hub-kubeconfig': new CpcredError('no kubeconfig', {
        exitCode: ExitCode.Usage,
        hint: 'pass --kubeconfig',
      }),
    })
    const [first] = await runPlan(HUB_PLAN, run)
    assert.deepEqual(first, {
      id: 'hub-kubeconfig',
      status: 'fail',
      detail: 'no kubeconfig',
      hint: 'pass --kubeconfig',
      exitCode: ExitCode.Usage,
    })
  })

  it('gives a failure without a hint of its own the fallback hint, naming the profile', async () => {
    const {run} = scripted({
      'plugin-run': new CpcredError('exited with code 1', {exitCode: ExitCode.PluginFailed}),
    })
    const results = await runPlan(PROFILE_PLAN, run, {profile: 'ns/p'})
    const pluginRun = results.find((result) => result.id === 'plugin-run')!
    assert.equal(pluginRun.hint, fallbackHint('plugin-run', 'ns/p'))
  })

  it('shows an unexpected error as a failure of its check and goes on', async () => {
    const {ran, run} = scripted({'provider-file': new TypeError('x is undefined')})
    const results = await runPlan(HUB_PLAN, run)
    const failed = results.find((result) => result.id === 'provider-file')!
    assert.equal(failed.status, 'fail')
    assert.equal(failed.exitCode, ExitCode.Failure)
    assert.equal(failed.detail, 'unexpected error: x is undefined')
    assert.ok(ran.includes('hub-clock'))
  })

  it('stops the whole walk when cpcred is stopped by a signal', async () => {
    const {run} = scripted({'hub-tls': new CpcredError('stopped', {exitCode: 130})})
    await assert.rejects(runPlan(HUB_PLAN, run), /stopped/)
  })

  it('says which check starts', async () => {
    const started: CheckId[] = []
    const {run} = scripted({'hub-kubeconfig': fail(1, 'broken', 'fix it')})
    await runPlan(HUB_PLAN, run, {onStart: (id) => started.push(id)})
    assert.deepEqual(started, ['hub-kubeconfig', 'provider-file'])
  })
})

describe('exit codes', () => {
  const result = (id: CheckId, status: CheckResult['status'], exitCode?: number): CheckResult => ({
    id,
    status,
    detail: '',
    exitCode,
  })

  it('is 0 when nothing failed, warnings included', () => {
    assert.equal(exitCodeOf([result('hub-tls', 'ok'), result('hub-clock', 'warn')]), 0)
  })

  it('is the class of the first failure in walking order', () => {
    assert.equal(
      exitCodeOf([
        result('hub-tls', 'ok'),
        result('plugin-run', 'fail', 5),
        result('target-auth', 'fail', 4),
      ]),
      5,
    )
  })

  it('keeps 3, 4 and 5 and makes everything else 1 (usage errors of a file are failures of the run)', () => {
    assert.deepEqual([3, 4, 5, 2, 1, 7, undefined].map(failureClass), [3, 4, 5, 1, 1, 1, 1])
  })

  it('summarizes a profile by its most serious status', () => {
    assert.equal(overallStatus([result('profile', 'ok'), result('cache', 'warn')]), 'warn')
    assert.equal(overallStatus([result('profile', 'skip'), result('cache', 'warn')]), 'skip')
    assert.equal(overallStatus([result('profile', 'skip'), result('cache', 'fail', 1)]), 'fail')
    assert.equal(overallStatus([result('profile', 'ok')]), 'ok')
  })
})
