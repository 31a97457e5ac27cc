import {describe, it} from 'node:test'
import assert from 'node:assert/strict'
import {answerable, COMPLETE_COMMAND, route} from '../../src/cli/router.js'

describe('the command router', () => {
  const cases: Array<[string[], ReturnType<typeof route>]> = [
    [['credential', 'ns/a'], 'fast-path'],
    [['list', '-A'], 'fast-path'],
    [['ls'], 'fast-path'],
    [['plugin', 'secretreader'], 'fast-path'],
    [['plugin', 'token-request', '--audience', 'x'], 'fast-path'],
    [['plugin', 'nosuch'], 'oclif'],
    [['exec', 'ns/a', '--', 'kubectl', 'get', 'pods'], 'exec'],
    // After -- the words are the user's command's; before it, --help is a request for help.
    [['exec', 'ns/a', '--', 'kubectl', '--help'], 'exec'],
    [['exec', '--help'], 'oclif'],
    [['exec', 'ns/a', '-h', '--', 'true'], 'oclif'],
    [['list', '--help'], 'oclif'],
    [['credential', '-h'], 'oclif'],
    // Completion words are what the user typed, never cpcred's own --help.
    [[COMPLETE_COMMAND, 'list', '--help'], 'fast-path'],
    [['describe', 'ns/a'], 'oclif'],
    [['sync'], 'oclif'],
    [[], 'oclif'],
    [['help'], 'oclif'],
  ]
  for (const [argv, expected] of cases) {
    it(`${JSON.stringify(argv)} runs from ${expected}`, () => assert.equal(route(argv), expected))
  }

  it('asks for the last answer only for credential and exec', () => {
    assert.equal(answerable(['credential', 'ns/a']), true)
    assert.equal(answerable(['exec', 'ns/a', '--', 'true']), true)
    assert.equal(answerable(['list']), false)
    assert.equal(answerable([]), false)
  })
})
