import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {unknownCommand} from '../../src/cli/unknown-command.js'

const COMMANDS = ['exec', 'list', 'hub', 'hub use', 'cache clear', 'plugin secretreader', 'sync', 'version']

describe('unknownCommand: what was typed as the command, and the nearest one', () => {
  const cases: [string[], string, string | undefined][] = [
    [['lsit'], 'lsit', 'list'],
    [['hub', 'usee'], 'hub usee', 'hub use'],
    // A topic's second word is the command's; what follows is its arguments.
    [['hub', 'usee', 'hub-a'], 'hub usee', 'hub use'],
    [['exce', 'fleet', 'a'], 'exce', 'exec'],
    [['cache', 'claer'], 'cache claer', 'cache clear'],
    [['zzzzzzzz'], 'zzzzzzzz', undefined],
    // A command that takes no arguments: the word after it is what is unknown.
    [['version', 'extra'], 'version extra', undefined],
  ]
  for (const [words, typed, nearest] of cases) {
    it(`${words.join(' ')} → ${nearest ?? 'no suggestion'}`, () => {
      const error = unknownCommand('cpcred', words, COMMANDS)
      assert.equal(error.message, `unknown command "${typed}" for "cpcred"`)
      assert.equal(
        error.hint,
        `${nearest ? `Did you mean "cpcred ${nearest}"? ` : ''}Run 'cpcred help' for the commands.`,
      )
    })
  }
})
