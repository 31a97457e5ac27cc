import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {characterBoundary, LineSplitter, lineText} from '../../src/core/text/line-splitter.js'

const bytes = (text: string) => Buffer.from(text, 'latin1')

function split(chunks: string[], maxLength?: number): string[] {
  const lines: string[] = []
  const splitter = new LineSplitter((line) => lines.push(line.toString('utf8')), maxLength)
  for (const chunk of chunks) splitter.push(Buffer.from(chunk))
  splitter.end()
  return lines
}

describe('LineSplitter', () => {
  it('splits on \\n, across chunks, keeping empty lines, a \\r and a last line without newline', () => {
    assert.deepEqual(split(['a\nb', 'c\r\n\nd']), ['a', 'bc\r', '', 'd'])
    assert.deepEqual(split(['one\n']), ['one'])
    assert.deepEqual(split([]), [])
  })

  it('hands on the bytes as they were written, never decoded: not UTF-8 stays as it is', () => {
    const pieces: Buffer[] = []
    const splitter = new LineSplitter((line) => pieces.push(Buffer.from(line)))
    // A\xff\xfeB, then a UTF-8 character split across two chunks, then a lone continuation byte.
    splitter.push(bytes('A\xff\xfeB\n\xe2'))
    splitter.push(bytes('\x82\xac\n\x80'))
    splitter.end()
    assert.deepEqual(pieces, [bytes('A\xff\xfeB'), bytes('\xe2\x82\xac'), bytes('\x80')])
  })

  it('cuts a line longer than the limit, so a target without newlines holds a bounded amount', () => {
    assert.deepEqual(split(['abcdefg\nhi'], 3), ['abc', 'def', 'g', 'hi'])
    const lines: string[] = []
    const splitter = new LineSplitter((line) => lines.push(line.toString()), 4)
    for (let i = 0; i < 1000; i++) splitter.push(Buffer.from('xyz'))
    // All but at most one limit's worth has been handed on already.
    assert.ok(lines.join('').length >= 3000 - 4, `${lines.join('').length} handed on`)
    assert.ok(lines.every((line) => line === 'xyzx' || line === 'yzxy' || line === 'zxyz'))
    splitter.end()
    assert.equal(lines.join('').length, 3000)
  })

  it('cuts before a UTF-8 character rather than inside it, and bytes that are not UTF-8 at the limit', () => {
    // 'a€b€': the cut at 3 would fall inside the first €, so it comes before it.
    assert.deepEqual(split(['a€b€\n'], 3), ['a', '€', 'b', '€'])
    const pieces: Buffer[] = []
    const splitter = new LineSplitter((line) => pieces.push(Buffer.from(line)), 3)
    splitter.push(bytes('\x80\x80\x80\x80\x80\n'))
    splitter.end()
    assert.deepEqual(pieces, [bytes('\x80\x80\x80'), bytes('\x80\x80')])
  })

  it('says which pieces no newline ended, so they can be put back together exactly', () => {
    const pieces: [string, boolean][] = []
    const splitter = new LineSplitter((line, newline) => pieces.push([line.toString(), newline]), 3)
    splitter.push(Buffer.from('abcdefg\nhi\r\n'))
    splitter.push(Buffer.from('last'))
    splitter.end()
    assert.deepEqual(pieces, [
      ['abc', false],
      ['def', false],
      ['g', true],
      ['hi\r', true],
      ['las', false],
      ['t', false],
    ])
    assert.equal(
      pieces.map(([line, newline]) => (newline ? `${line}\n` : line)).join(''),
      'abcdefg\nhi\r\nlast',
    )
  })

  it('cuts a line of exactly the limit once', () => {
    assert.deepEqual(split(['abc\nabcd\n'], 3), ['abc', 'abc', 'd'])
  })

  it('refuses a limit that is not a positive whole number', () => {
    assert.throws(() => new LineSplitter(() => undefined, 0), RangeError)
  })
})

describe('characterBoundary', () => {
  const cases: Array<[string, Buffer, number, number]> = [
    ['ASCII: at the limit', Buffer.from('abcdef'), 3, 3],
    ['inside a 3-byte character: before it', Buffer.from('ab€'), 3, 2],
    ['inside a 4-byte character: before it', Buffer.from('a😀'), 4, 1],
    ['after a whole character: at the limit', Buffer.from('a€b'), 4, 4],
    ['continuation bytes only: at the limit', bytes('\x80\x80\x80\x80\x80'), 4, 4],
    ['a character at the start: at the limit, never an empty piece', Buffer.from('€'), 2, 2],
    ['past the end: the end', Buffer.from('ab'), 5, 2],
  ]
  for (const [name, input, at, expected] of cases) {
    it(name, () => assert.equal(characterBoundary(input, at), expected))
  }
})

describe('lineText: a line for a person', () => {
  it('is UTF-8 without the \\r before its newline; bytes that are not UTF-8 are U+FFFD', () => {
    assert.equal(lineText(Buffer.from('ready\r')), 'ready')
    assert.equal(lineText(Buffer.from('a\rb')), 'a\rb')
    assert.equal(lineText(bytes('A\xff\xfeB')), 'A\uFFFD\uFFFDB')
    assert.equal(lineText(Buffer.alloc(0)), '')
  })
})
