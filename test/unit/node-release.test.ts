// The Node release lines' ends (src/core/node-release.ts), at fixed clocks: what `cpcred version`
// shows beside the running Node, and the warning version and doctor print once its line has ended.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {nodeEndOfLifeWarning, nodeSupport, nodeSupportText} from '../../src/core/node-release.js'

const at = (iso: string) => new Date(iso)

describe('nodeSupport', () => {
  it('dates each LTS line, and ends it after its last day (UTC)', () => {
    const lastDay = nodeSupport('v20.20.2', at('2026-04-30T23:59:59Z'))
    assert.deepEqual(lastDay, {
      version: 'v20.20.2',
      major: 20,
      endOfLife: '2026-04-30',
      ended: false,
      maintained: [20, 22, 24, 26],
    })
    const after = nodeSupport('v20.20.2', at('2026-05-01T00:00:00Z'))
    assert.equal(after.ended, true)
    assert.deepEqual(after.maintained, [22, 24, 26])
    for (const [version, day] of [
      ['v18.20.8', '2025-04-30'],
      ['v22.23.2', '2027-04-30'],
      ['v24.21.0', '2028-04-30'],
      ['v26.10.0', '2029-04-30'],
    ])
      assert.equal(nodeSupport(version!, at('2026-11-27T12:00:00Z')).endOfLife, day, version)
  })

  it('gives an odd line no day, and ends a line older than the table', () => {
    assert.deepEqual(nodeSupport('v25.2.1', at('2026-11-27T12:00:00Z')), {
      version: 'v25.2.1',
      major: 25,
      ended: false,
      maintained: [22, 24, 26],
    })
    assert.equal(nodeSupport('v16.20.2', at('2020-01-01T00:00:00Z')).ended, true)
    assert.equal(nodeSupport('v28.0.0', at('2028-05-01T00:00:00Z')).ended, false)
    assert.deepEqual(nodeSupport('nightly', at('2026-11-27T12:00:00Z')), {
      version: 'nightly',
      ended: false,
      maintained: [22, 24, 26],
    })
  })
})

describe('the node row and the warning', () => {
  const now = at('2026-11-27T12:00:00Z')

  it('shows the shipped line with its day and no warning', () => {
    const shipped = nodeSupport('v26.10.0', now)
    assert.equal(nodeSupportText(shipped), 'v26.10.0 (LTS, end of life 2029-04-30)')
    assert.equal(nodeEndOfLifeWarning(shipped), undefined)
  })

  it('warns about a line past its end, naming the day and the maintained lines', () => {
    const ended = nodeSupport('v20.20.2', now)
    assert.equal(nodeSupportText(ended), 'v20.20.2 (LTS, end of life 2026-04-30, passed)')
    assert.equal(
      nodeEndOfLifeWarning(ended),
      'Node v20.20.2 reached its end of life on 2026-04-30 and gets no more security fixes: run cpcred with a maintained LTS Node (22, 24 or 26), or from a standalone archive, which carries its own',
    )
    assert.match(
      nodeEndOfLifeWarning(nodeSupport('v16.0.0', now))!,
      /^Node v16\.0\.0 reached its end of life and/,
    )
  })

  it('says what it knows of a line without a day', () => {
    assert.equal(nodeSupportText(nodeSupport('v25.2.1', now)), 'v25.2.1 (not an LTS line)')
    assert.equal(
      nodeSupportText(nodeSupport('v28.0.0', now)),
      'v28.0.0 (end of life not known to this cpcred)',
    )
    assert.equal(nodeSupportText(nodeSupport('v16.0.0', now)), 'v16.0.0 (past its end of life)')
  })
})
