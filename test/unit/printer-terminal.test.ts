import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {printerFor} from '../../src/adapters/printer.js'

function streams(stdin: boolean | undefined, controlling: boolean) {
  let asked = 0
  return {
    get asked() {
      return asked
    },
    streams: {
      stdout: {write: () => true},
      stderr: {write: () => true},
      stdin: {
        get isTTY() {
          asked++
          return stdin
        },
      },
      controllingTerminal: {available: controlling},
    },
  }
}

describe('printer: whether stdin is a terminal', () => {
  it('is false without a stdin, and nobody is asked to answer then', () => {
    const printer = printerFor({stdout: {write: () => true}, stderr: {write: () => true}})
    assert.equal(printer.stdinIsTTY, false)
    assert.equal(printer.interactive, false)
  })

  it('is not interactive when stdin is a terminal but there is no controlling terminal', () => {
    const printer = printerFor(streams(true, false).streams)
    assert.equal(printer.stdinIsTTY, true)
    assert.equal(printer.interactive, false)
  })

  it('asks the stream once, however often it is asked', () => {
    const fake = streams(true, true)
    const printer = printerFor(fake.streams)
    assert.equal(printer.stdinIsTTY, true)
    assert.equal(printer.interactive, true)
    assert.equal(printer.stdinIsTTY, true)
    assert.equal(fake.asked, 1)
  })
})
