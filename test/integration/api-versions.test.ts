// The Cluster Inventory API forward: a hub serving v1alpha1 and v1alpha2 side by side (the shared
// test hub), a hub serving only v1alpha1 (one of its own), inventory member ids, and both spellings
// of the clusterset label.
import assert from 'node:assert/strict'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {kubeCall, waitFor, type Connection} from '../testenv/http.js'
import {adminConnection, down, up, type TestEnv} from '../testenv/testenv.js'
import {
  applyProfile,
  cpcred,
  createNamespace,
  isolatedEnv,
  runProgram,
  tempDir,
  testEnv,
  writeProviderFile,
} from '../helpers/env.js'
import {KUBECTL_WHOAMI, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {MEMBER_ID_LABEL, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

interface ExecSummary {
  profile: string
  exitCode: number
}

describe('a hub serving v1alpha1 and v1alpha2', () => {
  let fixture: SpokeFixture
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cpcred(args, {KUBECONFIG: fixture.hubKubeconfig, ...env})

  before(async () => {
    fixture = await spokeFixture({prefix: 'apiversions'})
  })

  it('reads v1alpha1 while it is served, and says so; --api-version v1alpha2 forces the new one', async () => {
    const listed = await run(['list', '-n', fixture.namespace, '-o', 'json'])
    assert.equal(listed.code, 0, listed.stderr)
    assert.deepEqual(
      JSON.parse(listed.stdout).items.map((item: {apiVersion: string}) => item.apiVersion),
      ['multicluster.x-k8s.io/v1alpha1'],
    )
    const wide = await run(['list', '-n', fixture.namespace, '-o', 'wide'])
    assert.match(wide.stdout, /^target\s.*\sv1alpha1$/m)
    const described = await run(['describe', `${fixture.namespace}/target`])
    assert.match(
      described.stdout,
      /^API Version:\s+multicluster\.x-k8s\.io\/v1alpha1 \(the version read from the hub\)$/m,
    )
    const forced = await run(['list', '-n', fixture.namespace, '-o', 'json', '--api-version', 'v1alpha2'])
    assert.equal(JSON.parse(forced.stdout).items[0].apiVersion, 'multicluster.x-k8s.io/v1alpha2')
    const forcedWide = await run(['list', '-n', fixture.namespace, '-o', 'wide', '--api-version', 'v1alpha2'])
    assert.match(forcedWide.stdout, /^target\s.*\sv1alpha2$/m)
  })

  it('chooses as the upstream access library does: both provider lists, the provider file order', async () => {
    // B only in the deprecated list, A in accessProviders, and the provider file prefers B:
    // sigs.k8s.io/cluster-inventory-api/pkg/access reads v1alpha1, merges both lists and takes B.
    const {hub} = await testEnv()
    const cluster = structuredClone(fixture.profile.status!.accessProviders![0]!.cluster)
    await applyProfile(hub, {
      metadata: {name: 'both-lists', namespace: fixture.namespace},
      spec: {clusterManager: {name: 'm'}},
      status: {accessProviders: [{name: 'fake', cluster}], credentialProviders: [{name: 'legacy', cluster}]},
    })
    const providers = JSON.parse(await readFile(fixture.providerFile, 'utf8')) as {
      providers: {name: string}[]
    }
    const file = await writeProviderFile(await tempDir(), [
      {...providers.providers[0], name: 'legacy'},
      providers.providers[0],
    ])
    const target = `${fixture.namespace}/both-lists`
    const described = await run(['describe', target, '--provider-file', file])
    assert.equal(described.code, 0, described.stderr)
    assert.match(described.stdout, /Chose provider "legacy" \(1st of 2 configured\)/)
    // Asked for v1alpha2, which has no credentialProviders: only "fake" is offered.
    const forced = await run(['describe', target, '--provider-file', file, '--api-version', 'v1alpha2'])
    assert.match(forced.stdout, /Chose provider "fake" \(2nd of 2 configured\)/)
  })

  it('runs the main flows through v1alpha2 when asked: describe, kubeconfig with kubectl, credential, exec', async () => {
    const target = `${fixture.namespace}/target`
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      cpcred([args[0]!, '--api-version', 'v1alpha2', ...args.slice(1)], {
        KUBECONFIG: fixture.hubKubeconfig,
        ...env,
      })
    const described = await run(['describe', target, '--provider-file', fixture.providerFile])
    assert.equal(described.code, 0, described.stderr)
    assert.match(described.stdout, /Chose provider "fake"/)

    const dir = await tempDir()
    const file = path.join(dir, 'config')
    const written = await run([
      'kubeconfig',
      target,
      '--provider-file',
      fixture.providerFile,
      '--output-file',
      file,
    ])
    assert.equal(written.code, 0, written.stderr)
    const whoami = await runProgram('kubectl', ['--kubeconfig', file, 'auth', 'whoami', '-o', 'json'], {
      env: isolatedEnv,
    })
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)

    const credential = await run([
      'credential',
      target,
      '--provider-file',
      fixture.providerFile,
      '--no-cache',
    ])
    assert.equal(credential.code, 0, credential.stderr)
    assert.equal(JSON.parse(credential.stdout).kind, 'ExecCredential')

    const exec = await run(['exec', target, '--provider-file', fixture.providerFile, '--', ...KUBECTL_WHOAMI])
    assert.equal(exec.code, 0, exec.stderr)
    assert.equal(JSON.parse(exec.stdout).status.userInfo.username, fixture.username)
  })

  it('reaches a profile whose manager publishes only the deprecated credentialProviders (v1alpha1)', async () => {
    const {hub} = await testEnv()
    await applyProfile(hub, {
      metadata: {name: 'legacy', namespace: fixture.namespace},
      spec: {clusterManager: {name: 'old-manager'}},
      status: {credentialProviders: structuredClone(fixture.profile.status!.accessProviders!)},
    })
    const credential = await run([
      'credential',
      `${fixture.namespace}/legacy`,
      '--provider-file',
      fixture.providerFile,
      '--no-cache',
    ])
    assert.equal(credential.code, 0, credential.stderr)
    const listed = await run([
      'list',
      '-n',
      fixture.namespace,
      '-o',
      'json',
      '--provider-file',
      fixture.providerFile,
    ])
    const legacy = JSON.parse(listed.stdout).items.find(
      (item: {metadata: {name: string}}) => item.metadata.name === 'legacy',
    )
    assert.equal(legacy.apiVersion, 'multicluster.x-k8s.io/v1alpha1', 'shown as it was served: by v1alpha1')
    assert.equal(legacy.status.credentialProviders[0].name, 'fake')
    const table = await run(['list', '-n', fixture.namespace, '--provider-file', fixture.providerFile])
    assert.match(table.stdout, /^legacy\s+old-manager\s+<none>\s+<none>\s+fake\*\s/m)
  })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Profiles with one member id created within the same second (creationTimestamp's precision), so
 * their creationTimestamps tie: started just after a second begins, and made again if they did not.
 */
async function createdTogether(
  hub: Connection,
  namespace: string,
  names: string[],
): Promise<ClusterProfile[]> {
  for (let attempt = 1; ; attempt++) {
    await sleep(1000 - (Date.now() % 1000) + 20)
    const created = await Promise.all(
      names.map((name) =>
        applyProfile(hub, {
          metadata: {name, namespace, labels: {[MEMBER_ID_LABEL]: 'tie'}},
          spec: {clusterManager: {name: 'm'}},
        }),
      ),
    )
    if (new Set(created.map((profile) => profile.metadata.creationTimestamp)).size === 1) return created
    if (attempt === 3) throw new Error('could not create profiles within one second')
    for (const name of names)
      await kubeCall(
        hub,
        'DELETE',
        `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles/${name}`,
      )
  }
}

describe('inventory member ids and clusterset labels', () => {
  let fixture: SpokeFixture
  let other: string
  const run = (args: string[]) => cpcred(args, {KUBECONFIG: fixture.hubKubeconfig})

  before(async () => {
    fixture = await spokeFixture({prefix: 'members'})
    const {hub} = await testEnv()
    const member = (namespace: string, name: string, id: string) =>
      applyProfile(hub, {
        ...structuredClone(fixture.profile),
        metadata: {name, namespace, labels: {[MEMBER_ID_LABEL]: id, fleet: 'members'}},
      })
    // The same member cluster published by two managers in one inventory (namespace), a second
    // apart (creationTimestamp counts seconds): the older one, though last by name, stands for it...
    await member(fixture.namespace, 'eu-1-by-ocm', 'eu-1')
    await sleep(1100)
    await member(fixture.namespace, 'eu-1-by-gke', 'eu-1')
    // ...and the same id in another inventory, which is another cluster.
    other = await createNamespace(hub, 'members-other', {'clusterset.multicluster.x-k8s.io': 'legacy-set'})
    await member(other, 'eu-1', 'eu-1')
  })

  const targets = async (...extra: string[]) => {
    const result = await run([
      'exec',
      '-A',
      '-l',
      'fleet=members',
      '--provider-file',
      fixture.providerFile,
      '-o',
      'json',
      ...extra,
      '--',
      'true',
    ])
    assert.equal(result.code, 0, result.stderr)
    return {
      profiles: (JSON.parse(result.stdout) as ExecSummary[]).map((entry) => entry.profile).sort(),
      stderr: result.stderr,
    }
  }

  it('runs a fan-out once per member cluster of an inventory, on the oldest, and warns of the duplicates', async () => {
    const {profiles, stderr} = await targets()
    assert.deepEqual(profiles, [`${fixture.namespace}/eu-1-by-ocm`, `${other}/eu-1`].sort())
    const ns = fixture.namespace
    assert.match(
      stderr,
      new RegExp(
        `${ns}/eu-1-by-ocm, ${ns}/eu-1-by-gke stand for one member cluster \\(inventory-member-id "eu-1" in namespace ${ns}\\): using the oldest, ${ns}/eu-1-by-ocm, leaving out the newer ${ns}/eu-1-by-gke`,
      ),
    )
    // One warning, for the one inventory with duplicates: the same id in another is no reason.
    const warnings = stderr.split('\n').filter((line) => /duplicate profiles/.test(line))
    assert.deepEqual(warnings, [
      `warning: the inventory in namespace ${ns} has duplicate profiles for a member cluster: inventory-member-id "eu-1" on ${ns}/eu-1-by-ocm, ${ns}/eu-1-by-gke (its cluster managers should publish one profile per member cluster)`,
    ])
    const all = await targets('--no-dedupe')
    assert.equal(all.profiles.length, 3)
    assert.match(all.stderr, /the inventory in namespace .* has duplicate profiles/)
    assert.doesNotMatch(all.stderr, /stand for one member cluster/)
  })

  it('runs on none of the oldest when they tie, and reports each as skipped in the summary, JSON and JUnit', async () => {
    const {hub} = await testEnv()
    const tiedNs = await createNamespace(hub, 'members-tie')
    const created = await createdTogether(hub, tiedNs, ['tie-a', 'tie-b'])
    assert.equal(created[0]!.metadata.creationTimestamp, created[1]!.metadata.creationTimestamp)
    const dir = await tempDir()
    const junitFile = path.join(dir, 'junit.xml')
    const jsonFile = path.join(dir, 'report.json')
    const result = await run([
      'exec',
      '-n',
      tiedNs,
      '--all',
      '--provider-file',
      fixture.providerFile,
      '--report',
      `junit=${junitFile}`,
      '--report',
      `json=${jsonFile}`,
      '--',
      'true',
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /the oldest, .*tie-a and .*tie-b, were created at the same time/)
    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as {
      counts: Record<string, number>
      targets: {profile: string; outcome: string; error: string}[]
    }
    assert.deepEqual(report.counts, {total: 2, passed: 0, failed: 0, errors: 0, skipped: 2})
    assert.deepEqual(
      report.targets.map((target) => [target.profile, target.outcome]),
      [
        [`${tiedNs}/tie-a`, 'skipped'],
        [`${tiedNs}/tie-b`, 'skipped'],
      ],
    )
    assert.match(
      report.targets[0]!.error,
      new RegExp(
        `^skipped: the oldest of inventory-member-id "tie" in namespace ${tiedNs} tie \\(${tiedNs}/tie-a and ${tiedNs}/tie-b, created `,
      ),
    )
    const junit = await readFile(junitFile, 'utf8')
    assert.match(junit, /<testsuite [^>]*tests="2"[^>]*skipped="2"/)
    // The summary gives the cause: no --healthy was asked for.
    assert.match(result.stderr, /^all 0 succeeded, 2 skipped \(tied duplicates\)$/m)
    assert.doesNotMatch(result.stderr, /not healthy/)
  })

  it('writes one kubeconfig context per member cluster, and shows the member id with -o wide', async () => {
    const kubeconfig = await run([
      'kubeconfig',
      '-A',
      '-l',
      'fleet=members',
      '--provider-file',
      fixture.providerFile,
    ])
    assert.equal(kubeconfig.code, 0, kubeconfig.stderr)
    assert.doesNotMatch(kubeconfig.stdout, /eu-1-by-gke/)
    assert.match(kubeconfig.stdout, /eu-1-by-ocm/)
    const wide = await run(['list', '-n', fixture.namespace, '-l', 'fleet=members', '-o', 'wide'])
    assert.match(wide.stdout, /MEMBER\s+SERVER/)
    assert.match(wide.stdout, /^eu-1-by-ocm\s.*\seu-1\s+<none>\s+v1alpha1$/m)
  })

  it('reads the clusterset from either spelling of the namespace label, and describe says which', async () => {
    const described = await run(['describe', `${other}/eu-1`])
    assert.match(
      described.stdout,
      /^Clusterset:\s+legacy-set \(legacy namespace label clusterset\.multicluster\.x-k8s\.io, removed from KEP-4322\)$/m,
    )
    const wide = await run(['list', '-n', other, '-o', 'wide'])
    assert.match(wide.stdout, /\slegacy-set\s/)
  })

  it('reads clusterset membership from the clusterset.k8s.io property too: --clusterset, describe, -o wide', async () => {
    const {hub} = await testEnv()
    const unlabelled = await createNamespace(hub, 'members-property')
    await applyProfile(hub, {
      metadata: {name: 'east-1', namespace: unlabelled},
      spec: {clusterManager: {name: 'm'}},
      status: {
        properties: [{name: 'clusterset.k8s.io', value: 'east', lastObservedTime: '2026-11-26T07:00:00Z'}],
      },
    })
    const east = await run(['list', '-A', '--clusterset', 'east', '-o', 'name'])
    assert.equal(east.code, 0, east.stderr)
    assert.equal(east.stdout, 'clusterprofile.multicluster.x-k8s.io/east-1\n')
    // Selected through the property, KEP-4322's source: nothing to warn of.
    assert.equal(east.stderr, '')
    // The namespace label still counts, beside the property, and one line says it is legacy.
    const legacy = await run(['list', '-A', '--clusterset', 'legacy-set', '-o', 'name'])
    assert.equal(legacy.code, 0, legacy.stderr)
    assert.equal(legacy.stdout, 'clusterprofile.multicluster.x-k8s.io/eu-1\n')
    assert.equal(
      legacy.stderr,
      `warning: --clusterset legacy-set: 1 profile selected only through the legacy namespace label clusterset.multicluster.x-k8s.io=legacy-set (namespace ${other}), which KEP-4322 no longer defines: consumers that follow the KEP read the clusterset.k8s.io property in status.properties, which their cluster manager should set\n`,
    )
    const described = await run(['describe', `${unlabelled}/east-1`])
    assert.match(described.stdout, /^Clusterset:\s+east \(property clusterset\.k8s\.io\)$/m)
    // A profile in a labelled namespace whose property names the set too: the property is the source.
    await applyProfile(hub, {
      metadata: {name: 'both', namespace: other},
      spec: {clusterManager: {name: 'm'}},
      status: {properties: [{name: 'clusterset.k8s.io', value: 'legacy-set'}]},
    })
    const both = await run(['list', '-n', other, '--clusterset', 'legacy-set', '-o', 'name'])
    assert.equal(
      both.stdout,
      'clusterprofile.multicluster.x-k8s.io/both\nclusterprofile.multicluster.x-k8s.io/eu-1\n',
    )
    assert.match(both.stderr, /^warning: --clusterset legacy-set: 1 profile selected only through the legacy/)
    const describedBoth = await run(['describe', `${other}/both`, '-o', 'json'])
    assert.deepEqual((JSON.parse(describedBoth.stdout) as {clustersets: unknown}).clustersets, [
      {clusterset: 'legacy-set', from: 'property clusterset.k8s.io', legacy: false},
      {
        clusterset: 'legacy-set',
        from: 'legacy namespace label clusterset.multicluster.x-k8s.io, removed from KEP-4322',
        legacy: true,
      },
    ])
    const wide = await run(['list', '-n', unlabelled, '-o', 'wide'])
    assert.match(wide.stdout, /^east-1\s.*\seast\s+<none>\s+<none>\s+v1alpha1$/m)
  })
})

describe('a hub serving only v1alpha1', () => {
  let env: TestEnv
  let dir: string
  let kubeconfigEnv: NodeJS.ProcessEnv

  before(async () => {
    dir = await tempDir('cpcred-v1alpha1-')
    env = await up(path.join(dir, 'env'))
    const hub = await adminConnection(env.hub)
    const crdPath =
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/clusterprofiles.multicluster.x-k8s.io'
    const crd = await kubeCall<{spec: {versions: {name: string; served: boolean}[]}}>(hub, 'GET', crdPath)
    for (const version of crd.spec.versions) if (version.name === 'v1alpha2') version.served = false
    await kubeCall(hub, 'PUT', crdPath, crd)
    // Discovery follows a CRD change a moment later.
    const groupServes = async (version: string) =>
      (
        await kubeCall<{versions: {version: string}[]}>(hub, 'GET', '/apis/multicluster.x-k8s.io')
      ).versions.some((entry) => entry.version === version)
    await waitFor('v1alpha2 to leave discovery', 20_000, async () =>
      (await groupServes('v1alpha2')) ? undefined : true,
    )
    // Another API of the group served in v1alpha2 (the test hub's PlacementDecision CRD is the
    // upstream v1alpha1 one, so a stand-in): the group then lists v1alpha2, but ClusterProfiles are
    // still only in v1alpha1.
    await kubeCall(hub, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {name: 'rolloutplans.multicluster.x-k8s.io'},
      spec: {
        group: 'multicluster.x-k8s.io',
        scope: 'Namespaced',
        names: {plural: 'rolloutplans', singular: 'rolloutplan', kind: 'RolloutPlan'},
        versions: [
          {
            name: 'v1alpha2',
            served: true,
            storage: true,
            schema: {openAPIV3Schema: {type: 'object', 'x-kubernetes-preserve-unknown-fields': true}},
          },
        ],
      },
    })
    await waitFor('RolloutPlan v1alpha2 in discovery', 20_000, async () =>
      (await groupServes('v1alpha2')) ? true : undefined,
    )
    await kubeCall(hub, 'POST', '/apis/multicluster.x-k8s.io/v1alpha1/namespaces/default/clusterprofiles', {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ClusterProfile',
      metadata: {name: 'only-old', namespace: 'default'},
      spec: {clusterManager: {name: 'old-hub'}},
    })
    kubeconfigEnv = {KUBECONFIG: env.hub.kubeconfig}
  })
  after(() => down(path.join(dir, 'env')))

  it('falls back to v1alpha1 for everything, though another API of the group is in v1alpha2, and refuses --api-version v1alpha2 clearly (exit 3)', async () => {
    const listed = await cpcred(['list', '-o', 'json'], kubeconfigEnv)
    assert.equal(listed.code, 0, listed.stderr)
    assert.equal(JSON.parse(listed.stdout).items[0].apiVersion, 'multicluster.x-k8s.io/v1alpha1')
    const described = await cpcred(['describe', 'only-old'], kubeconfigEnv)
    assert.equal(described.code, 0, described.stderr)
    assert.match(described.stdout, /^Cluster Manager:\s+old-hub$/m)
    const forced = await cpcred(['list', '--api-version', 'v1alpha2'], kubeconfigEnv)
    assert.equal(forced.code, 3)
    assert.match(
      forced.stderr,
      /^error: the hub \(context "hub" from kubectl's current context, .*\) does not serve multicluster\.x-k8s\.io v1alpha2 clusterprofiles \(it serves clusterprofiles in v1alpha1\)\nleave out --api-version/,
    )
    const doctor = await cpcred(['doctor'], kubeconfigEnv)
    assert.match(doctor.stdout, /hub-api\s+multicluster\.x-k8s\.io\/v1alpha1 clusterprofiles served and read/)
  })
})
