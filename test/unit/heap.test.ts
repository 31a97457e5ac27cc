// How V8 sizes a long-running cpcred's heap, each in a Node of its own (V8's flags are the
// process's): a program that holds a set of objects and keeps making garbage, as sync --watch does
// pass after pass, must grow its heap far less with it than without.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {describe, it} from 'node:test'

const HEAP = fileURLToPath(new URL('../../src/adapters/heap.ts', import.meta.url))

/** The largest heap (MB) of a program holding about 25 MB while it makes 60 rounds of garbage. */
function largestHeapMb(setting: 'keepNearLive' | 'keepSmall' | undefined): number {
  const script = `
import * as heap from ${JSON.stringify(HEAP)}
${setting ? `heap.${setting}()` : ''}
const live = Array.from({length: 200}, (_, i) => Array.from({length: 1000}, (_, j) => \`live \${i} \${j} \`.repeat(4)))
let garbage = []
let largest = 0
for (let round = 0; round < 60; round++) {
  garbage = Array.from({length: 20000}, (_, j) => ({round, j, text: \`garbage \${round} \${j}\`.repeat(3)}))
  await new Promise((resolve) => setImmediate(resolve))
  largest = Math.max(largest, process.memoryUsage().heapTotal)
}
console.log(JSON.stringify({largest: largest / 2 ** 20, kept: live.length + garbage.length}))`
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
  assert.equal(result.status, 0, result.stderr)
  return (JSON.parse(result.stdout) as {largest: number}).largest
}

describe('heap', () => {
  const otherwise = largestHeapMb(undefined)
  for (const setting of ['keepNearLive', 'keepSmall'] as const) {
    it(`${setting}: the heap of a program that makes garbage stays nearer what it holds`, () => {
      const largest = largestHeapMb(setting)
      assert.ok(
        largest < otherwise * 0.7,
        `largest heap ${largest.toFixed(0)} MB with it, ${otherwise.toFixed(0)} MB without`,
      )
    })
  }
})
