import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  OutputTail,
  causeLine,
  countOutcomes,
  outcomeOf,
  renderJsonReport,
  type FanOutReport,
  type Outcome,
  type TargetResult,
} from '../../src/core/fleet/fan-out-report.js'
import {goldenFiles} from '../helpers/golden.js'
import {representativeReport, tailOf} from '../helpers/reports.js'

const fixtures = new URL('../fixtures/reports/', import.meta.url)
const assertGolden = goldenFiles(fixtures)

describe('outcomeOf', () => {
  const cases: [string, TargetResult, Outcome][] = [
    ['exit 0 passed', {profile: 'a/b', exitCode: 0, durationMs: 1, started: true}, 'passed'],
    ['a non-zero exit failed', {profile: 'a/b', exitCode: 2, durationMs: 1, started: true}, 'failed'],
    [
      'death by a signal failed',
      {profile: 'a/b', exitCode: 143, durationMs: 1, started: true, signal: 'SIGTERM'},
      'failed',
    ],
    [
      'a timeout failed',
      {profile: 'a/b', exitCode: 143, durationMs: 1, started: true, signal: 'SIGTERM', timedOut: true},
      'failed',
    ],
    [
      'a credential failure is an error',
      {profile: 'a/b', exitCode: 5, durationMs: 1, started: false, error: 'plugin exited 1'},
      'error',
    ],
    [
      'a target --fail-fast never started is skipped',
      {profile: 'a/b', exitCode: 1, durationMs: 0, started: false, cancelled: true},
      'skipped',
    ],
    [
      'a command cpcred stopped because the run ended early (its reader went away) is skipped',
      {profile: 'a/b', exitCode: 143, durationMs: 1, started: true, signal: 'SIGTERM', stopped: true},
      'skipped',
    ],
    [
      'a command that started keeps its result even when marked cancelled',
      {profile: 'a/b', exitCode: 130, durationMs: 1, started: true, cancelled: true, signal: 'SIGINT'},
      'failed',
    ],
  ]
  for (const [what, result, outcome] of cases) {
    it(what, () => assert.equal(outcomeOf(result), outcome))
  }
})

describe('causeLine: the cause of a target in one line, for the summary', () => {
  const cases: Array<[string, Parameters<typeof causeLine>[0], string]> = [
    ['a one-line error as it is', {error: 'unreachable'}, 'unreachable'],
    [
      'an error that introduces its stderr, with the first line of it that says something',
      {error: 'provider "p" (cpcred) exited with code 4; its stderr:\n\n  token-request: forbidden\nmore'},
      'provider "p" (cpcred) exited with code 4; its stderr: token-request: forbidden',
    ],
    ['an error of several lines that does not introduce them: its first', {error: 'one\ntwo'}, 'one'],
    [
      'the hint after the cause',
      {error: 'provider "p" (p-login): command not found: p-login', hint: 'brew install p-login'},
      'provider "p" (p-login): command not found: p-login; brew install p-login',
    ],
    [
      'one mark between a sentence that ends and its hint',
      {error: 'no provider in common: the provider file supports "x".', hint: 'Add a provider named "y"'},
      'no provider in common: the provider file supports "x"; Add a provider named "y"',
    ],
    ['nothing without an error', {}, ''],
    ['a command that failed on its own: its code', {started: true, exitCode: 3}, 'exited with code 3'],
    [
      'a command that failed on its own: its code and its last word on stderr',
      {started: true, exitCode: 1, lastErrorLine: '  Error from server (NotFound): pods "x" not found '},
      'exited with code 1: Error from server (NotFound): pods "x" not found',
    ],
    ['a command that succeeded: nothing', {started: true, exitCode: 0, lastErrorLine: 'a warning'}, ''],
  ]
  for (const [what, result, expected] of cases) it(what, () => assert.equal(causeLine(result), expected))
})

describe('countOutcomes', () => {
  it('counts each outcome once and the total', () => {
    const results: TargetResult[] = [
      {profile: 'a/1', exitCode: 0, durationMs: 1, started: true},
      {profile: 'a/2', exitCode: 0, durationMs: 1, started: true},
      {profile: 'a/3', exitCode: 1, durationMs: 1, started: true},
      {profile: 'a/4', exitCode: 3, durationMs: 1, started: false, error: 'unreachable'},
      {profile: 'a/5', exitCode: 1, durationMs: 0, started: false, cancelled: true},
      {profile: 'a/6', exitCode: 1, durationMs: 0, started: false, cancelled: true},
    ]
    assert.deepEqual(countOutcomes(results), {total: 6, passed: 2, failed: 1, errors: 1, skipped: 2})
  })

  it('counts nothing in an empty fan-out', () => {
    assert.deepEqual(countOutcomes([]), {total: 0, passed: 0, failed: 0, errors: 0, skipped: 0})
  })
})

