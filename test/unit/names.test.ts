import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {isDnsLabel, isDnsSubdomain} from '../../src/core/profiles/names.js'

describe('Kubernetes names', () => {
  const cases: Array<[string, boolean, boolean]> = [
    // name, label, subdomain
    ['a', true, true],
    ['team-a', true, true],
    ['eu.west-1', false, true],
    ['', false, false],
    ['-a', false, false],
    ['a-', false, false],
    ['A', false, false],
    ['a..b', false, false],
    ['a.-b', false, false],
    ['..', false, false],
    ['a_b', false, false],
    ['a'.repeat(63), true, true],
    ['a'.repeat(64), false, true],
    ['a'.repeat(253), false, true],
    ['a'.repeat(254), false, false],
  ]
  for (const [name, label, subdomain] of cases) {
    it(`${JSON.stringify(name.length > 20 ? `${name.slice(0, 5)}…(${name.length})` : name)}: label ${label}, subdomain ${subdomain}`, () => {
      assert.equal(isDnsLabel(name), label)
      assert.equal(isDnsSubdomain(name), subdomain)
    })
  }
})
