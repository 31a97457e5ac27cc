import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {XMLParser, XMLValidator} from 'fast-xml-parser'
import {type FanOutReport, type TargetReport} from '../../src/core/fleet/fan-out-report.js'
import {renderJUnit} from '../../src/core/fleet/junit.js'
import {HOSTILE, RAW_CONTROL} from '../helpers/controls.js'
import {goldenFiles} from '../helpers/golden.js'
import {representativeReport, tailOf} from '../helpers/reports.js'

const fixtures = new URL('../fixtures/reports/', import.meta.url)
const assertGolden = goldenFiles(fixtures)

/**
 * What XML 1.0 can carry (its Char production); the whole document must match. The u flag makes
 * the surrogate range match only unpaired surrogates.
 */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u

interface Parsed {
  testsuites: Record<string, string> & {
    testsuite: Record<string, string> & {testcase: TestCase[]}
  }
}
type TestCase = Record<string, string> & {
  failure?: Outcome
  error?: Outcome
  skipped?: Outcome
  'system-out'?: string
}
type Outcome = {message?: string; type?: string; '#text'?: string} | string

/**
 * Reads the report back with a real parser: entities and character references decoded, attributes
 * unprefixed, nothing coerced.
 */
function parse(xml: string): Parsed {
  assert.equal(XMLValidator.validate(xml), true)
  const parser = new XMLParser({
    htmlEntities: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    isArray: (name) => name === 'testcase',
  })
  return parser.parse(xml) as Parsed
}

function reportOf(...targets: TargetReport[]): FanOutReport {
  return {program: 'kubectl', startedAt: new Date('2026-03-14T09:26:53.589Z'), durationMs: 1500, targets}
}

function onlyCase(xml: string): TestCase {
  const [testCase] = parse(xml).testsuites.testsuite.testcase
  return testCase!
}