describe('OutputTail', () => {
  it('keeps every line while they fit, joined with newlines and no marker', () => {
    const tail = tailOf(['one', 'two', 'three'])
    assert.equal(tail.text(), 'one\ntwo\nthree')
    assert.deepEqual(tail.last(), ['one', 'two', 'three'])
  })

  it("reads a command's bytes as text: UTF-8, U+FFFD for what is not, the \\r before a newline left out", () => {
    const tail = new OutputTail()
    tail.push(Buffer.from('ready\r'))
    tail.push(Buffer.from('A\xff\xfeB', 'latin1'))
    assert.deepEqual(tail.last(), ['ready', 'A\uFFFD\uFFFDB'])
  })

  it('is empty before any output', () => {
    assert.equal(new OutputTail().text(), '')
    assert.deepEqual(new OutputTail().last(), [])
  })

  it('drops the oldest lines to stay within its bound and says how many', () => {
    // "line-N" is 6 characters: 19 hold two lines and their newline (13), not three (20).
    const tail = tailOf(['line-1', 'line-2', 'line-3', 'line-4', 'line-5'], 19)
    assert.equal(tail.text(), '[… 3 earlier lines not kept]\nline-4\nline-5')
    assert.deepEqual(tail.last(), ['line-4', 'line-5'])
  })

  it('fills its bound exactly: the kept lines with their newlines are at most maxBytes', () => {
    const tail = tailOf(['aaaa', 'bbbb', 'cccc'], 14)
    assert.equal(tail.text(), 'aaaa\nbbbb\ncccc')
    tail.push('d')
    assert.equal(tail.text(), '[… 1 earlier line not kept]\nbbbb\ncccc\nd')
  })

  it('never holds more than its bound, however much is pushed', () => {
    const tail = new OutputTail(1000)
    for (let index = 0; index < 200_000; index++) tail.push(`output line ${index}`)
    const kept = tail.last(Number.MAX_SAFE_INTEGER)
    assert.ok(kept.join('\n').length <= 1000)
    assert.equal(kept.at(-1), 'output line 199999')
    const text = tail.text()
    const marker = text.slice(0, text.indexOf('\n'))
    assert.equal(marker, `[… ${200_000 - kept.length} earlier lines not kept]`)
  })

  it('defaults to 32 KiB', () => {
    const line = 'x'.repeat(1023)
    const tail = tailOf(Array.from({length: 40}, () => line))
    assert.equal(tail.last(100).length, 32)
    assert.match(tail.text(), /^\[… 8 earlier lines not kept\]\n/)
  })

  it('keeps the end of a single line longer than the bound, marked with …', () => {
    const tail = tailOf(['early', `${'a'.repeat(100)}THE END`], 10)
    assert.deepEqual(tail.last(), ['…aaTHE END'])
    assert.equal(tail.text(), '[… 1 earlier line not kept]\n…aaTHE END')
  })

  it('does not cut a long line inside a surrogate pair', () => {
    const tail = tailOf([`${'🚀'.repeat(10)}`], 6)
    assert.deepEqual(tail.last(), ['…🚀🚀'])
  })

  it('gives the last n lines, 20 by default', () => {
    const tail = tailOf(Array.from({length: 30}, (_, index) => `l${index}`))
    assert.equal(tail.last().length, 20)
    assert.equal(tail.last()[0], 'l10')
    assert.deepEqual(tail.last(2), ['l28', 'l29'])
    assert.deepEqual(tail.last(0), [])
    assert.equal(tail.last(100).length, 30)
  })

  it('keeps lines exactly: making them printable is for whoever shows them', () => {
    const tail = tailOf(['\x1b[31mred\x1b[0m', ''])
    assert.deepEqual(tail.last(), ['\x1b[31mred\x1b[0m', ''])
  })

  it('refuses a bound that holds nothing', () => {
    assert.throws(() => new OutputTail(0), RangeError)
    assert.throws(() => new OutputTail(1.5), RangeError)
  })
})

