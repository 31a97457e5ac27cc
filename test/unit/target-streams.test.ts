import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {StreamCapture, streamFields, targetStreams} from '../../src/core/fleet/target-streams.js'
import {renderJsonReport, targetRecord} from '../../src/core/fleet/fan-out-report.js'

describe('StreamCapture: the start of a stream, capped', () => {
  it('keeps every line, each ending in a newline, while it fits', () => {
    const capture = new StreamCapture(100)
    capture.push('{')
    capture.push('  "a": 1')
    capture.push('}')
    assert.equal(capture.text(), '{\n  "a": 1\n}\n')
    assert.equal(capture.truncated, false)
  })

  it('stops at the cap in bytes of UTF-8, never inside a character, and says it was truncated', () => {
    const capture = new StreamCapture(9)
    capture.push('ab')
    capture.push('cdé€xyz')
    capture.push('more')
    // 'ab\n' is 3 bytes; 'cdé' is 4 more; '€' (3 bytes) would pass 9.
    assert.equal(capture.text(), 'ab\ncdé')
    assert.ok(Buffer.byteLength(capture.text()) <= 9)
    assert.equal(capture.truncated, true)
  })

  it('adds no newline where none ended a piece', () => {
    const capture = new StreamCapture(100)
    capture.push('abc', false)
    capture.push('def', true)
    capture.push('ok', false)
    assert.equal(capture.text(), 'abcdef\nok')
  })

  it('refuses a cap that is not a positive whole number', () => {
    assert.throws(() => new StreamCapture(0), RangeError)
  })
})

describe('streamFields: what a record says of the streams', () => {
  it('gives both streams apart, and the cap only when one was cut', () => {
    const streams = targetStreams(8)
    streams.stdout.push('{"v":1}')
    streams.stderr.push('WARNING: version skew exceeds the supported limit')
    assert.deepEqual(streamFields(streams), {
      stdout: '{"v":1}\n',
      stderr: 'WARNING:',
      stderrTruncated: true,
      outputCapBytes: 8,
    })
  })

  it('gives empty streams for a target that never ran', () => {
    assert.deepEqual(streamFields(undefined), {stdout: '', stderr: ''})
  })

  it('is the same in the -o record and the JSON report', () => {
    const streams = targetStreams(1024)
    streams.stdout.push('out')
    streams.stderr.push('err')
    const result = {profile: 'ns/a', exitCode: 0, durationMs: 1.4, started: true}
    const record = targetRecord(result, streams)
    assert.equal(record.stdout, 'out\n')
    assert.equal(record.stderr, 'err\n')
    const report = JSON.parse(
      renderJsonReport({
        program: 'kubectl',
        startedAt: new Date(0),
        durationMs: 1,
        targets: [{result, streams}],
      }),
    )
    assert.equal(report.targets[0].stdout, 'out\n')
    assert.equal(report.targets[0].stderr, 'err\n')
  })
})