describe('renderJUnit', () => {
  it('matches the golden report for one target of each outcome', () => {
    assertGolden('fan-out.xml', renderJUnit(representativeReport()))
  })

  it('parses as one suite whose counts and test cases follow the targets, in order', () => {
    const xml = renderJUnit(
      reportOf(
        {result: {profile: 'fleet-eu/prod-1', exitCode: 0, durationMs: 10, started: true}},
        {
          result: {profile: 'fleet-eu/prod-2', exitCode: 2, durationMs: 20, started: true},
          output: tailOf(['boom']),
        },
        {result: {profile: 'fleet-us/prod-3', exitCode: 0, durationMs: 30, started: true}},
      ),
    )
    const {testsuites} = parse(xml)
    const suite = testsuites.testsuite
    assert.deepEqual(
      [suite.name, suite.tests, suite.failures, suite.errors, suite.skipped],
      ['cpcred exec kubectl', '3', '1', '0', '0'],
    )
    assert.deepEqual(
      [testsuites.tests, testsuites.failures, testsuites.errors],
      [suite.tests, suite.failures, suite.errors],
    )
    assert.deepEqual(
      suite.testcase.map((testCase) => [testCase.classname, testCase.name]),
      [
        ['fleet-eu', 'prod-1'],
        ['fleet-eu', 'prod-2'],
        ['fleet-us', 'prod-3'],
      ],
    )
    assert.equal(suite.testcase[0]!.failure, undefined)
    assert.deepEqual(suite.testcase[1]!.failure, {'#text': 'boom', message: 'exit code 2', type: 'exit-code'})
    assert.equal(suite.testcase[2]!.failure, undefined)
  })

  it('counts errors and skipped targets apart from failures', () => {
    const suite = parse(renderJUnit(representativeReport())).testsuites.testsuite
    assert.deepEqual([suite.tests, suite.failures, suite.errors, suite.skipped], ['4', '1', '1', '1'])
  })

  it('gives times in seconds with 3 decimals and a start without time zone (UTC)', () => {
    const {testsuites} = parse(
      renderJUnit(
        reportOf(
          {result: {profile: 'a/b', exitCode: 0, durationMs: 1234.5678, started: true}},
          {result: {profile: 'a/c', exitCode: 0, durationMs: -3, started: true}},
          {result: {profile: 'a/d', exitCode: 0, durationMs: Number.NaN, started: true}},
        ),
      ),
    )
    assert.equal(testsuites.time, '1.500')
    assert.equal(testsuites.testsuite.time, '1.500')
    assert.equal(testsuites.testsuite.timestamp, '2026-03-14T09:26:53')
    assert.deepEqual(
      testsuites.testsuite.testcase.map((testCase) => testCase.time),
      ['1.235', '0.000', '0.000'],
    )
  })

  it('names the program only in the suite, never its arguments', () => {
    const report = {...reportOf(), program: 'helm'}
    assert.equal(parse(renderJUnit(report)).testsuites.testsuite.name, 'cpcred exec helm')
  })

  describe('a failed target', () => {
    const cases: [string, TargetReport['result'], {message: string; type: string}][] = [
      [
        'a non-zero exit',
        {profile: 'a/b', exitCode: 2, durationMs: 1, started: true},
        {message: 'exit code 2', type: 'exit-code'},
      ],
      [
        'death by a signal',
        {profile: 'a/b', exitCode: 143, durationMs: 1, started: true, signal: 'SIGTERM'},
        {message: 'killed by SIGTERM', type: 'signal'},
      ],
      [
        'a timeout (which kills with a signal)',
        {profile: 'a/b', exitCode: 143, durationMs: 5004, started: true, signal: 'SIGTERM', timedOut: true},
        {message: 'timed out after 5s', type: 'timeout'},
      ],
      [
        'an error message given by the runner',
        {
          profile: 'a/b',
          exitCode: 143,
          durationMs: 5004,
          started: true,
          timedOut: true,
          error: 'timed out after 5s (--timeout 5s)',
        },
        {message: 'timed out after 5s (--timeout 5s)', type: 'timeout'},
      ],
    ]
    for (const [what, result, expected] of cases) {
      it(`reports ${what} as <failure message="${expected.message}" type="${expected.type}">`, () => {
        assert.deepEqual(onlyCase(renderJUnit(reportOf({result}))).failure, expected)
      })
    }

    it('carries the last 20 output lines in the failure and the kept tail in system-out', () => {
      const lines = Array.from({length: 30}, (_, index) => `line ${index}`)
      const testCase = onlyCase(
        renderJUnit(
          reportOf({
            result: {profile: 'a/b', exitCode: 1, durationMs: 1, started: true},
            output: tailOf(lines),
          }),
        ),
      )
      assert.deepEqual(testCase.failure, {
        '#text': lines.slice(10).join('\n'),
        message: 'exit code 1',
        type: 'exit-code',
      })
      assert.equal(testCase['system-out'], lines.join('\n'))
    })

    it('shows in system-out that earlier output was dropped', () => {
      const testCase = onlyCase(
        renderJUnit(
          reportOf({
            result: {profile: 'a/b', exitCode: 1, durationMs: 1, started: true},
            output: tailOf(['one', 'two', 'three'], 9),
          }),
        ),
      )
      assert.equal(testCase['system-out'], '[… 1 earlier line not kept]\ntwo\nthree')
    })
  })

  describe('a target that never started', () => {
    const cases: [number, string][] = [
      [1, 'failure'],
      [2, 'usage'],
      [3, 'unreachable'],
      [4, 'denied'],
      [5, 'plugin-failed'],
      [130, 'exit-code-130'],
    ]
    for (const [exitCode, type] of cases) {
      it(`is an <error> of type ${type} for exit code ${exitCode}`, () => {
        const testCase = onlyCase(
          renderJUnit(
            reportOf({result: {profile: 'a/b', exitCode, durationMs: 1, started: false, error: 'why'}}),
          ),
        )
        assert.deepEqual(testCase.error, {message: 'why', type})
        assert.equal(testCase['system-out'], undefined)
      })
    }

    it('still says something without an error message', () => {
      const testCase = onlyCase(
        renderJUnit(reportOf({result: {profile: 'a/b', exitCode: 3, durationMs: 1, started: false}})),
      )
      assert.deepEqual(testCase.error, {
        message: 'could not start (exit code 3)',
        type: 'unreachable',
      })
    })

    it('is <skipped> when --fail-fast cancelled it', () => {
      const testCase = onlyCase(
        renderJUnit(
          reportOf({
            result: {
              profile: 'a/b',
              exitCode: 1,
              durationMs: 0,
              started: false,
              cancelled: true,
              error: 'not started (--fail-fast)',
            },
          }),
        ),
      )
      assert.deepEqual(testCase.skipped, {message: 'not started (--fail-fast)'})
      assert.equal(testCase.error, undefined)
    })
  })

  describe('untrusted text from clusters', () => {
    const nasty = [
      ['ESC (colours, window titles)', 'a\x1b[31mb\x1b]0;t\x07c', 'a\\x1b[31mb\\x1b]0;t\\x07c'],
      ['NUL', 'a\u0000b', 'a\\x00b'],
      ['a CDATA end', 'x]]>y', 'x]]>y'],
      ['markup', '</failure><testcase name="forged"/>', '</failure><testcase name="forged"/>'],
      ['quotes and ampersands', `"double" 'single' & &amp;`, `"double" 'single' & &amp;`],
      ['emoji', 'ok 🚀✓ 日本', 'ok 🚀✓ 日本'],
      ['a lone surrogate', 'a\ud800b\udc00c', 'a\\ud800b\\udc00c'],
      ['U+FFFE and U+FFFF', 'a\ufffeb\uffffc', 'a\\ufffeb\\uffffc'],
      ['a carriage return overwriting the line', 'safe\rEVIL', 'safe\\rEVIL'],
      ['a bidi override', 'prod\u202Eved', 'prod\\u202eved'],
      ['C1 CSI', 'a\u009b2Jb', 'a\\x9b2Jb'],
    ] as const

    for (const [what, value, shown] of nasty) {
      it(`shows ${what} safely in messages, output and names`, () => {
        const xml = renderJUnit({
          program: value,
          startedAt: new Date(0),
          durationMs: 0,
          targets: [
            {
              result: {profile: `ns/${value}`, exitCode: 1, durationMs: 0, started: true, error: value},
              output: tailOf([value, value]),
            },
          ],
        })
        assert.match(xml, XML_CHARS)
        assert.doesNotMatch(xml, RAW_CONTROL)
        assert.doesNotMatch(xml, /<!\[CDATA\[/)
        const {testsuites} = parse(xml)
        const [testCase] = testsuites.testsuite.testcase
        assert.equal(testsuites.testsuite.name, `cpcred exec ${shown}`)
        assert.equal(testCase!.name, shown)
        assert.deepEqual(testCase!.failure, {
          message: shown,
          type: 'exit-code',
          '#text': `${shown}\n${shown}`,
        })
        assert.equal(testCase!['system-out'], `${shown}\n${shown}`)
      })
    }

    it('writes every markup character as an entity', () => {
      const xml = renderJUnit(
        reportOf({
          result: {profile: 'a/b', exitCode: 1, durationMs: 0, started: true, error: `<&>"'`},
          output: tailOf([`<&>"' ]]>`]),
        }),
      )
      assert.match(xml, /message="&lt;&amp;&gt;&quot;&apos;"/)
      assert.match(xml, /<system-out>&lt;&amp;&gt;&quot;&apos; \]\]&gt;<\/system-out>/)
    })

    it('keeps the lines of a message: each newline as &#10;, which a parser gives back as a newline', () => {
      const xml = renderJUnit(
        reportOf({
          result: {
            profile: 'a/b',
            exitCode: 5,
            durationMs: 0,
            started: false,
            error: 'provider "p" (cpcred) exited with code 4; its stderr:\nforbidden\tnow',
          },
        }),
      )
      // A raw newline in an attribute is folded into a space by every conforming parser.
      assert.match(
        xml,
        /message="provider &quot;p&quot; \(cpcred\) exited with code 4; its stderr:&#10;forbidden/,
      )
      assert.equal(
        (onlyCase(xml).error as {message: string}).message,
        'provider "p" (cpcred) exited with code 4; its stderr:\nforbidden\\tnow',
      )
    })

    it('gives the hint of a target that never started on a line of its own after the error', () => {
      const testCase = onlyCase(
        renderJUnit(
          reportOf({
            result: {
              profile: 'a/b',
              exitCode: 5,
              durationMs: 0,
              started: false,
              error: 'provider "p" (p-login): command not found: p-login',
              hint: 'brew install p-login',
            },
          }),
        ),
      )
      assert.deepEqual(testCase.error, {
        message: 'provider "p" (p-login): command not found: p-login\nbrew install p-login',
        type: 'plugin-failed',
      })
    })

    it('leaves nothing a terminal acts on, even with every hostile sequence at once', () => {
      const xml = renderJUnit(
        reportOf({
          result: {profile: 'a/b', exitCode: 1, durationMs: 0, started: true, error: HOSTILE},
          output: tailOf([HOSTILE]),
        }),
      )
      assert.doesNotMatch(xml, RAW_CONTROL)
      assert.match(xml, XML_CHARS)
    })
  })
})

