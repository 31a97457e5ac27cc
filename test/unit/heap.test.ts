// How V8 sizes a long-running cpcred's heap, each in a Node of its own (V8's flags are the
// process's): a program that holds a set of objects and keeps making garbage, as sync --watch does
// pass after pass, must grow its heap far less with it than without.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {describe, it} from 'node:test'

const HEAP = fileURLToPath(new URL('../../src/adapters/heap.ts', import.meta.url))

/**
 * The largest old generation (MB: what these settings bound; the young one's size differs between
 * Node lines) of a program holding about 25 MB while it makes 60 rounds of garbage, each
 * round's living through the next six so that it reaches the old generation before it dies (what a
 * watch's passes leave behind): the generation whose growth these settings bound.
 */
function largestHeapMb(setting: 'keepNearLive' | 'keepSmall' | undefined): number {
  const script = `
import v8 from 'node:v8'
import * as heap from ${JSON.stringify(HEAP)}
${setting ? `heap.${setting}()` : ''}
const live = Array.from({length: 200}, (_, i) => Array.from({length: 1000}, (_, j) => \`live \${i} \${j} \`.repeat(4)))
const recent = []
let largest = 0
for (let round = 0; round < 60; round++) {
  recent.push(Array.from({length: 20000}, (_, j) => ({round, j, text: \`garbage \${round} \${j}\`.repeat(3)})))
  if (recent.length > 6) recent.shift()
  await new Promise((resolve) => setImmediate(resolve))
  largest = Math.max(largest, v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size)
}
console.log(JSON.stringify({largest: largest / 2 ** 20, kept: live.length + recent.length}))`
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
  assert.equal(result.status, 0, result.stderr)
  return (JSON.parse(result.stdout) as {largest: number}).largest
}

/** The median of three runs: one run's GC timing moves its peak by a tenth or more. */
function medianHeapMb(setting: 'keepNearLive' | 'keepSmall' | undefined): number {
  const runs = [largestHeapMb(setting), largestHeapMb(setting), largestHeapMb(setting)].sort((a, b) => a - b)
  return runs[1]!
}

describe('heap', () => {
  // Seen on Node 20, 22, 24 and 26: without a setting 124-209 MB; keepNearLive 0.37-0.8 of that
  // (Node 24's V8 grows it least on its own), keepSmall 0.4-0.65. Without any effect, about 1.
  const otherwise = medianHeapMb(undefined)
  for (const setting of ['keepNearLive', 'keepSmall'] as const) {
    it(`${setting}: the heap of a program that makes garbage stays nearer what it holds`, () => {
      const largest = medianHeapMb(setting)
      assert.ok(
        largest < otherwise * 0.85,
        `largest heap ${largest.toFixed(0)} MB with it, ${otherwise.toFixed(0)} MB without`,
      )
    })
  }
})
