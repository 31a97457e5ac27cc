import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {profileCandidates, profileCompletion, type ManifestCommand} from '../../src/core/completion.js'

const hubFlags: ManifestCommand['flags'] = {
  kubeconfig: {type: 'option'},
  context: {type: 'option'},
  namespace: {type: 'option', char: 'n'},
  'all-namespaces': {type: 'boolean', char: 'A'},
}
const commands: Record<string, ManifestCommand> = {
  describe: {flags: {...hubFlags, output: {type: 'option', char: 'o'}, 'show-env': {type: 'boolean'}}},
  exec: {flags: {...hubFlags, parallel: {type: 'option'}}},
  list: {flags: hubFlags},
  'cache:clear': {flags: hubFlags},
}

describe('profileCompletion: is the word under the cursor a profile, and of which hub', () => {
  it('completes the operand of a command that takes profiles', () => {
    assert.deepEqual(profileCompletion(['describe', 'fle'], commands), {hub: {}, prefix: 'fle'})
    assert.deepEqual(profileCompletion(['cache', 'clear', ''], commands), {hub: {}, prefix: ''})
  })

  it('reads the hub flags typed before it, in both spellings', () => {
    assert.deepEqual(
      profileCompletion(
        ['describe', '--kubeconfig', '/k', '--context=hub', '-n', 'fleet', '-A', 'x'],
        commands,
      ),
      {hub: {kubeconfig: '/k', context: 'hub', namespace: 'fleet'}, prefix: 'x'},
    )
  })

  it('offers nothing for a flag, a flag value, a command without profiles, or after exec --', () => {
    assert.equal(profileCompletion(['describe', '--out'], commands), undefined)
    assert.equal(profileCompletion(['describe', '-o', ''], commands), undefined)
    assert.equal(profileCompletion(['describe', '--context', ''], commands), undefined)
    assert.equal(profileCompletion(['list', ''], commands), undefined)
    assert.equal(profileCompletion(['exec', 'a/b', '--', 'kubectl', ''], commands), undefined)
    assert.equal(profileCompletion(['nonsense', ''], commands), undefined)
    assert.equal(profileCompletion([''], commands), undefined)
  })

  it('skips boolean flags and the values of other flags', () => {
    assert.deepEqual(profileCompletion(['describe', '--show-env', '-o', 'json', 'p'], commands), {
      hub: {},
      prefix: 'p',
    })
    assert.deepEqual(profileCompletion(['exec', '--parallel', '8', 'p'], commands), {hub: {}, prefix: 'p'})
  })
})

describe('profileCandidates', () => {
  it('offers NAMESPACE/NAME of every profile and bare names of the selected namespace, by prefix', () => {
    const keys = ['fleet/eu-1', 'fleet/us-1', 'lab/eu-1']
    assert.deepEqual(profileCandidates(keys, 'fleet', ''), [
      'eu-1',
      'fleet/eu-1',
      'fleet/us-1',
      'lab/eu-1',
      'us-1',
    ])
    assert.deepEqual(profileCandidates(keys, 'fleet', 'eu'), ['eu-1'])
    assert.deepEqual(profileCandidates(keys, 'default', 'lab/'), ['lab/eu-1'])
  })
})
