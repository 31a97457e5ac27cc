// The YAML cpcred writes (-o yaml and kubeconfigs, through one rule: core/text/yaml-scalars.ts) read
// back by the readers its users have, as exactly what was written: js-yaml's default `load` and
// PyYAML's safe_load (test/helpers/yaml-readers.ts).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {exportYaml} from '../../src/core/text/export-yaml.js'
import {emitKubeconfig} from '../../src/core/kubeconfig/text.js'
import {needsQuotes} from '../../src/core/text/yaml-scalars.js'
import {pyyamlMissing, readWithJsYaml, readWithPyYaml} from '../helpers/yaml-readers.js'

/** Strings PyYAML, Go's yaml v2 or js-yaml reads as a bool, null, number, date, merge or value key. */
const MISREAD = [
  ...['no', 'No', 'NO', 'on', 'On', 'yes', 'Yes', 'off', 'OFF', 'y', 'Y', 'n', 'N', 'true', 'False'],
  ...['~', 'null', 'Null', 'NULL', '<<', '='],
  ...['2026-01-01', '2026-01-01T00:00:00Z', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5'],
  ...['2002-12-14', '2026-1-1T1:00:00Z', '2026-01-01T00:00:00.123456789+02:00'],
  ...['1e3', '0x1F', '012', '0o17', '0b101', '1_000', '+1', '-1.5', '.5', '1.', '0x1p3', '1_0.5e1'],
  ...['.inf', '-.Inf', '.NaN', '+Inf', 'NaN', 'Infinity'],
  ...['12:30:45', '190:20:30', '1:20', '-1:20', '190:20:30.15', '1:2:3:4:5:6:7:8'],
]

/** Those, and strings that break a plain scalar or that no reader takes as they stand. */
const AMBIGUOUS = [
  ...MISREAD,
  ...['', 'e1'],
  ...['*alias', '&anchor', '!tag', '%directive', '@at', '`tick', '|', '>', '?', '-', '- item', '[a]'],
  ...['{a: b}', 'a: b', 'a #b', '#comment', "'single", '"double', ' leading', 'trailing ', '🚀'],
  ...['line\nbreak', 'trailing\n', '\n', '\n\n', 'two\n\n', ' lead\nx', 'x\n lead', 'end \n', 'a\n '],
  ...['tab\there', '\tlead\nx', 'x\n\tlead', 'NAME\tREADY\nweb\t1/1\n', 'no\n', '- a\n- b', '#\n#'],
  ...['cr\rhere', 'crlf\r\n', 'del\u007fhere'],
  ...['c1\u0085\u0090', 'bom\ufeff', 'ls\u2028ps\u2029', 'bidi\u202eevil', 'nul\u0000x'],
  ...['esc\u001b[31mred', 'bell\u0007', 'lone\ud800', 'lone\udc00', 'nonchar\ufffe\uffff'],
]

/** Each string as a value, in a list, and as a key, with the other scalars JSON has beside it. */
const documentOf = (value: string) => ({value, list: [value], [value]: value, n: 1, f: 1.5, t: true, z: null})

const EMITTERS: [string, (value: unknown) => string | Promise<string>][] = [
  ['exportYaml (-o yaml)', exportYaml],
  ['emitKubeconfig', emitKubeconfig],
]

describe('YAML that cpcred writes reads back as written', () => {
  for (const [name, emit] of EMITTERS) {
    it(`${name}: js-yaml's default load reads every ambiguous string as itself`, async () => {
      for (const value of AMBIGUOUS) {
        const text = await emit(documentOf(value))
        const what = `${JSON.stringify(value)} as ${JSON.stringify(text)}`
        assert.deepEqual(readWithJsYaml(text), {value: documentOf(value)}, what)
      }
    })

    it(
      `${name}: PyYAML's safe_load reads every ambiguous string as itself`,
      {skip: pyyamlMissing},
      async () => {
        const texts = await Promise.all(AMBIGUOUS.map(async (value) => emit(documentOf(value))))
        const read = readWithPyYaml(texts)
        AMBIGUOUS.forEach((value, index) => {
          const what = `${JSON.stringify(value)} as ${JSON.stringify(texts[index])}`
          assert.deepEqual(read[index], {value: documentOf(value)}, what)
        })
      },
    )
  }

  it('the rule itself names what a reader misreads, not only the yaml package it is applied with', () => {
    // kubeconfig's fast path (plain-yaml.ts) writes without the yaml package, by this rule alone.
    for (const value of MISREAD) assert.ok(needsQuotes(value), JSON.stringify(value))
    for (const value of ['target', 'v1.37.2', 'https://hub.example:6443', 'no-such', 'on_call', '2026-01'])
      assert.ok(!needsQuotes(value), JSON.stringify(value))
  })

  it('keeps the shape kubectl prints: plain where plain reads back, quoted as kubectl quotes', () => {
    assert.equal(
      exportYaml({a: ['no', 'on'], created: '2026-01-01T00:00:00Z', name: 'target', port: 443}),
      'a:\n- "no"\n- "on"\ncreated: "2026-01-01T00:00:00Z"\nname: target\nport: 443\n',
    )
  })
})
