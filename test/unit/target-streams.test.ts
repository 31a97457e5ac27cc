import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {StreamCapture, streamFields, targetStreams} from '../../src/core/fleet/target-streams.js'
import {renderJsonReport, targetRecord} from '../../src/core/fleet/fan-out-report.js'

const text = (value: string) => Buffer.from(value)
const bytes = (value: string) => Buffer.from(value, 'latin1')

describe('StreamCapture: the start of a stream, capped', () => {
  it('keeps every line, each ending in a newline, while it fits', () => {
    const capture = new StreamCapture(100)
    capture.push(text('{'))
    capture.push(text('  "a": 1'))
    capture.push(text('}'))
    assert.equal(capture.text(), '{\n  "a": 1\n}\n')
    assert.equal(capture.truncated, false)
  })

  it('stops at the cap in bytes of UTF-8, never inside a character, and says it was truncated', () => {
    const capture = new StreamCapture(9)
    capture.push(text('ab'))
    capture.push(text('cdé€xyz'))
    capture.push(text('more'))
    // 'ab\n' is 3 bytes; 'cdé' is 4 more; '€' (3 bytes) would pass 9.
    assert.equal(capture.text(), 'ab\ncdé')
    assert.ok(Buffer.byteLength(capture.text()) <= 9)
    assert.equal(capture.truncated, true)
  })

  it('adds no newline where none ended a piece', () => {
    const capture = new StreamCapture(100)
    capture.push(text('abc'), false)
    capture.push(text('def'), true)
    capture.push(text('ok'), false)
    assert.equal(capture.text(), 'abcdef\nok')
  })

  it('keeps the bytes exactly, a \\r before a newline and bytes that are not UTF-8 included', () => {
    const capture = new StreamCapture(1024)
    capture.push(bytes('A\xff\xfeB'))
    capture.push(text('ready\r'))
    capture.push(bytes('\x00\x80'), false)
    assert.deepEqual(capture.bytes(), bytes('A\xff\xfeB\nready\r\n\x00\x80'))
    assert.equal(capture.text(), 'A\uFFFD\uFFFDB\nready\r\n\x00\uFFFD')
  })

  it('holds many small lines up to the cap and not a byte more', () => {
    const capture = new StreamCapture(1000)
    for (let index = 0; index < 500; index++) capture.push(text('abc'))
    assert.equal(capture.bytes().length, 1000)
    assert.equal(capture.text(), 'abc\n'.repeat(250))
    assert.equal(capture.truncated, true)
  })

  it('refuses a cap that is not a positive whole number', () => {
    assert.throws(() => new StreamCapture(0), RangeError)
  })
})

describe('streamFields: what a record says of the streams', () => {
  it('gives both streams apart, and the cap only when one was cut', () => {
    const streams = targetStreams(8)
    streams.stdout.push(text('{"v":1}'))
    streams.stderr.push(text('WARNING: version skew exceeds the supported limit'))
    assert.deepEqual(streamFields(streams), {
      stdout: '{"v":1}\n',
      stderr: 'WARNING:',
      stderrTruncated: true,
      outputCapBytes: 8,
    })
  })

  it('adds the exact bytes as base64 beside the text only for a stream that is not UTF-8', () => {
    const streams = targetStreams(1024)
    streams.stdout.push(bytes('A\xff\xfeB'))
    streams.stderr.push(text('ünïcode is fine'))
    const fields = streamFields(streams)
    assert.deepEqual(fields, {
      stdout: 'A\uFFFD\uFFFDB\n',
      stdoutBase64: bytes('A\xff\xfeB\n').toString('base64'),
      stderr: 'ünïcode is fine\n',
    })
    assert.deepEqual(Buffer.from(fields.stdoutBase64!, 'base64'), bytes('A\xff\xfeB\n'))

    const reverse = targetStreams(1024)
    reverse.stderr.push(bytes('\x80'), false)
    assert.deepEqual(streamFields(reverse), {stdout: '', stderr: '\uFFFD', stderrBase64: 'gA=='})
  })

  it('cuts a stream that is UTF-8 where it stays UTF-8, so no base64 is needed for the cut', () => {
    const streams = targetStreams(5)
    streams.stdout.push(text('ab€€'))
    assert.deepEqual(streamFields(streams), {
      stdout: 'ab€',
      stderr: '',
      stdoutTruncated: true,
      outputCapBytes: 5,
    })
  })

  it('gives empty streams for a target that never ran', () => {
    assert.deepEqual(streamFields(undefined), {stdout: '', stderr: ''})
  })

  it('is the same in the -o record and the JSON report', () => {
    const streams = targetStreams(1024)
    streams.stdout.push(text('out'))
    streams.stderr.push(text('err'))
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
    assert.equal('stdoutBase64' in record, false)
    assert.equal('stdoutBase64' in report.targets[0], false)

    streams.stdout.push(bytes('\xff'))
    const binary = targetRecord(result, streams)
    const binaryReport = JSON.parse(
      renderJsonReport({program: 'sh', startedAt: new Date(0), durationMs: 1, targets: [{result, streams}]}),
    )
    for (const fields of [binary, binaryReport.targets[0]]) {
      assert.equal(fields.stdout, 'out\n\uFFFD\n')
      assert.deepEqual(Buffer.from(fields.stdoutBase64, 'base64'), bytes('out\n\xff\n'))
      assert.equal(fields.stderrBase64, undefined)
    }
  })
})
