// Fleet jobs on Kubernetes (docs/examples/fleet-job.yaml, docs/ci.md) against the real hub and
// spoke: the manifests are objects the hub accepts, and the Indexed Job's pods, run as processes
// with JOB_COMPLETION_INDEX=0..N-1 and the manifest's own arguments, together reach every profile
// exactly once. The hub has no Job controller and no kubelet, so the test plays both.
import assert from 'node:assert/strict'
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {
  applyAccessExamples,
  applyProfileExamples,
  documentedVariables,
  examplesDir,
  PROFILES,
  usedVariables,
} from '../../scripts/manifests.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {shardKey, shardOf} from '../../src/core/fleet/shard.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createNamespace,
  isolatedEnv,
  repoRoot,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
  uniqueName,
} from '../helpers/env.js'
import {
  applyFleetJob,
  junitTestcases as testcases,
  shardOutcomes,
  renderedFleetJob as rendered,
} from '../helpers/fleet-job.js'
import {inPod, makePod, podsUnavailable} from '../helpers/pods.js'
import {tokenRequestProfileOf} from '../helpers/fixtures.js'

const FILE = 'fleet-job.yaml'
const SHARDS = 3
const FLEET_SIZE = 8
const SERVICE_ACCOUNT = 'cpcred-fleet'

interface Container {
  command: string[]
  args: string[]
  env: {name: string; value: string}[]
}
interface KubeObject {
  kind: string
  metadata: {name: string}
  spec?: {
    completionMode: string
    completions: number
    parallelism: number
    template: {spec: {serviceAccountName: string; containers: Container[]}}
  }
  data?: Record<string, string>
}

