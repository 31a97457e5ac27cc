import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {printerFor} from '../../src/adapters/printer.js'
import {kubectlTable} from '../../src/core/text/format.js'
import {RAW_CONTROL} from '../helpers/controls.js'
import {
  escapeChar,
  MAX_PRINTABLE_LENGTH,
  NEEDS_ESCAPE,
  NEEDS_ESCAPE_IN_LINES,
  printable,
  printableLines,
} from '../../src/core/text/printable.js'

const hostile = [
  ['ESC and CSI colour', '\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
  ['OSC window title ended by BEL', '\x1b]0;owned\x07', '\\x1b]0;owned\\x07'],
  [
    'OSC 8 hyperlink ended by ST',
    '\x1b]8;;https://evil\x1b\\x\x1b]8;;\x1b\\',
    '\\x1b]8;;https://evil\\x1b\\x\\x1b]8;;\\x1b\\',
  ],
  ['C1 CSI (0x9b) and NEL (0x85)', 'a\u009b2Jb\u0085c', 'a\\x9b2Jb\\x85c'],
  ['bidi override reordering a name', 'prod\u202Eved', 'prod\\u202eved'],
  ['bidi isolates and marks', '\u2066a\u2069\u200e\u200f\u061c', '\\u2066a\\u2069\\u200e\\u200f\\u061c'],
  ['NUL and DEL', 'a\u0000b\u007fc', 'a\\x00b\\x7fc'],
  ['a forged line', 'ok\nCommand: rm -rf /', 'ok\\nCommand: rm -rf /'],
  ['carriage return overwriting the line', 'safe\rEVIL', 'safe\\rEVIL'],
  ['tab', 'a\tb', 'a\\tb'],
  ['other text untouched', 'é 日本 ✓ <none>', 'é 日本 ✓ <none>'],
] as const

describe('printable', () => {
  for (const [what, input, expected] of hostile) {
    it(`shows ${what} as visible escapes`, () => {
      assert.equal(printable(input), expected)
      assert.doesNotMatch(printable(input), RAW_CONTROL)
    })
  }

  it('cuts a very long value, saying how much was left out', () => {
    const long = 'x'.repeat(MAX_PRINTABLE_LENGTH + 500)
    assert.equal(printable(long), `${'x'.repeat(MAX_PRINTABLE_LENGTH)}…(500 more characters)`)
    assert.equal(printable('y'.repeat(MAX_PRINTABLE_LENGTH)), 'y'.repeat(MAX_PRINTABLE_LENGTH))
  })

  it('keeps the line breaks of a message and escapes the rest of each line', () => {
    assert.equal(printableLines('first\x1b[2J\nsecond\r\n'), 'first\\x1b[2J\nsecond\\r\n')
  })
})

describe('the printer, the one output boundary', () => {
  function capture(tty = false) {
    const out: string[] = []
    const err: string[] = []
    const printer = printerFor(
      {
        stdout: {write: (text: string) => out.push(text), isTTY: tty},
        stderr: {write: (text: string) => err.push(text), isTTY: tty},
      },
      {},
    )
    return {printer, out: () => out.join(''), err: () => err.join('')}
  }
  const evil = '\x1b]0;pwned\x07\x1b[31m\u202Eevil\u0000'

  it('makes every human-readable path printable: text, cells, notes, warnings, errors, prefixes', () => {
    const {printer, out, err} = capture()
    printer.text(`text ${evil}\n`)
    printer.cells(kubectlTable(['NAME'], [[evil]]))
    printer.note(`note ${evil}`)
    printer.warn(`warning ${evil}`)
    printer.error(`failed ${evil}`, `hint ${evil}`)
    printer.prefixed('stderr', `ns/${evil} |`, `error: ${evil}`, {printable: true})
    printer.status(`progress ${evil}`)
    assert.doesNotMatch(out(), RAW_CONTROL)
    assert.doesNotMatch(err(), RAW_CONTROL)
    assert.match(err(), /^error: failed \\x1b\]0;pwned\\x07\\x1b\[31m\\u202eevil\\x00\nhint /m)
  })

  it("passes exact data and the output of the user's own command as they are", () => {
    const {printer, out} = capture()
    printer.data(`{"displayName":"${evil}"}\n`)
    printer.prefixed('stdout', `ns/${evil} |`, '\x1b[32mRunning\x1b[0m')
    assert.equal(
      out(),
      `{"displayName":"${evil}"}\n` +
        'ns/\\x1b]0;pwned\\x07\\x1b[31m\\u202eevil\\x00 | \x1b[32mRunning\x1b[0m\n',
    )
  })

  it("writes the bytes of the user's command after the prefix as they are, never decoded", () => {
    for (const tty of [false, true]) {
      const out: Buffer[] = []
      const printer = printerFor({
        stdout: {write: (data: string | Uint8Array) => out.push(Buffer.from(data)), isTTY: tty},
        stderr: {write: () => undefined, isTTY: tty},
      })
      const line = Buffer.from('A\xff\xfeB\x1b[1m\r', 'latin1')
      printer.prefixed('stdout', `ns/${evil} |`, line)
      assert.deepEqual(
        Buffer.concat(out),
        Buffer.concat([
          Buffer.from('ns/\\x1b]0;pwned\\x07\\x1b[31m\\u202eevil\\x00 | '),
          line,
          Buffer.from('\n'),
        ]),
      )
      // One write: lines of two targets never mix.
      assert.equal(out.length, 1)
    }
  })

  it('draws a progress line only on a terminal, and redraws it below other output', () => {
    const piped = capture(false)
    piped.printer.status('1/3 done')
    piped.printer.note('hello')
    assert.equal(piped.err(), 'hello\n')

    const tty = capture(true)
    tty.printer.status('1/3 done')
    tty.printer.note('hello')
    tty.printer.status('')
    assert.equal(tty.err(), '1/3 done\r\x1b[2Khello\n1/3 done\r\x1b[2K')
  })
})

describe('the printer draws glyphs the terminal can show', () => {
  function capture(env: NodeJS.ProcessEnv) {
    const out: string[] = []
    const err: string[] = []
    const printer = printerFor(
      {
        stdout: {write: (text: string) => out.push(text), isTTY: true},
        stderr: {write: (text: string) => err.push(text), isTTY: true},
      },
      env,
    )
    return {printer, out: () => out.join(''), err: () => err.join('')}
  }
  const long = 'x'.repeat(MAX_PRINTABLE_LENGTH + 5)

  it('cuts long values with … on a UTF-8 terminal', () => {
    const {printer, out, err} = capture({LANG: 'en_US.UTF-8'})
    assert.equal(printer.unicode, true)
    printer.text(long)
    printer.note(long)
    assert.match(out(), /x…\(5 more characters\)$/)
    assert.match(err(), /x…\(5 more characters\)\n$/)
  })

  for (const env of [{LC_ALL: 'C', LANG: 'en_US.UTF-8'}, {TERM: 'dumb', LANG: 'en_US.UTF-8'}, {}]) {
    it(`and with ... where it cannot (${JSON.stringify(env)})`, () => {
      const {printer, out, err} = capture(env)
      assert.equal(printer.unicode, false)
      assert.equal(printer.glyphs.pointer, '>')
      printer.text(long)
      printer.cells(kubectlTable(['NAME'], [[long]]))
      printer.warn(long)
      printer.status(`checking ${long}`)
      assert.match(out(), /x\.\.\.\(5 more characters\)/)
      assert.doesNotMatch(out() + err(), /[^\n\x20-\x7e]/)
      assert.match(err(), /^warning: x+\.\.\.\(5 more characters\)$/m)
    })
  }
})

describe('printable: text that needs no escape is returned as it is', () => {
  it('NEEDS_ESCAPE matches exactly the characters escapeChar changes, over every BMP code point and the astral planes', () => {
    const disagree: string[] = []
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 0x101) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCodePoint(code)
      if ((escapeChar(char) !== char) !== NEEDS_ESCAPE.test(char)) disagree.push(code.toString(16))
    }
    assert.deepEqual(disagree, [])
  })
  it('NEEDS_ESCAPE_IN_LINES is NEEDS_ESCAPE but a newline, over every BMP code point and the astral planes', () => {
    const disagree: string[] = []
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 0x101) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCodePoint(code)
      if (NEEDS_ESCAPE_IN_LINES.test(char) !== (char !== '\n' && NEEDS_ESCAPE.test(char)))
        disagree.push(code.toString(16))
    }
    assert.deepEqual(disagree, [])
  })
  it('printableLines gives what each line made printable gives, for text taken whole or line by line', () => {
    const long = 'y'.repeat(MAX_PRINTABLE_LENGTH + 1)
    for (const text of [
      'a\nb\n',
      'clean\n\nlines',
      `ok\n${long}\nok`,
      'tab\there',
      'x\u202ey\nz',
      '😀'.repeat(600),
    ]) {
      const lineByLine = text
        .split('\n')
        .map((line) => printable(line))
        .join('\n')
      assert.equal(printableLines(text), lineByLine, JSON.stringify(text.slice(0, 20)))
    }
  })
  it('cuts long text even when it has nothing to escape', () => {
    assert.equal(printable('a'.repeat(12), 10), `${'a'.repeat(10)}…(2 more characters)`)
    assert.equal(
      printable('😀'.repeat(6), 10),
      '😀'.repeat(6),
      'six characters in twelve UTF-16 units are whole',
    )
  })
})
