import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {LineSplitter} from '../../src/core/text/line-splitter.js'

function split(chunks: string[], maxLength?: number): string[] {
  const lines: string[] = []
  const splitter = new LineSplitter((line) => lines.push(line), maxLength)
  for (const chunk of chunks) splitter.push(chunk)
  splitter.end()
  return lines
}

describe('LineSplitter', () => {
  it('splits on \\n and \\r\\n, across chunks, keeping empty lines and a last line without newline', () => {
    assert.deepEqual(split(['a\nb', 'c\r\n\nd']), ['a', 'bc', '', 'd'])
    assert.deepEqual(split(['one\n']), ['one'])
    assert.deepEqual(split([]), [])
  })

  it('cuts a line longer than the limit, so a target without newlines holds a bounded amount', () => {
    assert.deepEqual(split(['abcdefg\nhi'], 3), ['abc', 'def', 'g', 'hi'])
    const lines: string[] = []
    const splitter = new LineSplitter((line) => lines.push(line), 4)
    for (let i = 0; i < 1000; i++) splitter.push('xyz')
    // All but at most one limit's worth has been handed on already.
    assert.ok(lines.join('').length >= 3000 - 4, `${lines.join('').length} handed on`)
    assert.ok(lines.every((line) => line === 'xyzx' || line === 'yzxy' || line === 'zxyz'))
    splitter.end()
    assert.equal(lines.join('').length, 3000)
  })

  it('says which pieces no newline ended, so they can be put back together exactly', () => {
    const pieces: [string, boolean][] = []
    const splitter = new LineSplitter((line, newline) => pieces.push([line, newline]), 3)
    splitter.push('abcdefg\nhi\n')
    splitter.push('last')
    splitter.end()
    assert.deepEqual(pieces, [
      ['abc', false],
      ['def', false],
      ['g', true],
      ['hi', true],
      ['las', false],
      ['t', false],
    ])
    assert.equal(
      pieces.map(([line, newline]) => (newline ? `${line}\n` : line)).join(''),
      'abcdefg\nhi\nlast',
    )
  })

  it('cuts a line of exactly the limit once', () => {
    assert.deepEqual(split(['abc\nabcd\n'], 3), ['abc', 'abc', 'd'])
  })
})
