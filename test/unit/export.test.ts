import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {exportData, exporterOf, exportJson, exportJsonLine, kubectlList} from '../../src/core/text/export.js'
import {exportYaml} from '../../src/core/text/export-yaml.js'

const hostile = {name: 'a\u001b[31mb\u202e', list: ['no', 'on', '0x1F'], nested: {empty: [], n: 1}}

describe('exporter for -o json|yaml', () => {
  it('keeps untrusted strings exact: escapes stay escapes, nothing is made printable', async () => {
    assert.equal(JSON.parse(exportJson(hostile)).name, hostile.name)
    const {parse} = await import('yaml')
    assert.deepEqual(parse(exportYaml(hostile)), hostile)
    assert.equal(JSON.parse(exportJsonLine(hostile)).name, hostile.name)
  })

  it('refuses what JSON cannot hold rather than printing half of it', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    assert.throws(() => exportJson(cycle), TypeError)
    assert.throws(() => exportJson({big: 1n}), TypeError)
  })

  it('prints JSON indented by 4 spaces with a trailing newline, as kubectl does', () => {
    assert.equal(
      exportJson({a: {b: [1]}}),
      '{\n    "a": {\n        "b": [\n            1\n        ]\n    }\n}\n',
    )
  })

  it('prints YAML indented by 2 spaces, sequences level with their key, long lines unfolded', () => {
    const long = 'x'.repeat(200)
    assert.equal(exportYaml({a: {b: [1, 2]}, long}), `a:\n  b:\n  - 1\n  - 2\nlong: ${long}\n`)
  })

  it('keeps key order', () => {
    assert.equal(exportJsonLine({z: 1, a: 2}), '{"z":1,"a":2}\n')
    assert.equal(exportYaml({z: 1, a: 2}), 'z: 1\na: 2\n')
  })

  it('chooses by format, and streams one JSON object a line or one YAML document each', async () => {
    assert.equal(await exportData({a: 1}, 'json'), exportJson({a: 1}))
    assert.equal(await exportData({a: 1}, 'yaml'), 'a: 1\n')
    assert.equal((await exporterOf('json')).streamed({a: 1}), '{"a":1}\n')
    assert.equal((await exporterOf('yaml')).streamed({a: 1}), '---\na: 1\n')
  })

  it('holds several objects in the List kubectl prints them in', () => {
    assert.deepEqual(kubectlList([{a: 1}]), {
      apiVersion: 'v1',
      items: [{a: 1}],
      kind: 'List',
      metadata: {resourceVersion: ''},
    })
  })
})
