import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {inPool} from '../../src/core/fleet/worker-pool.js'

/** A task that ends when the test says so, recording when it started. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return {open, opened}
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('inPool', () => {
  it('refuses a pool without a worker', async () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(
        inPool([1], limit, async (item) => item),
        RangeError,
      )
    }
  })

  it('rejects with the first failure and starts no further item', async () => {
    const started: number[] = []
    const failure = new Error('target 1 broke')
    await assert.rejects(
      inPool([0, 1, 2, 3, 4], 2, async (item) => {
        started.push(item)
        await tick()
        if (item === 1) throw failure
        return item
      }),
      (error) => error === failure,
    )
    await tick()
    await tick()
    // 0 and 1 ran together, 2 took 0's place; after 1 failed, neither 3 nor 4 started.
    assert.deepEqual(started, [0, 1, 2])
  })

  it('starts nothing more once the signal aborts, and leaves those items without a result', async () => {
    const stop = new AbortController()
    const started: number[] = []
    const results = await inPool(
      ['a', 'b', 'c', 'd'],
      1,
      async (item, index) => {
        started.push(index)
        if (item === 'b') stop.abort('the output was closed')
        return item.toUpperCase()
      },
      {signal: stop.signal},
    )
    assert.deepEqual(started, [0, 1])
    assert.deepEqual([...results], ['A', 'B', undefined, undefined])
  })

  it('starts nothing when the signal aborted before', async () => {
    const stop = new AbortController()
    stop.abort()
    let calls = 0
    assert.deepEqual(await inPool([1, 2], 2, async () => ++calls, {signal: stop.signal}), [
      undefined,
      undefined,
    ])
    assert.equal(calls, 0)
  })

  it("runs at most `limit` at once, starts in order and returns results in the items' order", async () => {
    const gates = [gate(), gate(), gate(), gate()]
    const started: number[] = []
    let running = 0
    let most = 0
    const all = inPool([0, 1, 2, 3], 2, async (item, index) => {
      assert.equal(item, index)
      started.push(item)
      most = Math.max(most, ++running)
      await gates[item]!.opened
      running--
      return `done ${item}`
    })
    await tick()
    assert.deepEqual(started, [0, 1])
    // The later item ends first: its place in the results is still its own.
    gates[1]!.open()
    await tick()
    assert.deepEqual(started, [0, 1, 2])
    gates[3]!.open()
    gates[2]!.open()
    gates[0]!.open()
    assert.deepEqual(await all, ['done 0', 'done 1', 'done 2', 'done 3'])
    assert.equal(most, 2)
  })

  it('returns an empty list for no items, with any limit', async () => {
    assert.deepEqual(await inPool([], 4, async () => 1), [])
  })
})
