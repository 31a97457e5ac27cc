import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {EXEC_OPTIONS, parseExecArgs} from '../../src/cli/exec.js'
import Exec from '../../src/commands/exec.js'

describe('cpcred exec arguments', () => {
  it('parses the same flags the help lists (names and short forms)', () => {
    const help = Object.entries(Exec.flags)
      .map(([name, flag]) => [name, (flag as {char?: string}).char ?? ''])
      .sort()
    const parsed = Object.entries(EXEC_OPTIONS)
      .map(([name, option]) => [name, (option as {short?: string}).short ?? ''])
      .sort()
    assert.deepEqual(parsed, help)
  })

  it('splits profiles and flags from the command at --', () => {
    const options = parseExecArgs([
      'a',
      'ns/b',
      '-n',
      'x',
      '--parallel=8',
      '-o',
      'json',
      '--',
      'kubectl',
      'get',
      'pods',
      '-n',
      'y',
      '--help',
    ])
    assert.deepEqual(options.names, ['a', 'ns/b'])
    assert.equal(options.namespace, 'x')
    assert.equal(options.parallel, 8)
    assert.equal(options.output, 'json')
    assert.deepEqual(options.command, ['kubectl', 'get', 'pods', '-n', 'y', '--help'])
    assert.equal(options.pluginTimeoutMs, 120_000)
  })

  const usage = (argv: string[], message: RegExp) =>
    assert.throws(
      () => parseExecArgs(argv),
      (error: {exitCode: number; message: string}) => error.exitCode === 2 && message.test(error.message),
    )

  it('rejects mistakes as usage errors', () => {
    usage(['a'], /^no command to run$/)
    usage(['a', '--bogus', '--', 'true'], /Unknown option '--bogus'/)
    usage(['a', '-n', 'x', '-A', '--', 'true'], /cannot be used together/)
    usage(['a', '--as-group', 'g', '--', 'true'], /--as-group needs --as/)
    usage(['a', '--parallel', '0', '--', 'true'], /--parallel 0 is not a whole number/)
    usage(['a', '-o', 'xml', '--', 'true'], /--output xml is not one of text, json/)
    usage(['a', '--plugin-timeout', 'soon', '--', 'true'], /--plugin-timeout "soon" is not a duration/)
  })
})
