import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {MEMBER_ID_LABEL, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {isCpcredError} from '../../src/core/errors.js'
import {inShard, parseShard, shardKey, shardOf} from '../../src/core/fleet/shard.js'

const keys = Array.from({length: 2000}, (_, i) => `fleet-${i % 7}/cluster-${i}`)

function profile(namespace: string, name: string, memberId?: string): ClusterProfile {
  return {
    metadata: {name, namespace, ...(memberId ? {labels: {[MEMBER_ID_LABEL]: memberId}} : {})},
    spec: {clusterManager: {name: 'm'}},
  }
}

describe('shardOf', () => {
  it('puts every key in exactly one shard of 1..count, and the same one every time', () => {
    for (const count of [1, 2, 3, 8, 50]) {
      for (const key of keys.slice(0, 300)) {
        const shard = shardOf(key, count)
        assert.ok(Number.isInteger(shard) && shard >= 1 && shard <= count, `${key} -> ${shard} of ${count}`)
        assert.equal(shardOf(key, count), shard)
      }
    }
  })

  it('going from N to N+1 shards moves keys only into the new shard, about 1/(N+1) of them', () => {
    for (const count of [1, 4, 9]) {
      let moved = 0
      for (const key of keys) {
        const before = shardOf(key, count)
        const after = shardOf(key, count + 1)
        if (after !== before) {
          assert.equal(after, count + 1, `${key} moved from ${before} to ${after}, not to the new shard`)
          moved++
        }
      }
      const expected = keys.length / (count + 1)
      assert.ok(Math.abs(moved - expected) < expected * 0.25, `moved ${moved}, expected about ${expected}`)
    }
  })

  it('spreads keys evenly', () => {
    const sizes = new Array(8).fill(0)
    for (const key of keys) sizes[shardOf(key, 8) - 1]++
    for (const size of sizes) assert.ok(size > 250 * 0.75 && size < 250 * 1.25, `sizes ${sizes}`)
  })

  it('gives the values docs/ci.md lists for other tools to check against', () => {
    // Computed as well by the paper's reference code (fig. 1) written in Go over the same sha256
    // prefix. A change here moves every CI job's targets.
    assert.deepEqual(
      ['fleet/eu-1', 'fleet/us-2', 'prod/db-0'].map((key) =>
        [1, 2, 8, 1000].map((count) => shardOf(key, count)),
      ),
      [
        [1, 2, 2, 509],
        [1, 1, 4, 887],
        [1, 1, 3, 270],
      ],
    )
  })
})

describe('shardKey and inShard', () => {
  it('shards by namespace/name, and by namespace/member id when the profile names its member cluster', () => {
    assert.equal(shardKey(profile('fleet', 'eu-1')), 'fleet/eu-1')
    const viaOcm = profile('fleet', 'eu-1-ocm', 'eu-1')
    const viaGke = profile('fleet', 'eu-1-gke', 'eu-1')
    assert.equal(shardKey(viaOcm), shardKey(viaGke))
    for (const count of [2, 3, 5, 8]) {
      const index = shardOf(shardKey(viaOcm), count)
      assert.ok(inShard(viaOcm, {index, count}) && inShard(viaGke, {index, count}))
    }
  })
})

describe('parseShard', () => {
  const usage = (fn: () => unknown, pattern: RegExp) =>
    assert.throws(fn, (error) => isCpcredError(error) && error.exitCode === 2 && pattern.test(error.message))

  it('reads INDEX/COUNT, 1-based', () => {
    assert.deepEqual(parseShard('2/8', {}, '--shard'), {index: 2, count: 8})
    assert.deepEqual(parseShard(' 1/1 ', {}, '--shard'), {index: 1, count: 1})
  })

  it('reads auto from GitLab parallel: variables', () => {
    assert.deepEqual(parseShard('auto', {CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4'}, '--shard'), {
      index: 3,
      count: 4,
    })
    usage(() => parseShard('auto', {}, '--shard'), /CI_NODE_INDEX and CI_NODE_TOTAL/)
  })

  it('refuses what is not a shard, saying where it came from', () => {
    usage(() => parseShard('0/8', {}, '--shard'), /--shard "0\/8": INDEX must be from 1 to 8/)
    usage(() => parseShard('9/8', {}, '--shard'), /INDEX must be from 1 to 8/)
    usage(() => parseShard('1/0', {}, '--shard'), /COUNT at least 1/)
    usage(() => parseShard('2', {}, 'CPCRED_SHARD'), /CPCRED_SHARD "2" is not INDEX\/COUNT/)
    usage(() => parseShard('a/b', {}, '--shard'), /whole numbers/)
    usage(() => parseShard('-1/4', {}, '--shard'), /whole numbers/)
  })
})
