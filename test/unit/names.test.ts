import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ExitCode} from '../../src/core/errors.js'
import {
  InvalidNameError,
  isDnsLabel,
  isDnsSubdomain,
  NAME_RULES,
  nameProblem,
  namespacedPath,
  quotedName,
} from '../../src/core/profiles/names.js'
import {RAW_CONTROL} from '../helpers/controls.js'

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

describe('request paths from checked names only', () => {
  const hostile = ['.', '..', '../x', 'a/b', '%2F', 'UPPER', 'a'.repeat(300), 'a\u001b[31mb', 'a\nb', '']

  it('builds the paths of namespaced objects', () => {
    assert.equal(
      namespacedPath('/api/v1', 'secrets', 'team-a', 'eu.west-1'),
      '/api/v1/namespaces/team-a/secrets/eu.west-1',
    )
    assert.equal(
      namespacedPath('/api/v1', 'serviceaccounts', 'team-a', 'deployer', 'token'),
      '/api/v1/namespaces/team-a/serviceaccounts/deployer/token',
    )
    assert.equal(
      namespacedPath('/apis/multicluster.x-k8s.io/v1alpha1', 'clusterprofiles', 'fleet'),
      '/apis/multicluster.x-k8s.io/v1alpha1/namespaces/fleet/clusterprofiles',
    )
  })

  for (const bad of hostile) {
    it(`refuses ${quotedName(bad)} as a namespace and as a name, naming the rule`, () => {
      assert.throws(
        () => namespacedPath('/api/v1', 'secrets', bad, 'ok'),
        (error: unknown) =>
          error instanceof InvalidNameError &&
          error.exitCode === ExitCode.Failure &&
          error.message.includes(NAME_RULES.namespace) &&
          !RAW_CONTROL.test(error.message),
      )
      assert.throws(
        () => namespacedPath('/api/v1', 'secrets', 'ok', bad),
        (error: unknown) =>
          error instanceof InvalidNameError &&
          error.kind === 'object' &&
          error.message.includes(NAME_RULES.object),
      )
    })
  }

  it('a dotted name is a name but not a namespace', () => {
    assert.equal(nameProblem('object', 'a.b'), undefined)
    assert.equal(nameProblem('namespace', 'a.b'), NAME_RULES.namespace)
  })

  it('quotes a long name cut, with its length', () => {
    assert.equal(quotedName('a'.repeat(300)), JSON.stringify(`${'a'.repeat(80)}…(300 characters)`))
  })
})
