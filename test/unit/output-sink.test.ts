import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {descriptorSink} from '../../src/adapters/output-sink.js'

const failure = (code: string) => Object.assign(new Error(code), {code})

/** A pipe of `capacity` bytes whose reader takes `drainPerWait` bytes each time the writer waits. */
function slowPipe(capacity: number, drainPerWait: number) {
  let buffered = 0
  const received: Buffer[] = []
  const waits: number[] = []
  return {
    received,
    waits,
    drainPerWait,
    write(_fd: number, data: Uint8Array, offset: number) {
      if (buffered >= capacity) throw failure('EAGAIN')
      const length = Math.min(capacity - buffered, data.length - offset)
      received.push(Buffer.from(data.subarray(offset, offset + length)))
      buffered += length
      return length
    },
    wait(this: {drainPerWait: number}, ms: number) {
      waits.push(ms)
      buffered = Math.max(0, buffered - this.drainPerWait)
    },
  }
}

describe('output sink', () => {
  it('writes bytes as they are, and text as UTF-8', () => {
    const pipe = slowPipe(4, 4)
    const sink = descriptorSink(1, pipe.write, (ms) => pipe.wait(ms))
    const binary = Buffer.from('A\xff\xfeB\n', 'latin1')
    sink.write(binary)
    sink.write('é')
    assert.deepEqual(Buffer.concat(pipe.received), Buffer.concat([binary, Buffer.from('é')]))
  })

  it('waits out a full non-blocking pipe and delivers every byte, in order', () => {
    const pipe = slowPipe(1000, 300)
    const sink = descriptorSink(1, pipe.write, (ms) => pipe.wait(ms))
    const text = Array.from({length: 500}, (_, i) => `line ${i}\n`).join('')
    sink.write(text)
    sink.write('last\n')
    assert.equal(Buffer.concat(pipe.received).toString(), `${text}last\n`)
    assert.ok(pipe.waits.length > 3, 'the writer waited for the reader')
    // The waits grow while the pipe stays full and start small again after progress.
    assert.ok(pipe.waits.every((ms) => ms >= 1 && ms <= 20))
  })

  it('backs off while a reader stalls, up to a short cap', () => {
    const reader = slowPipe(10, 0)
    const sink = descriptorSink(2, reader.write, (ms) => {
      // The reader wakes up after eight waits and then keeps up.
      if (reader.waits.length === 7) reader.drainPerWait = 10
      reader.wait(ms)
    })
    sink.write('x'.repeat(25))
    assert.equal(Buffer.concat(reader.received).toString(), 'x'.repeat(25))
    assert.deepEqual(reader.waits.slice(0, 8), [1, 2, 4, 8, 16, 20, 20, 20])
  })

  it('ends quietly when the reader has gone, once, and tells who asked', () => {
    let writes = 0
    const sink = descriptorSink(
      1,
      () => {
        writes++
        throw failure('EPIPE')
      },
      () => assert.fail('no wait on a closed pipe'),
    )
    let told = 0
    sink.onClosed(() => told++)
    sink.write('first\n')
    sink.write('second\n')
    assert.equal(sink.closed, true)
    assert.equal(writes, 1, 'nothing is written after the reader went away')
    assert.equal(told, 1)
    let late = 0
    sink.onClosed(() => late++)
    assert.equal(late, 1, 'a listener added after the close is told at once')
  })

  it('passes on failures that are not about the reader', () => {
    const sink = descriptorSink(1, () => {
      throw failure('EBADF')
    })
    assert.throws(() => sink.write('x'), /EBADF/)
  })
})
