// Placements as a selection and health gating against the real hub: PlacementDecision slices read
// through the upstream CRD, their references in decision-index order, missing and unreadable ones
// reported per target, and --healthy skipping with the condition's words in text, JSON and JUnit.
import assert from 'node:assert/strict'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {XMLParser} from 'fast-xml-parser'
import {parse} from 'yaml'
import {kubeCall, type Connection} from '../testenv/http.js'
import {
  applyProfile,
  cpcred,
  createNamespace,
  createServiceAccount,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {eventually, follow} from '../helpers/following.js'

const KEY = 'multicluster.x-k8s.io/decision-key'
const INDEX = 'multicluster.x-k8s.io/decision-index'
const PLACEMENT_KEY = 'multicluster.x-k8s.io/placement-key'

interface Summary {
  profile: string
  outcome: string
  exitCode: number
  error?: string
}

describe('placements and health gating against the real hub', () => {
  let fixture: SpokeFixture
  let elsewhere: string
  let readerKubeconfig: string
  let cacheHome: string
  let hub: Connection
  let decision: (name: string, labels: Record<string, string>, refs: string[]) => Promise<unknown>

  before(async () => {
    fixture = await spokeFixture({prefix: 'placement'})
    cacheHome = await tempDir('cpcred-cache-')
    const started = await testEnv()
    const {env} = started
    hub = started.hub
    const {namespace} = fixture
    const health = (status: string, reason: string, message: string) => ({
      type: 'ControlPlaneHealthy',
      status,
      reason,
      message,
      lastTransitionTime: '2026-01-01T00:00:00Z',
    })
    const member = (name: string, ns: string, condition: ReturnType<typeof health>) => ({
      metadata: {name, namespace: ns},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        conditions: [condition],
        accessProviders: [
          {name: 'fake', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    })
    const up = health('True', 'Healthy', 'answers /readyz')
    for (const name of ['a', 'b', 'd']) await applyProfile(hub, member(name, namespace, up))
    await applyProfile(hub, member('c', namespace, health('False', 'APIServerDown', 'no answer on :6443')))
    elsewhere = await createNamespace(hub, 'placement-hidden')
    await applyProfile(hub, member('hidden', elsewhere, up))

    decision = (name: string, labels: Record<string, string>, refs: string[]) =>
      kubeCall(
        hub,
        'POST',
        `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/placementdecisions`,
        {
          apiVersion: 'multicluster.x-k8s.io/v1alpha1',
          kind: 'PlacementDecision',
          metadata: {name, labels},
          schedulerName: 'test-scheduler',
          decisions: refs.map((ref) => {
            const [ns, profile] = ref.includes('/') ? ref.split('/') : [undefined, ref]
            return {clusterProfileRef: {name: profile, ...(ns ? {namespace: ns} : {})}, reason: 'fits'}
          }),
        },
      )
    // Created out of order: the index, not the name or the creation, orders the slices.
    await decision('web-b', {[KEY]: 'web', [INDEX]: '1', [PLACEMENT_KEY]: 'app'}, [
      'd',
      'c',
      'a',
      `${elsewhere}/hidden`,
    ])
    await decision('web-a', {[KEY]: 'web', [INDEX]: '0', [PLACEMENT_KEY]: 'app'}, ['b', 'a', 'gone'])
    await decision('pair', {}, ['c', 'a'])

    // A reader allowed profiles and decisions in this namespace only.
    await createServiceAccount(hub, namespace, 'reader')
    await kubeCall(hub, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {name: 'placement-reader'},
      rules: [
        {
          apiGroups: ['multicluster.x-k8s.io'],
          resources: ['clusterprofiles', 'placementdecisions'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    })
    await kubeCall(hub, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {name: 'placement-reader'},
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'placement-reader'},
      subjects: [{kind: 'ServiceAccount', name: 'reader', namespace}],
    })
    readerKubeconfig = await tokenKubeconfig(
      fixture.dir,
      'reader',
      env.hub.server,
      env.hub.caData,
      await serviceAccountToken(hub, namespace, 'reader'),
      namespace,
    )
  })

  const run = (args: string[]) =>
    cpcred([args[0]!, '--provider-file', fixture.providerFile, ...args.slice(1)], {
      KUBECONFIG: readerKubeconfig,
      XDG_CACHE_HOME: cacheHome,
    })

  it('runs exactly the decided clusters of every slice, in decision-index order, missing and unreadable references as errors', async () => {
    const result = await run(['exec', '--placement', 'web-b', '-o', 'json', '--', 'true'])
    assert.equal(result.code, 1, result.stderr)
    const summary = JSON.parse(result.stdout) as Summary[]
    const ns = fixture.namespace
    assert.deepEqual(
      summary.map((entry) => [entry.profile, entry.outcome]),
      [
        [`${ns}/b`, 'passed'],
        [`${ns}/a`, 'passed'],
        [`${ns}/gone`, 'error'],
        [`${ns}/d`, 'passed'],
        [`${ns}/c`, 'passed'],
        [`${elsewhere}/hidden`, 'error'],
      ],
      'the summary in decision order, a reference that did not resolve where it was decided',
    )
    assert.match(
      summary[2]!.error!,
      new RegExp(`ClusterProfile ${ns}/gone not found \\(referenced by PlacementDecision ${ns}/web-a\\)`),
    )
    assert.equal(summary[5]!.exitCode, 4)
    assert.match(summary[5]!.error!, /cannot be read: cannot get clusterprofiles/)
  })

  it('--placement-key takes the same slices; --shard splits what they decide', async () => {
    const byKey = await run(['exec', '--placement-key', 'app', '-o', 'json', '--', 'true'])
    const whole = (JSON.parse(byKey.stdout) as Summary[]).map((entry) => entry.profile)
    assert.equal(whole.length, 6, byKey.stderr)
    const parts: string[] = []
    for (const shard of ['1/2', '2/2']) {
      const part = await run(['exec', '--placement-key', 'app', '--shard', shard, '-o', 'json', '--', 'true'])
      parts.push(...(JSON.parse(part.stdout || '[]') as Summary[]).map((entry) => entry.profile))
    }
    assert.deepEqual([...parts].sort(), [...whole].sort())
  })

  it('--healthy skips what is not healthy with the reason, in text, JSON and JUnit, and is green for it', async () => {
    const text = await run(['exec', '--placement', 'pair', '--healthy', '--', 'true'])
    assert.equal(text.code, 0, text.stderr)
    assert.match(
      text.stderr,
      /\/c\s+0\s+0\.0s\s+skipped: ControlPlaneHealthy is False: APIServerDown: no answer on :6443/,
    )
    assert.match(text.stderr, /all 1 succeeded, 1 skipped \(not healthy\)/)

    const dir = await tempDir('cpcred-placement-reports-')
    const junitFile = path.join(dir, 'fleet.xml')
    const jsonFile = path.join(dir, 'fleet.json')
    const reported = await run([
      'exec',
      '--placement',
      'web-a',
      '--healthy',
      '--report',
      `junit=${junitFile}`,
      '--report',
      `json=${jsonFile}`,
      '-o',
      'json',
      '--',
      'true',
    ])
    assert.equal(reported.code, 1, 'a missing reference still fails the job')
    const web = await run([
      'exec',
      '--placement',
      'web-b',
      '--healthy',
      '--report',
      `junit=${junitFile}`,
      '--report',
      `json=${jsonFile}`,
      '--',
      'true',
    ])
    assert.equal(web.code, 1, web.stderr)
    const json = JSON.parse(await readFile(jsonFile, 'utf8')) as {
      counts: Record<string, number>
      targets: Summary[]
    }
    assert.deepEqual(json.counts, {total: 6, passed: 3, failed: 0, errors: 2, skipped: 1})
    const skipped = json.targets.find((target) => target.outcome === 'skipped')!
    assert.equal(skipped.profile, `${fixture.namespace}/c`)
    assert.equal(skipped.error, 'skipped: ControlPlaneHealthy is False: APIServerDown: no answer on :6443')

    const xml = new XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(
      await readFile(junitFile, 'utf8'),
    )
    const suite = xml.testsuites.testsuite
    assert.deepEqual([suite.tests, suite.errors, suite.skipped, suite.failures], ['6', '2', '1', '0'])
    const cases = suite.testcase as {
      name: string
      classname: string
      skipped?: {message: string}
      error?: {message: string}
    }[]
    assert.deepEqual(
      cases.map((c) => c.name),
      ['b', 'a', 'gone', 'd', 'c', 'hidden'],
    )
    assert.equal(cases.find((c) => c.name === 'c')!.skipped!.message, skipped.error)
    assert.match(cases.find((c) => c.name === 'gone')!.error!.message, /not found/)
    assert.match(cases.find((c) => c.name === 'hidden')!.error!.message, /cannot get clusterprofiles/)
  })

  it('list --healthy says what it skipped on stderr, with why, and stdout stays the listing (-o json|yaml too)', async () => {
    const skippedC = new RegExp(
      `^skipped ${fixture.namespace}/c: ControlPlaneHealthy is False: APIServerDown: no answer on :6443$`,
      'm',
    )
    const table = await run(['list', '--healthy'])
    assert.equal(table.code, 0, table.stderr)
    assert.deepEqual(
      table.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((row) => row.split(/\s+/)[0]),
      ['a', 'b', 'd'],
    )
    assert.match(table.stderr, skippedC)

    const json = await run(['list', '--placement', 'pair', '--healthy', '-o', 'json'])
    assert.equal(json.code, 0, json.stderr)
    const listed = JSON.parse(json.stdout) as {items: {metadata: {name: string}}[]}
    assert.deepEqual(
      listed.items.map((item) => item.metadata.name),
      ['a'],
    )
    assert.match(json.stderr, skippedC)

    const yaml = await run(['list', '--healthy', '-o', 'yaml'])
    assert.equal(yaml.code, 0, yaml.stderr)
    assert.deepEqual(
      (parse(yaml.stdout) as {items: {metadata: {name: string}}[]}).items.map((item) => item.metadata.name),
      ['a', 'b', 'd'],
    )
    assert.match(yaml.stderr, skippedC)
  })

  it('says clearly when the PlacementDecision does not exist (exit 1, as kubectl), or the selection is mixed', async () => {
    for (const command of [
      ['exec', '--placement', 'nope', '--', 'true'],
      ['list', '--placement', 'nope'],
    ]) {
      const missing = await run(command)
      assert.equal(missing.code, 1, `${command[0]}: not found is exit 1, not a usage error`)
      assert.match(missing.stderr, /PlacementDecision "nope" not found in namespace/)
    }
    const mixed = await run(['exec', '--placement', 'pair', '--all', '--', 'true'])
    assert.equal(mixed.code, 2)
    assert.match(mixed.stderr, /--placement cannot be combined/)
  })

  it('list, kubeconfig, sync and doctor select the same way, and say what they left out', async () => {
    const ns = fixture.namespace
    const listed = await run(['list', '--placement', 'web-b', '-o', 'name'])
    assert.equal(listed.code, 1, 'an unresolved reference fails the listing')
    assert.deepEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.replace(/^.*\//, '')),
      ['b', 'a', 'd', 'c'],
    )
    assert.match(listed.stderr, new RegExp(`ClusterProfile ${ns}/gone not found`))
    assert.match(listed.stderr, new RegExp(`ClusterProfile ${elsewhere}/hidden .*cannot be read`))

    const healthyList = await run(['list', '--placement', 'pair', '--healthy', '-o', 'name'])
    assert.equal(healthyList.code, 0, healthyList.stderr)
    assert.deepEqual(healthyList.stdout.trim().split('\n'), ['clusterprofile.multicluster.x-k8s.io/a'])

    const kubeconfig = await run(['kubeconfig', '--placement', 'pair', '--healthy'])
    assert.equal(kubeconfig.code, 0, kubeconfig.stderr)
    const contexts = (parse(kubeconfig.stdout) as {contexts: {name: string}[]}).contexts.map((c) => c.name)
    assert.equal(contexts.length, 1)
    assert.match(contexts[0]!, /\ba$/)
    assert.match(
      kubeconfig.stderr,
      new RegExp(`skipped ${ns}/c: ControlPlaneHealthy is False: APIServerDown`),
    )

    const synced = await run([
      'sync',
      '--placement',
      'web-a',
      '--output-file',
      path.join(fixture.dir, 'never-written'),
      '--dry-run',
      '-o',
      'json',
    ])
    assert.equal(synced.code, 1, 'sync fails on a missing reference')
    const plan = JSON.parse(synced.stdout) as {changes: {action: string; profile: string}[]}
    assert.deepEqual(
      plan.changes
        .filter((change) => change.action === 'add')
        .map((change) => change.profile)
        .sort(),
      ['a', 'b', 'c', 'd'].map((name) => `${ns}/${name}`),
      'every slice of the decision, the missing reference kept out',
    )
    const doctor = await run(['doctor', '--placement', 'web-a', '-o', 'json'])
    assert.equal(doctor.code, 1, doctor.stderr)
    assert.match(doctor.stdout, new RegExp(`ClusterProfile ${ns}/gone not found`))
  })

  it('describe names the PlacementDecisions that reference a profile', async () => {
    const ns = fixture.namespace
    const described = await run(['describe', 'a'])
    assert.equal(described.code, 0, described.stderr)
    assert.match(
      described.stdout,
      new RegExp(`^Placed By:\\s+${ns}/pair\\n\\s+${ns}/web-a\\n\\s+${ns}/web-b$`, 'm'),
    )
    const json = JSON.parse((await run(['describe', 'd', '-o', 'json'])).stdout) as {placedBy?: string[]}
    assert.deepEqual(json.placedBy, [`${ns}/web-b`])
  })
  it('sync --placement --watch follows the decisions: adds, prunes, skips and reports as the scheduler changes them', async () => {
    const ns = fixture.namespace
    const decisions = `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${ns}/placementdecisions`
    await decision('follow-0', {[KEY]: 'follow', [INDEX]: '0'}, ['a'])
    const file = path.join(fixture.dir, 'followed-config')
    const watcher = follow(
      [
        'sync',
        '--placement',
        'follow-0',
        '--healthy',
        '--watch',
        '--provider-file',
        fixture.providerFile,
        '--output-file',
        file,
      ],
      {KUBECONFIG: readerKubeconfig, XDG_CACHE_HOME: cacheHome},
    )
    // The real kubectl reads the file the watch keeps.
    const contexts = async () => {
      const listed = await runProgram('kubectl', [
        'config',
        'get-contexts',
        '-o',
        'name',
        '--kubeconfig',
        file,
      ])
      if (listed.code !== 0) return undefined
      return listed.stdout.trim().split('\n').filter(Boolean).sort()
    }
    const has = (names: string[]) => async () => {
      const now = await contexts()
      return JSON.stringify(now) === JSON.stringify(names.map((name) => `${ns}/${name}`)) ? now : undefined
    }
    try {
      await eventually('the first pass', has(['a']))
      // A new slice of the same decision: its profiles join; the unhealthy one and the missing one
      // are said, not written.
      await decision('follow-1', {[KEY]: 'follow', [INDEX]: '1'}, ['d', 'c', 'ghost', 'b'])
      await eventually('the new slice', has(['a', 'b', 'd']), 10_000)
      await eventually('the skipped and the missing said', async () =>
        /skipped .*\/c: ControlPlaneHealthy is False/.test(watcher.stderr()) &&
        new RegExp(`ClusterProfile ${ns}/ghost not found`).test(watcher.stderr())
          ? true
          : undefined,
      )
      // The scheduler moves the first slice away from a: its entry is pruned.
      const first = await kubeCall<{decisions: unknown[]}>(hub, 'GET', `${decisions}/follow-0`)
      first.decisions = [{clusterProfileRef: {name: 'd'}, reason: 'moved'}]
      await kubeCall(hub, 'PUT', `${decisions}/follow-0`, first)
      await eventually('the moved decision', has(['b', 'd']), 10_000)
      // The second slice is withdrawn: only what the first decides stays.
      await kubeCall(hub, 'DELETE', `${decisions}/follow-1`)
      await eventually('the withdrawn slice', has(['d']), 10_000)
      // The file is written before the pass says so on stderr.
      await eventually('the pruned b said', async () =>
        new RegExp(`- prune ${ns}/b`).test(watcher.stderr()) ? true : undefined,
      )
      const said = watcher.stderr()
      assert.match(said, new RegExp(`\\+ add ${ns}/b`))
      assert.match(said, new RegExp(`- prune ${ns}/a`))
      assert.match(said, new RegExp(`- prune ${ns}/b`))
      assert.equal(
        said.match(/ghost not found/g)?.length,
        1,
        `a missing reference is said once, not on every pass:\n${said}`,
      )
      assert.match(said, /watching PlacementDecision "follow-0" and the ClusterProfiles/)
    } finally {
      assert.equal(await watcher.stop(), 0, watcher.stderr())
    }
  })
})
