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

  // Each system's first and last job, in its own numbering, and the 1-based shard it is.
  const autoCases: {system: string; text: string; env: Record<string, string>; shard: [number, number]}[] = [
    {system: 'GitLab', text: 'auto', env: {CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4'}, shard: [1, 4]},
    {system: 'GitLab', text: 'auto', env: {CI_NODE_INDEX: '4', CI_NODE_TOTAL: '4'}, shard: [4, 4]},
    {system: 'Indexed Job', text: 'auto/4', env: {JOB_COMPLETION_INDEX: '0'}, shard: [1, 4]},
    {system: 'Indexed Job', text: 'auto/4', env: {JOB_COMPLETION_INDEX: '3'}, shard: [4, 4]},
    {
      system: 'Indexed Job',
      text: 'auto',
      env: {JOB_COMPLETION_INDEX: '2', CPCRED_SHARD_COUNT: '3'},
      shard: [3, 3],
    },
    {
      system: 'Indexed Job',
      text: 'auto/5',
      env: {JOB_COMPLETION_INDEX: '2', CPCRED_SHARD_COUNT: '3'},
      shard: [3, 5],
    },
    {
      system: 'Buildkite',
      text: 'auto',
      env: {BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '5'},
      shard: [1, 5],
    },
    {
      system: 'Buildkite',
      text: 'auto',
      env: {BUILDKITE_PARALLEL_JOB: '4', BUILDKITE_PARALLEL_JOB_COUNT: '5'},
      shard: [5, 5],
    },
    {system: 'CircleCI', text: 'auto', env: {CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '2'}, shard: [1, 2]},
    {system: 'CircleCI', text: 'auto', env: {CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '2'}, shard: [2, 2]},
    {
      system: 'CircleCI, the count given as well and agreeing',
      text: 'auto/2',
      env: {CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '2'},
      shard: [2, 2],
    },
    {
      system: 'CircleCI without parallelism (index 0 of 1)',
      text: 'auto',
      env: {CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '1'},
      shard: [1, 1],
    },
    {
      system: 'GitLab, a CI_NODE_TOTAL of 1 on a job without parallel: ignored',
      text: 'auto',
      env: {JOB_COMPLETION_INDEX: '1', CPCRED_SHARD_COUNT: '2', CI_NODE_TOTAL: '1'},
      shard: [2, 2],
    },
  ]
  for (const {system, text, env, shard} of autoCases) {
    it(`reads ${text} from ${system}: ${JSON.stringify(env)} is shard ${shard.join('/')}`, () => {
      assert.deepEqual(parseShard(text, env, '--shard'), {index: shard[0], count: shard[1]})
    })
  }

  it('gives every job of each system a different shard, together all of them', () => {
    const count = 6
    const jobs: Record<string, (job: number) => Record<string, string>> = {
      GitLab: (job) => ({CI_NODE_INDEX: String(job + 1), CI_NODE_TOTAL: String(count)}),
      'Indexed Job': (job) => ({JOB_COMPLETION_INDEX: String(job), CPCRED_SHARD_COUNT: String(count)}),
      Buildkite: (job) => ({
        BUILDKITE_PARALLEL_JOB: String(job),
        BUILDKITE_PARALLEL_JOB_COUNT: String(count),
      }),
      CircleCI: (job) => ({CIRCLE_NODE_INDEX: String(job), CIRCLE_NODE_TOTAL: String(count)}),
    }
    for (const [system, env] of Object.entries(jobs)) {
      const indexes = Array.from({length: count}, (_, job) => parseShard('auto', env(job), '--shard').index)
      assert.deepEqual(indexes, [1, 2, 3, 4, 5, 6], system)
    }
  })

  const autoRefusals: {why: string; text: string; env: Record<string, string>; error: RegExp}[] = [
    {
      why: 'nothing set',
      text: 'auto',
      env: {},
      error:
        /--shard auto found no parallel job's index: none of CI_NODE_INDEX, JOB_COMPLETION_INDEX, BUILDKITE_PARALLEL_JOB, CIRCLE_NODE_INDEX is set/,
    },
    {
      why: 'GitLab without its total',
      text: 'auto',
      env: {CI_NODE_INDEX: '1'},
      error: /CI_NODE_INDEX is set \(GitLab parallel:\) but CI_NODE_TOTAL is not/,
    },
    {
      why: 'Buildkite without its count',
      text: 'auto',
      env: {BUILDKITE_PARALLEL_JOB: '0'},
      error:
        /BUILDKITE_PARALLEL_JOB is set \(Buildkite parallelism\) but BUILDKITE_PARALLEL_JOB_COUNT is not/,
    },
    {
      why: 'CircleCI without its total',
      text: 'auto',
      env: {CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: ' '},
      error: /CIRCLE_NODE_INDEX is set \(CircleCI parallelism\) but CIRCLE_NODE_TOTAL is not/,
    },
    {
      why: 'an Indexed Job without a count',
      text: 'auto',
      env: {JOB_COMPLETION_INDEX: '0'},
      error: /JOB_COMPLETION_INDEX is set \(a Kubernetes Indexed Job\) but the number of jobs is not/,
    },
    {
      why: 'GitLab and an Indexed Job at once',
      text: 'auto/4',
      env: {CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4', JOB_COMPLETION_INDEX: '0'},
      error:
        /--shard auto\/4 cannot tell which job it is: CI_NODE_INDEX \(GitLab parallel:\) and JOB_COMPLETION_INDEX \(a Kubernetes Indexed Job\) are set at once/,
    },
    {
      why: 'Buildkite and CircleCI at once',
      text: 'auto',
      env: {
        BUILDKITE_PARALLEL_JOB: '0',
        BUILDKITE_PARALLEL_JOB_COUNT: '2',
        CIRCLE_NODE_INDEX: '0',
        CIRCLE_NODE_TOTAL: '2',
      },
      error:
        /BUILDKITE_PARALLEL_JOB \(Buildkite parallelism\) and CIRCLE_NODE_INDEX \(CircleCI parallelism\)/,
    },
    {
      why: 'a 0-based index equal to the count',
      text: 'auto/4',
      env: {JOB_COMPLETION_INDEX: '4'},
      error: /--shard auto\/4 \(JOB_COMPLETION_INDEX=4\): JOB_COMPLETION_INDEX must be from 0 to 3/,
    },
    {
      why: 'a 1-based index of 0',
      text: 'auto',
      env: {CI_NODE_INDEX: '0', CI_NODE_TOTAL: '4'},
      error: /\(CI_NODE_INDEX=0, CI_NODE_TOTAL=4\): CI_NODE_INDEX must be from 1 to 4/,
    },
    {
      why: 'CircleCI index past the total',
      text: 'auto',
      env: {CIRCLE_NODE_INDEX: '2', CIRCLE_NODE_TOTAL: '2'},
      error: /CIRCLE_NODE_INDEX must be from 0 to 1/,
    },
    {
      why: 'an index that is not a number',
      text: 'auto',
      env: {BUILDKITE_PARALLEL_JOB: 'one', BUILDKITE_PARALLEL_JOB_COUNT: '2'},
      error: /BUILDKITE_PARALLEL_JOB=one.*must be whole numbers/,
    },
    {
      why: 'a negative index',
      text: 'auto/3',
      env: {JOB_COMPLETION_INDEX: '-1'},
      error: /must be whole numbers/,
    },
    {
      why: 'a count of 0 after auto/',
      text: 'auto/0',
      env: {JOB_COMPLETION_INDEX: '0'},
      error: /--shard auto\/0: COUNT must be a whole number, at least 1/,
    },
    {
      why: 'an empty count after auto/',
      text: 'auto/',
      env: {JOB_COMPLETION_INDEX: '0'},
      error: /COUNT must be a whole number/,
    },
    {
      why: 'a bad CPCRED_SHARD_COUNT',
      text: 'auto',
      env: {JOB_COMPLETION_INDEX: '0', CPCRED_SHARD_COUNT: 'four'},
      error: /CPCRED_SHARD_COUNT="four" is not a whole number, at least 1/,
    },
    {
      why: "a count that disagrees with the system's own",
      text: 'auto/3',
      env: {CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '4'},
      error: /auto\/COUNT says 3 jobs but CIRCLE_NODE_TOTAL says 4/,
    },
    {
      why: "a CPCRED_SHARD_COUNT that disagrees with the system's own",
      text: 'auto',
      env: {CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4', CPCRED_SHARD_COUNT: '2'},
      error: /CPCRED_SHARD_COUNT says 2 jobs but CI_NODE_TOTAL says 4/,
    },
    {
      why: 'a bad total of the system',
      text: 'auto',
      env: {CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '0'},
      error: /COUNT at least 1/,
    },
  ]
  for (const {why, text, env, error} of autoRefusals) {
    it(`refuses ${text} with ${why}, as a usage error that says so`, () => {
      usage(() => parseShard(text, env, '--shard'), error)
    })
  }

  it('names CPCRED_SHARD when the auto came from there', () => {
    usage(() => parseShard('auto', {}, 'CPCRED_SHARD'), /^CPCRED_SHARD auto found no parallel job's index/)
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
