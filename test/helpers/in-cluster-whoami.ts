// Run inside a "pod" by in-cluster.test.ts: one hub connection kept for the whole run, asked who it
// is each time a line arrives on stdin, so the test can rotate the token file between two asks.
import {createInterface} from 'node:readline'
import {Hub} from '../../src/adapters/hub.js'

const hub = await Hub.connect(
  {},
  {
    runExecPlugin: async () => {
      throw new Error('no exec plugin in a pod')
    },
    stdinIsTTY: false,
  },
)
process.stdout.write(`${hub.describe()}\n`)
for await (const _line of createInterface({input: process.stdin})) {
  const user = await hub.reviewSelf()
  process.stdout.write(`${user.username ?? ''}\n`)
}
await hub.close()
