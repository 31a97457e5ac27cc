import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {printerFor} from '../../src/adapters/printer.js'
import {reportError} from '../../src/cli/report-error.js'
import {CpcredError, ExitCode, UsageError} from '../../src/core/errors.js'

function report(error: unknown, debug = false): {code: number; text: string} {
  let text = ''
  const sink = {write: (chunk: string) => (text += chunk)}
  const code = reportError(error, printerFor({stdout: sink, stderr: sink}), {debug})
  return {code, text}
}

describe('reportError, the one place that maps failures to exit codes', () => {
  it('prints a cpcred error and its hint, with its exit code', () => {
    assert.deepEqual(
      report(new CpcredError('hub gone', {exitCode: ExitCode.Unreachable, hint: 'start it'})),
      {
        code: 3,
        text: 'error: hub gone\nstart it\n',
      },
    )
    assert.equal(report(new UsageError('bad flag')).code, 2)
  })

  it('treats oclif parse failures as usage errors and this.exit(n) as n', () => {
    assert.deepEqual(
      report(
        Object.assign(new Error('Nonexistent flag: --x\nSee more help with --help'), {oclif: {exit: 2}}),
      ),
      {
        code: 2,
        text: "error: Nonexistent flag: --x\nSee 'cpcred --help' or 'cpcred COMMAND --help'.\n",
      },
    )
    assert.deepEqual(report(Object.assign(new Error('EEXIT: 7'), {code: 'EEXIT', oclif: {exit: 7}})), {
      code: 7,
      text: '',
    })
  })

  it('says what a file system failure was about, without calling it a bug', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/x/k'"), {
      code: 'EACCES',
      syscall: 'open',
      path: '/x/k',
    })
    assert.deepEqual(report(error), {
      code: 1,
      text: 'error: cannot open /x/k: permission denied\ncheck the path, its parent directories and their permissions\n',
    })
  })

  it('reports anything else as unexpected, with the stack only when debugging', () => {
    const plain = report(new TypeError('x is undefined'))
    assert.equal(plain.code, 1)
    assert.match(plain.text, /^error: x is undefined\nThis is unexpected; run again with CPCRED_DEBUG=1/)
    assert.match(report(new TypeError('x is undefined'), true).text, /\n\s+at /)
  })
})