describe('renderJsonReport', () => {
  it('matches the golden report for one target of each outcome', () => {
    assertGolden('fan-out.json', renderJsonReport(representativeReport()))
  })

  it('is pretty JSON with four spaces, as -o json, and a trailing newline', () => {
    const json = renderJsonReport(representativeReport())
    assert.ok(json.endsWith('}\n'))
    assert.match(json, /^\{\n {4}"program": "kubectl",\n/)
  })

  it('carries the counts, an ISO start, rounded durations and each target split into namespace and name', () => {
    const parsed = JSON.parse(renderJsonReport(representativeReport()))
    assert.equal(parsed.startedAt, '2026-03-14T09:26:53.589Z')
    assert.equal(parsed.durationMs, 4180)
    assert.deepEqual(parsed.counts, {total: 4, passed: 1, failed: 1, errors: 1, skipped: 1})
    assert.deepEqual(
      parsed.targets.map((target: {namespace: string; name: string; outcome: string; durationMs: number}) => [
        target.namespace,
        target.name,
        target.outcome,
        target.durationMs,
      ]),
      [
        ['fleet-eu', 'prod-1', 'passed', 1235],
        ['fleet-eu', 'prod-2', 'failed', 2950],
        ['fleet-us', 'prod-3', 'error', 12],
        ['fleet-us', 'prod-4', 'skipped', 0],
      ],
    )
  })

  it('leaves out signal, timedOut and error when there are none; lastLines is always a list, stdout and stderr strings', () => {
    const parsed = JSON.parse(renderJsonReport(representativeReport()))
    assert.deepEqual(Object.keys(parsed.targets[0]), [
      'profile',
      'namespace',
      'name',
      'outcome',
      'exitCode',
      'durationMs',
      'lastLines',
      'stdout',
      'stderr',
    ])
    assert.deepEqual(parsed.targets[3].lastLines, [])
  })

  it('reports how a command ended: signal, timeout, error message', () => {
    const report: FanOutReport = {
      program: 'sh',
      startedAt: new Date(0),
      durationMs: 0,
      targets: [
        {
          result: {
            profile: 'ns/slow',
            exitCode: 143,
            durationMs: 5001,
            started: true,
            signal: 'SIGTERM',
            timedOut: true,
            error: 'timed out after 5s',
          },
        },
      ],
    }
    const [target] = JSON.parse(renderJsonReport(report)).targets
    assert.equal(target.signal, 'SIGTERM')
    assert.equal(target.timedOut, true)
    assert.equal(target.error, 'timed out after 5s')
  })

  it("carries the failure's hint (a provider's installHint) beside its error", () => {
    const report: FanOutReport = {
      program: 'kubectl',
      startedAt: new Date(0),
      durationMs: 0,
      targets: [
        {
          result: {
            profile: 'ns/x',
            exitCode: 5,
            durationMs: 0,
            started: false,
            error: 'provider "p" (p-login): command not found: p-login',
            hint: 'brew install p-login',
          },
        },
      ],
    }
    const [target] = JSON.parse(renderJsonReport(report)).targets
    assert.equal(target.hint, 'brew install p-login')
  })

  it('keeps untrusted strings exact, as -o json does: JSON escapes what it cannot carry', () => {
    const hostile = '\x1b]0;pwned\x07\u202Eevil\u0000"quoted" \ud800 🚀'
    const report: FanOutReport = {
      program: 'kubectl',
      startedAt: new Date(0),
      durationMs: 0,
      targets: [
        {
          result: {profile: 'ns/x', exitCode: 3, durationMs: 0, started: false, error: hostile},
          output: tailOf([hostile]),
        },
      ],
    }
    const json = renderJsonReport(report)
    // eslint-disable-next-line no-control-regex -- a raw control character in the JSON is the bug
    assert.doesNotMatch(json, /[\u0000-\u0009\u000b-\u001f]/)
    const [target] = JSON.parse(json).targets
    assert.equal(target.error, hostile)
    assert.deepEqual(target.lastLines, [hostile])
  })

  it('shows the last 20 lines of a long output', () => {
    const report: FanOutReport = {
      program: 'kubectl',
      startedAt: new Date(0),
      durationMs: 0,
      targets: [
        {
          result: {profile: 'ns/x', exitCode: 1, durationMs: 0, started: true},
          output: tailOf(Array.from({length: 50}, (_, index) => `line ${index}`)),
        },
      ],
    }
    const [target] = JSON.parse(renderJsonReport(report)).targets
    assert.equal(target.lastLines.length, 20)
    assert.equal(target.lastLines[0], 'line 30')
  })
})
