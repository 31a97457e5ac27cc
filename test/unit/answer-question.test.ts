// The question a kept answer is for: what the answer path looks up before parsing, and what the
// fronts of credential and exec keep, from one definition.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {questionOf} from '../../src/cli/answer-question.js'

describe('the question of a command line', () => {
  it("is credential's words, and exec's words before --", () => {
    assert.deepEqual(questionOf(['credential', 'fleet/eu', '--cache-ttl=5m']), {
      command: 'credential',
      words: ['fleet/eu', '--cache-ttl=5m'],
    })
    assert.deepEqual(questionOf(['exec', 'fleet/eu', '--', 'kubectl', 'get', 'pods', '-v']), {
      command: 'exec',
      words: ['fleet/eu'],
    })
  })

  it('is none when the words ask for the full path: --verbose, --no-cache, help', () => {
    for (const word of ['-v', '--verbose', '--no-cache', '--no-cache=true', '-h', '--help']) {
      assert.equal(questionOf(['credential', 'fleet/eu', word]), undefined, word)
      assert.equal(questionOf(['exec', 'fleet/eu', word, '--', 'kubectl']), undefined, word)
    }
  })

  it("is none for exec without a profile or a command around its --, whatever the command's words", () => {
    assert.equal(questionOf(['exec', 'fleet/eu']), undefined)
    assert.equal(questionOf(['exec', 'fleet/eu', '--']), undefined)
    assert.equal(questionOf(['exec', '--', 'kubectl']), undefined)
    // After -- the words are the command's: its --help is not cpcred's.
    assert.deepEqual(questionOf(['exec', 'fleet/eu', '--', 'kubectl', '--help'])?.words, ['fleet/eu'])
  })

  it('is none for every other command', () => {
    for (const command of ['list', 'kubeconfig', 'whoami', '', 'credentials'])
      assert.equal(questionOf([command, 'fleet/eu']), undefined, command)
  })
})
