// present: -o picks a command's view of its outcome, the one branch on a document's format.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {printerFor} from '../../src/adapters/printer.js'
import {present, type DocumentFormat} from '../../src/cli/present.js'

async function shown(output: DocumentFormat) {
  let stdout = ''
  const printer = printerFor({
    stdout: {write: (text: string) => (stdout += text)},
    stderr: {write: () => true},
  })
  await present(
    printer,
    output,
    {name: 'eu-1', ready: 'no'},
    {
      text: (outcome, to) => to.text(`${outcome.name} is ready: ${outcome.ready}\n`),
      data: (outcome) => ({kind: 'Outcome', ...outcome}),
    },
  )
  return stdout
}

describe('present', () => {
  it('text: the view for people', async () => {
    assert.equal(await shown('text'), 'eu-1 is ready: no\n')
  })

  it('json: the data view, exported with 4 spaces', async () => {
    assert.equal(
      await shown('json'),
      '{\n    "kind": "Outcome",\n    "name": "eu-1",\n    "ready": "no"\n}\n',
    )
  })

  it('yaml: the same data, a YAML 1.1 reader reading "no" back as the string', async () => {
    assert.equal(await shown('yaml'), 'kind: Outcome\nname: eu-1\nready: "no"\n')
  })
})
