// docs/lint.md's table of rules is the code's: every rule, in order, with its severity, and whether
// the v1alpha2 CRD enforces it.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {LINT_RULES} from '../../src/core/lint/rules.js'

const page = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/lint.md'),
  'utf8',
)

describe('docs/lint.md', () => {
  it('lists every rule, in order, with its severity and whether the CRD enforces it', () => {
    const rows = [...page.matchAll(/^\| `([a-z-]+)` +\| (error|will-break|warning) +\| (.*?) +\|/gm)].map(
      ([, id, severity, source]) => [id, severity, source!.includes('(CRD)')],
    )
    assert.deepEqual(
      rows,
      LINT_RULES.map((rule) => [rule.id, rule.severity, 'crd' in rule && rule.crd === true]),
    )
  })
})
