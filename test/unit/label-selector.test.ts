import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {checkLabelSelector, labelSelectorProblem} from '../../src/core/fleet/label-selector.js'
import {ExitCode, isCpcredError} from '../../src/core/errors.js'
import {INVALID_SELECTORS, VALID_SELECTORS} from '../helpers/selectors.js'

describe('label selector syntax', () => {
  for (const selector of VALID_SELECTORS) {
    it(`accepts ${JSON.stringify(selector)}`, () => assert.equal(labelSelectorProblem(selector), undefined))
  }
  for (const [selector, pattern] of INVALID_SELECTORS) {
    it(`refuses ${JSON.stringify(selector)}`, () =>
      assert.match(labelSelectorProblem(selector) ?? 'accepted', pattern))
  }
  it('is a usage error naming the selector', () => {
    assert.throws(
      () => checkLabelSelector('env in prod'),
      (error: Error) =>
        isCpcredError(error) &&
        error.exitCode === ExitCode.Usage &&
        error.message.startsWith('-l "env in prod" is not a label selector: '),
    )
    assert.doesNotThrow(() => checkLabelSelector(undefined))
  })
})