describe('fleet jobs on Kubernetes: docs/examples/fleet-job.yaml', () => {
  let namespace: string
  let dir: string
  let manifest: string
  let objects: KubeObject[]
  let hubKubeconfig: string
  const fleet: ClusterProfile[] = []

  before(async () => {
    const {env, hub} = await testEnv()
    namespace = await createNamespace(hub, 'fleetjob')
    dir = await tempDir('cpcred-fleetjob-')
    const text = await readFile(path.join(examplesDir, FILE), 'utf8')
    manifest = path.join(dir, FILE)
    await writeFile(
      manifest,
      rendered(text, {
        NAMESPACE: namespace,
        IMAGE: 'registry.example/cpcred-kubectl:1',
        SHARDS: String(SHARDS),
        CLUSTER_NAME: 'spoke-secret',
      }),
    )
    objects = YAML.parseAllDocuments(await readFile(manifest, 'utf8')).map(
      (document) => document.toJS() as KubeObject,
    )
    for (let index = 0; index < FLEET_SIZE; index++) {
      fleet.push(
        await applyProfile(
          hub,
          tokenRequestProfileOf(
            env.spoke,
            {namespace, name: `member-${index}`},
            {serviceAccount: SERVICE_ACCOUNT, namespace},
          ),
        ),
      )
    }
    hubKubeconfig = env.hub.kubeconfig
  })

  const kubectl = (args: string[]) =>
    runProgram('kubectl', ['--kubeconfig', hubKubeconfig, ...args], {env: {...isolatedEnv}})
  const job = () => objects.find((object) => object.kind === 'Job')!
  const container = () => job().spec!.template.spec.containers[0]!

  it('documents exactly the variables it uses, and its Job splits the fleet in as many shards as it has pods', async () => {
    const text = await readFile(path.join(examplesDir, FILE), 'utf8')
    assert.deepEqual(documentedVariables(text), usedVariables(text))
    assert.deepEqual(documentedVariables(text), ['CLUSTER_NAME', 'IMAGE', 'NAMESPACE', 'SHARDS'])
    const spec = job().spec!
    assert.equal(spec.completionMode, 'Indexed')
    assert.equal(spec.completions, SHARDS)
    assert.equal(spec.parallelism, SHARDS)
    assert.equal(spec.template.spec.serviceAccountName, SERVICE_ACCOUNT)
    assert.deepEqual(container().command, ['cpcred'])
    assert.ok(container().args.includes(`--shard=auto/${SHARDS}`), container().args.join(' '))
    assert.ok(container().args.includes('--all'))
  })

  it('is made of real API objects: kubectl apply --dry-run=server accepts every one', async () => {
    const result = await kubectl(['apply', '--dry-run=server', '-f', manifest])
    assert.equal(result.code, 0, result.stderr)
    const applied = result.stdout.trim().split('\n').sort()
    assert.deepEqual(applied, [
      'configmap/cpcred-fleet-providers created (server dry run)',
      'job.batch/cpcred-fleet created (server dry run)',
      'role.rbac.authorization.k8s.io/cpcred-fleet created (server dry run)',
      'rolebinding.rbac.authorization.k8s.io/cpcred-fleet created (server dry run)',
      'serviceaccount/cpcred-fleet created (server dry run)',
    ])
    // The same check refuses a Job the API would refuse: it can fail.
    const broken = path.join(dir, 'broken.yaml')
    await writeFile(
      broken,
      (await readFile(manifest, 'utf8')).replace('completionMode: Indexed', 'completionMode: Numbered'),
    )
    const refused = await kubectl(['apply', '--dry-run=server', '-f', broken])
    assert.notEqual(refused.code, 0)
    assert.match(refused.stderr, /completionMode/)
  })

  it("docs/ci.md's commands render the file with envsubst into objects the hub accepts", async () => {
    const doc = await readFile(path.join(repoRoot, 'docs', 'ci.md'), 'utf8')
    const block = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1]!)
      .find((text) => text.includes('envsubst'))
    assert.ok(block, 'docs/ci.md has the fleet job commands')
    const script = block
      .replace('NAMESPACE=fleet', `NAMESPACE=${namespace}`)
      .replace('kubectl apply -f -', 'kubectl apply --dry-run=server -o name -f -')
      .split('\n')
      .filter((line) => !line.includes('kubectl -n fleet wait'))
      .join('\n')
    assert.notEqual(script, block)
    const result = await runProgram('sh', ['-e', '-c', script], {
      cwd: repoRoot,
      env: {...isolatedEnv, KUBECONFIG: hubKubeconfig},
    })
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(result.stdout.trim().split('\n').sort(), [
      'configmap/cpcred-fleet-providers',
      'job.batch/cpcred-fleet',
      'role.rbac.authorization.k8s.io/cpcred-fleet',
      'rolebinding.rbac.authorization.k8s.io/cpcred-fleet',
      'serviceaccount/cpcred-fleet',
    ])
  })

  it('N processes with JOB_COMPLETION_INDEX=0..N-1 and --shard auto/N list every profile exactly once', async () => {
    const expected = fleet.map((profile) => profile.metadata.name).sort()
    const run = (index: number, shard: string, env: NodeJS.ProcessEnv = {}) =>
      cpcred(['list', '-n', namespace, '--shard', shard, '-o', 'name'], {
        KUBECONFIG: hubKubeconfig,
        JOB_COMPLETION_INDEX: String(index),
        ...env,
      })
    for (const [shard, env] of [
      [`auto/${SHARDS}`, {}],
      ['auto', {CPCRED_SHARD_COUNT: String(SHARDS)}],
    ] as const) {
      const results = await Promise.all(Array.from({length: SHARDS}, (_, index) => run(index, shard, env)))
      const listed: string[] = []
      results.forEach((result, index) => {
        assert.equal(result.code, 0, result.stderr)
        const names = result.stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => line.replace(/^.*\//, ''))
        // Pod 0 is shard 1: the 0-based index, not taken as 1-based.
        const own = fleet
          .filter((profile) => shardOf(shardKey(profile), SHARDS) === index + 1)
          .map((profile) => profile.metadata.name)
          .sort()
        assert.deepEqual(names.sort(), own, `JOB_COMPLETION_INDEX=${index}`)
        listed.push(...names)
      })
      assert.deepEqual(listed.sort(), expected, shard)
    }

    const noCount = await run(0, 'auto')
    assert.equal(noCount.code, 2)
    assert.match(
      noCount.stderr,
      /JOB_COMPLETION_INDEX is set \(a Kubernetes Indexed Job\) but the number of jobs is not/,
    )
    const outOfRange = await run(SHARDS, `auto/${SHARDS}`)
    assert.equal(outOfRange.code, 2)
    assert.match(outOfRange.stderr, new RegExp(`JOB_COMPLETION_INDEX must be from 0 to ${SHARDS - 1}`))
    const both = await run(0, `auto/${SHARDS}`, {CI_NODE_INDEX: '1', CI_NODE_TOTAL: String(SHARDS)})
    assert.equal(both.code, 2)
    assert.match(
      both.stderr,
      /CI_NODE_INDEX \(GitLab parallel:\) and JOB_COMPLETION_INDEX \(a Kubernetes Indexed Job\) are set at once/,
    )
    assert.doesNotMatch(both.stderr, /\n\s+at /, 'no stack trace')
  })

  it('Buildkite, CircleCI and GitLab jobs, each numbered its own way, cover every profile once through CPCRED_SHARD=auto', async () => {
    const systems: Record<string, (job: number) => NodeJS.ProcessEnv> = {
      Buildkite: (job) => ({
        BUILDKITE_PARALLEL_JOB: String(job),
        BUILDKITE_PARALLEL_JOB_COUNT: String(SHARDS),
      }),
      CircleCI: (job) => ({CIRCLE_NODE_INDEX: String(job), CIRCLE_NODE_TOTAL: String(SHARDS)}),
      GitLab: (job) => ({CI_NODE_INDEX: String(job + 1), CI_NODE_TOTAL: String(SHARDS)}),
    }
    for (const [system, jobEnv] of Object.entries(systems)) {
      const results = await Promise.all(
        Array.from({length: SHARDS}, (_, job) =>
          cpcred(['list', '-n', namespace, '-o', 'name'], {
            KUBECONFIG: hubKubeconfig,
            CPCRED_SHARD: 'auto',
            ...jobEnv(job),
          }),
        ),
      )
      const listed = results.flatMap((result) => {
        assert.equal(result.code, 0, `${system}: ${result.stderr}`)
        assert.match(result.stderr, /Working on shard \d\/3 of the selection \(CPCRED_SHARD=auto\)/)
        return result.stdout.trim().split('\n').filter(Boolean)
      })
      assert.deepEqual(
        listed.map((line) => line.replace(/^.*\//, '')).sort(),
        fleet.map((profile) => profile.metadata.name).sort(),
        system,
      )
    }
  })

  it("one full Indexed Job, simulated: each pod runs the manifest's command with its own index and the pods' reports cover the fleet once", async () => {
    const {hub} = await testEnv()
    const applied = await kubectl(['apply', '-f', manifest])
    assert.equal(applied.code, 0, applied.stderr)

    // The pod's hub identity: its ServiceAccount's token (in a real pod, the projected token).
    const {env} = await testEnv()
    const token = await serviceAccountToken(hub, namespace, SERVICE_ACCOUNT)
    const podKubeconfig = await tokenKubeconfig(dir, 'pod', env.hub.server, env.hub.caData, token, namespace)
    // The image: cpcred and kubectl on PATH.
    const binDir = path.join(dir, 'bin')
    await mkdir(binDir)
    await writeFile(
      path.join(binDir, 'cpcred'),
      `#!/bin/sh\nexec "${process.execPath}" "${cpcredBin}" "$@"\n`,
    )
    await chmod(path.join(binDir, 'cpcred'), 0o755)
    // The ConfigMap, mounted where the manifest says.
    const providers = objects.find((object) => object.kind === 'ConfigMap')!.data!['providers.json']!
    const {args, env: containerEnv} = container()
    const mountedAt = containerEnv.find((variable) => variable.name === 'CPCRED_PROVIDER_FILE')!.value

    const pod = async (index: number) => {
      const root = path.join(dir, `pod-${index}`)
      await mkdir(path.join(root, 'tmp'), {recursive: true})
      await mkdir(path.join(root, 'reports'))
      const providerFile = path.join(root, 'providers.json')
      await writeFile(providerFile, providers, {mode: 0o600})
      // What the kubelet does: $(VAR) from the container's environment, volumes at their paths.
      const podArgs = args.map((arg) =>
        arg
          .replaceAll('$(JOB_COMPLETION_INDEX)', String(index))
          .replaceAll('/reports/', `${path.join(root, 'reports')}/`),
      )
      const podEnv = Object.fromEntries(
        containerEnv.map(({name, value}) => [
          name,
          name === 'CPCRED_PROVIDER_FILE' ? providerFile : value.replace(/^\/tmp/, path.join(root, 'tmp')),
        ]),
      )
      assert.equal(mountedAt, '/etc/cpcred/providers.json')
      const result = await runProgram(path.join(binDir, 'cpcred'), podArgs, {
        env: {
          PATH: `${binDir}:${process.env.PATH}`,
          NO_COLOR: '1',
          ...podEnv,
          JOB_COMPLETION_INDEX: String(index),
          KUBECONFIG: podKubeconfig,
        },
      })
      return {result, report: path.join(root, 'reports', `fleet-${index}.xml`)}
    }

    const pods = await Promise.all(Array.from({length: SHARDS}, (_, index) => pod(index)))
    const reached: string[] = []
    for (const [index, {result, report}] of pods.entries()) {
      assert.equal(result.code, 0, `pod ${index}: ${result.stderr}`)
      const cases = testcases(await readFile(report, 'utf8'))
      for (const testcase of cases)
        assert.equal(testcase.failed, false, `${testcase.name} failed in pod ${index}`)
      reached.push(...cases.map((testcase) => `${testcase.classname}/${testcase.name}`))
      // The spoke answered kubectl with the token the pod's ServiceAccount obtained for it.
      for (const testcase of cases) {
        const log = path.join(
          path.dirname(report),
          `logs-${index}`,
          testcase.classname,
          `${testcase.name}.log`,
        )
        assert.equal((await readFile(log, 'utf8')).trim(), 'ok', log)
      }
    }
    assert.deepEqual(reached.sort(), fleet.map((profile) => `${namespace}/${profile.metadata.name}`).sort())
  })
})

const noPods = await podsUnavailable()
if (noPods) console.log(`# in-pod fleet job skipped: ${noPods}`)

describe(
  "the documented in-pod recipe: the guides' manifests as written, and the Job's command in a pod",
  {skip: noPods},
  () => {
    it('every profile the guides make reachable passes; only the one they make unusable fails, for that reason', async () => {
      const {env, hub, spoke} = await testEnv()
      const namespace = uniqueName('fleetpod')
      // The admin guides' hub and spoke manifests and hub-clusterprofiles.yaml, exactly as written.
      const variables = await applyAccessExamples({
        hub,
        spoke,
        spokeServer: env.spoke.server,
        spokeCaData: env.spoke.caData,
        namespace,
        clusterset: 'fleetpod',
      })
      await applyProfileExamples(hub, variables)
      // fleet-job.yaml as written, with the values docs/ci.md substitutes.
      const dir = await tempDir('cpcred-fleetpod-')
      const objects = await applyFleetJob<KubeObject>(env.hub.kubeconfig, dir, {
        NAMESPACE: namespace,
        IMAGE: 'registry.example/cpcred-kubectl:1',
        SHARDS: String(SHARDS),
        CLUSTER_NAME: variables.CLUSTER_NAME!,
      })
      const jobSpec = objects.find((object) => object.kind === 'Job')!.spec!.template.spec
      const {command, args, env: containerEnv} = jobSpec.containers[0]!
      const providers = objects.find((object) => object.kind === 'ConfigMap')!.data!['providers.json']!
      // The pod of the Job's ServiceAccount, with cpcred and kubectl on PATH as in the image.
      const pod = await makePod(namespace, jobSpec.serviceAccountName)
      const binDir = path.join(dir, 'bin')
      await mkdir(binDir)
      await writeFile(
        path.join(binDir, 'cpcred'),
        `#!/bin/sh\nexec "${process.execPath}" "${cpcredBin}" "$@"\n`,
      )
      await chmod(path.join(binDir, 'cpcred'), 0o755)

      const runShard = async (index: number) => {
        const root = path.join(dir, `pod-${index}`)
        await mkdir(path.join(root, 'tmp'), {recursive: true})
        await mkdir(path.join(root, 'reports'))
        const providerFile = path.join(root, 'providers.json')
        await writeFile(providerFile, providers, {mode: 0o600})
        const podArgs = args.map((arg) =>
          arg
            .replaceAll('$(JOB_COMPLETION_INDEX)', String(index))
            .replaceAll('/reports/', `${path.join(root, 'reports')}/`),
        )
        const podEnv = Object.fromEntries(
          containerEnv.map(({name, value}) => [
            name,
            name === 'CPCRED_PROVIDER_FILE' ? providerFile : value.replace(/^\/tmp/, path.join(root, 'tmp')),
          ]),
        )
        const [file, words] = inPod(pod.dir, [
          path.join(binDir, command[0]!),
          ...command.slice(1),
          ...podArgs,
        ])
        const result = await runProgram(file, words, {
          env: {
            ...pod.env,
            PATH: `${binDir}:${process.env.PATH}`,
            ...podEnv,
            JOB_COMPLETION_INDEX: String(index),
          },
        })
        return {result, report: path.join(root, 'reports', `fleet-${index}.xml`)}
      }
      const shards = await Promise.all(Array.from({length: SHARDS}, (_, index) => runShard(index)))
      // spoke-unusable offers only a provider no provider file here has: the guides make it fail.
      const {passed, failed} = await shardOutcomes(shards, PROFILES.unusable)
      assert.deepEqual(passed.sort(), [PROFILES.legacy, PROFILES.secretreader, PROFILES.tokenRequest].sort())
      assert.deepEqual(failed, [PROFILES.unusable])
    })
  },
)
