import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {RAW_CONTROL} from '../helpers/controls.js'
import {age, formatCells, humanDuration, kubectlTable, namesInBrief} from '../../src/core/text/format.js'

const s = 1000
const m = 60 * s
const h = 60 * m
const d = 24 * h

describe('humanDuration (kubectl AGE)', () => {
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 5 * s, '2m5s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [8 * h + 20 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [2 * d + 5 * h, '2d5h'],
    [8 * d + 5 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [8 * 365 * d, '8y'],
  ]
  for (const [duration, expected] of cases) {
    it(`${duration}ms is ${expected}`, () => assert.equal(humanDuration(duration), expected))
  }

  it('ages a timestamp against an injected clock, <unknown> without one', () => {
    const now = new Date('2026-11-22T12:00:00Z')
    assert.equal(age('2026-11-22T11:00:00Z', now), '60m')
    assert.equal(age(undefined, now), '<unknown>')
    assert.equal(age('not a time', now), '<unknown>')
  })
})

describe('formatCells', () => {
  it('pads a kubectl table like its tabwriter (min width 6, padding 3), the last column unpadded', () => {
    const table = formatCells(
      kubectlTable(
        ['NAME', 'AGE'],
        [
          ['a', '5s'],
          ['longer-name', '10d'],
        ],
      ),
    )
    assert.equal(table, 'NAME          AGE\na             5s\nlonger-name   10d\n')
  })

  it('measures widths before styling, so colour does not shift columns', () => {
    const table = formatCells(kubectlTable(['A', 'B'], [['x', 'y']]), (cell, column, row) =>
      row > 0 && column === 0 ? `<${cell}>` : cell,
    )
    assert.equal(table, 'A     B\n<x>     y\n')
  })

  it('makes every cell printable before measuring it, so escapes keep the columns aligned', () => {
    const table = formatCells(
      kubectlTable(
        ['NAME', 'DISPLAY NAME', 'SERVER'],
        [
          ['a', '\x1b]0;pwned\x07\x1b[31mred', 'https://x'],
          ['b', 'plain', 'line\nbreak'],
        ],
      ),
    )
    assert.equal(
      table,
      'NAME   DISPLAY NAME                  SERVER\n' +
        'a      \\x1b]0;pwned\\x07\\x1b[31mred   https://x\n' +
        'b      plain                         line\\nbreak\n',
    )
    assert.doesNotMatch(table, RAW_CONTROL)
  })

  it('aligns describe-style blocks: a column over each run of lines that have a cell after it', () => {
    const text = formatCells({
      rows: [['Name:', 'x'], ['Labels:', 'a=b'], ['Conditions:'], ['  Type', 'Status'], ['  Ready', 'True']],
      padding: 2,
      minWidth: 0,
      trimEnd: true,
    })
    assert.equal(text, 'Name:    x\nLabels:  a=b\nConditions:\n  Type   Status\n  Ready  True\n')
  })
})

describe('namesInBrief (a list of names inside one message line)', () => {
  it('shows a few names whole and cuts a long list to five and a count', () => {
    assert.equal(namesInBrief([]), '')
    assert.equal(namesInBrief(['a', 'b']), 'a, b')
    assert.equal(namesInBrief(['a', 'b', 'c', 'd', 'e', 'f']), 'a, b, c, d, e, f')
    const many = Array.from({length: 1000}, (_, i) => `context ns/p-${i}`)
    const line = namesInBrief(many)
    assert.equal(
      line,
      'context ns/p-0, context ns/p-1, context ns/p-2, context ns/p-3, context ns/p-4 and 995 more',
    )
    assert.ok(line.length < 120)
  })
})

describe('formatCells: widths in characters, as tabwriter counts runes', () => {
  it('aligns a column of astral characters, a lone surrogate and escapes by what is shown', () => {
    const text = formatCells(
      kubectlTable(
        ['NAME', 'X'],
        [
          ['😀😀😀😀😀😀😀', 'a'],
          ['\ud800lone', 'b'],
          ['tab\there', 'c'],
        ],
      ),
    )
    assert.equal(
      text,
      ['NAME        X', '😀😀😀😀😀😀😀     a', '\ud800lone       b', 'tab\\there   c', ''].join('\n'),
    )
  })
})