describe('renderJUnit: targets the selection kept from running', () => {
  it('shows an unresolved reference as <error> and a target --healthy left out as <skipped>, with the reason', async () => {
    const {notRunResults} = await import('../../src/core/fleet/fan-out-report.js')
    const results = notRunResults(
      [{profile: 'fleet/gone', error: 'ClusterProfile fleet/gone not found', exitCode: 1}],
      [{profile: 'fleet/sick', reason: 'ControlPlaneHealthy is False: Down: no answer', kind: 'not healthy'}],
    )
    const suite = parse(renderJUnit(reportOf(...results.map((result) => ({result}))))).testsuites.testsuite
    assert.deepEqual([suite.tests, suite.errors, suite.skipped, suite.failures], ['2', '1', '1', '0'])
    const [gone, sick] = suite.testcase
    assert.deepEqual(gone!.error, {message: 'ClusterProfile fleet/gone not found', type: 'failure'})
    assert.deepEqual(sick!.skipped, {message: 'skipped: ControlPlaneHealthy is False: Down: no answer'})
    assert.equal(sick!.failure, undefined)
  })
})

describe('inSelectionOrder: the summary and reports in a placement decision order', () => {
  const result = (profile: string, started = true) => ({profile, exitCode: 0, durationMs: 0, started})
  it('puts targets that did not run where they were decided, and keeps the rest as they came', async () => {
    const {inSelectionOrder} = await import('../../src/core/fleet/fan-out-report.js')
    const ran = [result('f/b'), result('f/a'), result('f/d')]
    const notRun = [result('f/gone', false), result('g/hidden', false), result('f/c', false)]
    const keys = (list: {profile: string}[]) => list.map((r) => r.profile)
    assert.deepEqual(
      keys(inSelectionOrder([...ran, ...notRun], ['f/b', 'f/a', 'f/gone', 'f/d', 'f/c', 'g/hidden'])),
      ['f/b', 'f/a', 'f/gone', 'f/d', 'f/c', 'g/hidden'],
    )
    assert.deepEqual(
      keys(inSelectionOrder([...ran, ...notRun])),
      keys([...ran, ...notRun]),
      'no order: as given',
    )
    assert.deepEqual(
      keys(inSelectionOrder([result('x/unknown'), ...ran], ['f/d', 'f/a', 'f/b'])),
      ['f/d', 'f/a', 'f/b', 'x/unknown'],
      'a target the order does not know goes last',
    )
  })
})
