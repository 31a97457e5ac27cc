import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {parseExec} from '../../src/cli/exec.js'

describe('cpcred exec arguments', () => {
  it('splits profiles and flags from the command at --', () => {
    const options = parseExec([
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
    assert.equal(options.flags.namespace, 'x')
    assert.equal(options.flags.parallel, 8)
    assert.equal(options.flags.output, 'json')
    assert.deepEqual(options.command, ['kubectl', 'get', 'pods', '-n', 'y', '--help'])
    assert.equal(options.flags['plugin-timeout'], 120_000)
  })

  const usage = (argv: string[], message: RegExp) =>
    assert.throws(
      () => parseExec(argv),
      (error: {exitCode: number; message: string}) => error.exitCode === 2 && message.test(error.message),
    )

  it('rejects mistakes as usage errors', () => {
    usage(['a'], /^no command to run$/)
    usage(['a', '--bogus', '--', 'true'], /^unknown flag: --bogus$/)
    usage(['a', '-n', 'x', '-A', '--', 'true'], /cannot be used together/)
    usage(['a', '--as-group', 'g', '--', 'true'], /--as-group needs --as/)
    usage(['a', '--parallel', '0', '--', 'true'], /--parallel "0" is not a whole number/)
    usage(['a', '-o', 'xml', '--', 'true'], /--output "xml" is not one of text, json/)
    usage(['a', '--plugin-timeout', 'soon', '--', 'true'], /--plugin-timeout "soon" is not a duration/)
  })
})
