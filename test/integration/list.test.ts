import assert from 'node:assert/strict'
import {before, describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {kubeCall} from '../testenv/http.js'
import {
  applyProfile,
  cpcred,
  createNamespace,
  createServiceAccount,
  getProfile,
  runProgram,
  serviceAccountToken,
  writeProviderFile,
  tempDir,
  testEnv,
  tokenKubeconfig,
  uniqueName,
} from '../helpers/env.js'

function profile(
  namespace: string,
  name: string,
  status: ClusterProfile['status'],
  labels: Record<string, string>,
): ClusterProfile {
  return {
    metadata: {name, namespace, labels: {'x-k8s.io/cluster-manager': 'fleet-manager', ...labels}},
    spec: {displayName: `Cluster ${name}`, clusterManager: {name: 'fleet-manager'}},
    status,
  }
}

describe('cpcred list against the real hub', () => {
  let hubKubeconfig: string
  let runLabel: Record<string, string>
  let namespaces: string[]
  let applied: ClusterProfile[]

  before(async () => {
    const {env, hub} = await testEnv()
    hubKubeconfig = env.hub.kubeconfig
    runLabel = {'cpcred.test/run': uniqueName('list')}
    namespaces = [await createNamespace(hub, 'list-a'), await createNamespace(hub, 'list-b')]
    const server = env.spoke.server
    applied = [
      await applyProfile(
        hub,
        profile(
          namespaces[0]!,
          'alpha',
          {
            accessProviders: [
              {name: 'secretreader', cluster: {server, 'certificate-authority-data': env.spoke.caData}},
            ],
            conditions: [
              {
                type: 'ControlPlaneHealthy',
                status: 'True',
                reason: 'Healthy',
                message: 'ok',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
            version: {kubernetes: 'v1.34.10'},
          },
          runLabel,
        ),
      ),
      // An old hub's profile: only the deprecated credentialProviders.
      await applyProfile(
        hub,
        profile(
          namespaces[1]!,
          'beta',
          {credentialProviders: [{name: 'token-request', cluster: {server}}]},
          runLabel,
        ),
      ),
      // Both lists, naming the same provider.
      await applyProfile(
        hub,
        profile(
          namespaces[1]!,
          'gamma',
          {
            accessProviders: [{name: 'token-request', cluster: {server}}],
            credentialProviders: [
              {name: 'token-request', cluster: {server: 'https://old.example'}},
              {name: 'legacy', cluster: {server: 'https://legacy.example'}},
            ],
          },
          runLabel,
        ),
      ),
    ]
  })

  it('-A -o json returns exactly the applied profiles (v1alpha1: both provider lists included)', async () => {
    const result = await cpcred(
      [
        'list',
        '-A',
        '-l',
        `cpcred.test/run=${runLabel['cpcred.test/run']}`,
        '-o',
        'json',
        '--api-version',
        'v1alpha1',
      ],
      {
        KUBECONFIG: hubKubeconfig,
      },
    )
    assert.equal(result.code, 0, result.stderr)
    const list = JSON.parse(result.stdout) as {kind: string; apiVersion: string; items: ClusterProfile[]}
    assert.equal(list.kind, 'List')
    assert.equal(list.apiVersion, 'v1')
    const {hub} = await testEnv()
    const current = await Promise.all(
      applied.map((p) => getProfile(hub, p.metadata.namespace!, p.metadata.name)),
    )
    // Sorted by namespace/name, and each item is the object the hub holds, unchanged but for
    // metadata.managedFields, which kubectl -o json leaves out too.
    const byKey = (p: ClusterProfile) => `${p.metadata.namespace}/${p.metadata.name}`
    const shown = (p: ClusterProfile) => ({...p, metadata: {...p.metadata, managedFields: undefined}})
    assert.ok(
      current.every((p) => p.metadata.managedFields !== undefined),
      'the hub keeps managed fields',
    )
    assert.deepEqual(
      list.items,
      JSON.parse(JSON.stringify([...current].map(shown).sort((a, b) => byKey(a).localeCompare(byKey(b))))),
    )
    const kubectl = await runProgram(
      'kubectl',
      [
        'get',
        'clusterprofiles.v1alpha1.multicluster.x-k8s.io',
        '-A',
        '-l',
        `cpcred.test/run=${runLabel['cpcred.test/run']}`,
        '-o',
        'json',
      ],
      {env: {...process.env, KUBECONFIG: hubKubeconfig}},
    )
    assert.equal(kubectl.code, 0, kubectl.stderr)
    assert.doesNotMatch(kubectl.stdout, /managedFields/, 'kubectl -o json hides managed fields too')
    assert.deepEqual(
      list.items.find((p) => p.metadata.name === 'gamma')?.status?.credentialProviders?.map((p) => p.name),
      ['token-request', 'legacy'],
    )
  })

  it("prints a kubectl-style table for one namespace, with v1alpha1's deprecated providers merged", async () => {
    // v1alpha1 is read by default while the hub serves it.
    const result = await cpcred(['list', '-n', namespaces[1]!], {KUBECONFIG: hubKubeconfig})
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout.trimEnd().split('\n')
    assert.match(lines[0]!, /^NAME\s+MANAGER\s+HEALTHY\s+VERSION\s+PROVIDERS\s+AGE$/)
    assert.equal(lines.length, 3)
    assert.match(lines[1]!, /^beta\s+fleet-manager\s+<none>\s+<none>\s+token-request\s+\d+s$/)
    assert.match(lines[2]!, /^gamma\s+fleet-manager\s+<none>\s+<none>\s+token-request,legacy\s+\d+s$/)
    // v1alpha2 has no credentialProviders: a profile that also has accessProviders offers only those.
    const current = await cpcred(['list', '-n', namespaces[1]!, '--api-version', 'v1alpha2'], {
      KUBECONFIG: hubKubeconfig,
    })
    assert.match(current.stdout, /^gamma\s+fleet-manager\s+<none>\s+<none>\s+token-request\s+\d+s$/m)
  })

  it('adds NAMESPACE with -A, says the inventories it spans, and uses the context namespace by default', async () => {
    const all = await cpcred(['list', '-A', '-l', `cpcred.test/run=${runLabel['cpcred.test/run']}`], {
      KUBECONFIG: hubKubeconfig,
    })
    assert.equal(all.code, 0, all.stderr)
    assert.match(all.stdout.split('\n')[0]!, /^NAMESPACE\s+NAME\s+MANAGER/)
    assert.match(
      all.stdout,
      new RegExp(
        `^${namespaces[0]}\\s+alpha\\s+fleet-manager\\s+True\\s+v1\\.34\\.10\\s+secretreader\\s`,
        'm',
      ),
    )

    // Each namespace is an inventory (KEP-4322): one table, as kubectl get -A prints, its rows grouped
    // by namespace, and one line on stderr that says the listing spans two inventories.
    assert.equal(
      all.stderr,
      `2 inventories (KEP-4322: one per namespace): ${namespaces[0]} (1), ${namespaces[1]} (2)\n`,
    )
    assert.deepEqual(
      all.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/).slice(0, 2).join('/')),
      [`${namespaces[0]}/alpha`, `${namespaces[1]}/beta`, `${namespaces[1]}/gamma`],
    )
    // -o wide says it too; -o name, json and yaml stay the data alone, on stdout and stderr alike.
    const selection = ['-A', '-l', `cpcred.test/run=${runLabel['cpcred.test/run']}`]
    const wide = await cpcred(['list', ...selection, '-o', 'wide'], {KUBECONFIG: hubKubeconfig})
    assert.equal(wide.stderr, all.stderr)
    for (const format of ['name', 'json', 'yaml']) {
      const machine = await cpcred(['list', ...selection, '-o', format], {KUBECONFIG: hubKubeconfig})
      assert.equal(machine.code, 0, machine.stderr)
      assert.equal(machine.stderr, '', `-o ${format}`)
    }
    // One namespace is one inventory: nothing to say.
    const one = await cpcred(['list', '-n', namespaces[1]!], {KUBECONFIG: hubKubeconfig})
    assert.equal(one.code, 0, one.stderr)
    assert.equal(one.stderr, '')

    const inDefault = await cpcred(['list'], {KUBECONFIG: hubKubeconfig})
    assert.equal(inDefault.code, 0)
    assert.equal(inDefault.stdout, '')
    assert.equal(inDefault.stderr, 'No ClusterProfiles found in default namespace.\n')
  })

  it('takes --all, as the other commands do, and lists the same', async () => {
    const args = ['list', '-n', namespaces[1]!, '-o', 'name']
    const plain = await cpcred(args, {KUBECONFIG: hubKubeconfig})
    const all = await cpcred([...args, '--all'], {KUBECONFIG: hubKubeconfig})
    assert.equal(all.code, 0, all.stderr)
    assert.equal(all.stdout, plain.stdout)
    assert.match(all.stdout, /\/beta\n/)
  })

  it('prints YAML and names', async () => {
    const yaml = await cpcred(['list', '-n', namespaces[0]!, '-o', 'yaml'], {KUBECONFIG: hubKubeconfig})
    assert.equal(yaml.code, 0, yaml.stderr)
    assert.match(yaml.stdout, /^apiVersion: v1\nitems:\n- apiVersion: multicluster.x-k8s.io\/v1alpha1\n/)
    const names = await cpcred(['list', '-n', namespaces[1]!, '-o', 'name'], {KUBECONFIG: hubKubeconfig})
    assert.equal(
      names.stdout,
      'clusterprofile.multicluster.x-k8s.io/beta\nclusterprofile.multicluster.x-k8s.io/gamma\n',
    )
  })
})

describe('cpcred list filters and provider marking', () => {
  let hubKubeconfig: string
  let prodNamespace: string
  let devNamespace: string
  let providerFile: string
  let setName: string

  before(async () => {
    const {env, hub} = await testEnv()
    hubKubeconfig = env.hub.kubeconfig
    setName = uniqueName('set')
    prodNamespace = await createNamespace(hub, 'filters-prod', {'multicluster.x-k8s.io/clusterset': setName})
    devNamespace = await createNamespace(hub, 'filters-dev')
    const server = env.spoke.server
    const make = (namespace: string, name: string, manager: string, providers: string[]) =>
      applyProfile(hub, {
        metadata: {name, namespace, labels: {tier: name.startsWith('web') ? 'web' : 'db'}},
        spec: {displayName: `Display ${name}`, clusterManager: {name: manager}},
        status: {accessProviders: providers.map((p) => ({name: p, cluster: {server: `${server}/${p}`}}))},
      })
    await make(prodNamespace, 'web-1', 'ocm', ['token-request', 'secretreader'])
    await make(prodNamespace, 'db-1', 'fleet', ['unknown-plugin'])
    await make(devNamespace, 'web-2', 'ocm', ['secretreader'])
    providerFile = await writeProviderFile(await tempDir(), [
      {
        name: 'secretreader',
        execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/true'},
      },
      {
        name: 'token-request',
        execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/true'},
      },
    ])
  })

  it('marks the provider the provider file would use and shows its server with -o wide', async () => {
    const result = await cpcred(
      ['list', '-n', prodNamespace, '-o', 'wide', '--provider-file', providerFile],
      {KUBECONFIG: hubKubeconfig},
    )
    assert.equal(result.code, 0, result.stderr)
    const lines = result.stdout.trimEnd().split('\n')
    assert.match(
      lines[0]!,
      /^NAME\s+MANAGER\s+HEALTHY\s+VERSION\s+PROVIDERS\s+AGE\s+DISPLAY NAME\s+CLUSTERSET\s+MEMBER\s+SERVER\s+API$/,
    )
    const {env} = await testEnv()
    assert.match(
      lines[1]!,
      new RegExp(
        `^db-1\\s+fleet\\s+<none>\\s+<none>\\s+unknown-plugin\\s+\\S+\\s+Display db-1\\s+${setName}\\s+<none>\\s+<none>\\s+v1alpha1$`,
      ),
    )
    assert.match(
      lines[2]!,
      new RegExp(
        `^web-1\\s+ocm\\s+<none>\\s+<none>\\s+token-request,secretreader\\*\\s+\\S+\\s+Display web-1\\s+${setName}\\s+<none>\\s+${env.spoke.server}/secretreader\\s+v1alpha1$`,
      ),
    )
  })

  it('--usable keeps only what the provider file can reach; --access-provider adds to it', async () => {
    const usable = await cpcred(
      ['list', '-A', '-l', 'tier', '--usable', '-o', 'name', '--provider-file', providerFile],
      {KUBECONFIG: hubKubeconfig},
    )
    assert.equal(usable.code, 0, usable.stderr)
    const names = usable.stdout.trim().split('\n')
    assert.ok(names.includes('clusterprofile.multicluster.x-k8s.io/web-1'))
    assert.ok(names.includes('clusterprofile.multicluster.x-k8s.io/web-2'))
    assert.ok(!names.includes('clusterprofile.multicluster.x-k8s.io/db-1'))

    const withFlag = await cpcred(
      [
        'list',
        '-n',
        prodNamespace,
        '--usable',
        '-o',
        'name',
        '--provider-file',
        providerFile,
        '--access-provider',
        "unknown-plugin='/bin/echo hi'",
      ],
      {KUBECONFIG: hubKubeconfig},
    )
    assert.equal(
      withFlag.stdout,
      'clusterprofile.multicluster.x-k8s.io/db-1\nclusterprofile.multicluster.x-k8s.io/web-1\n',
    )
  })

  it('filters by selector, cluster manager and clusterset', async () => {
    const run = async (...args: string[]) =>
      (await cpcred(['list', '-A', '-o', 'name', ...args], {KUBECONFIG: hubKubeconfig})).stdout
    assert.equal(
      await run('--clusterset', setName, '--cluster-manager', 'ocm'),
      'clusterprofile.multicluster.x-k8s.io/web-1\n',
    )
    assert.equal(
      await run('--clusterset', setName, '-l', 'tier=db'),
      'clusterprofile.multicluster.x-k8s.io/db-1\n',
    )
    const none = await cpcred(['list', '-A', '--clusterset', 'no-such-set'], {KUBECONFIG: hubKubeconfig})
    assert.equal(none.code, 0)
    assert.equal(none.stderr, 'No ClusterProfiles found in any namespace.\n')
  })

  it('reads the same profiles one per page as in one page', async () => {
    const args = ['list', '-A', '-l', 'tier', '-o', 'json']
    const paged = await cpcred([...args, '--chunk-size', '1'], {KUBECONFIG: hubKubeconfig})
    const whole = await cpcred(args, {KUBECONFIG: hubKubeconfig})
    assert.equal(paged.code, 0, paged.stderr)
    const items = JSON.parse(paged.stdout).items as ClusterProfile[]
    assert.ok(items.length >= 3)
    assert.deepEqual(items, JSON.parse(whole.stdout).items)
  })
})

describe('cpcred list errors', () => {
  it('says the hub does not serve ClusterProfiles when the CRD is missing (exit 3)', async () => {
    const {env} = await testEnv()
    // The spoke has no ClusterProfile CRD.
    const result = await cpcred(['list'], {KUBECONFIG: env.spoke.kubeconfig})
    assert.equal(result.code, 3)
    assert.match(
      result.stderr,
      /^error: the hub \(context "spoke" from kubectl's current context, https:\/\/127\.0\.0\.1:\d+\) does not serve multicluster\.x-k8s\.io v1alpha1 or v1alpha2 clusterprofiles\n/,
    )
    assert.match(result.stderr, /install the ClusterProfile CRD/)
    assert.doesNotMatch(result.stderr, /\n\s+at /)
  })

  it('says the hub cannot be reached (exit 3)', async () => {
    const {env} = await testEnv()
    const dir = await tempDir()
    const kubeconfig = await tokenKubeconfig(dir, 'gone', 'https://127.0.0.1:1', env.hub.caData, 'irrelevant')
    const result = await cpcred(['list'], {KUBECONFIG: kubeconfig})
    assert.equal(result.code, 3)
    assert.match(
      result.stderr,
      /^error: cannot reach the hub \(context "gone" from kubectl's current context, https:\/\/127\.0\.0\.1:1\): connection refused\n/,
    )
    assert.doesNotMatch(result.stderr, /irrelevant/)
  })

  it('says the list is forbidden for a user without RBAC (exit 4)', async () => {
    const {env, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'forbidden')
    await createServiceAccount(hub, namespace, 'nobody')
    const token = await serviceAccountToken(hub, namespace, 'nobody')
    const kubeconfig = await tokenKubeconfig(
      await tempDir(),
      'nobody',
      env.hub.server,
      env.hub.caData,
      token,
      namespace,
    )
    const result = await cpcred(['list'], {KUBECONFIG: kubeconfig})
    assert.equal(result.code, 4)
    assert.match(
      result.stderr,
      /^error: cannot list clusterprofiles\.multicluster\.x-k8s\.io in namespace "forbidden-[0-9a-f]+" on the hub \(context "nobody" from kubectl's current context, [^)]+\): User "system:serviceaccount:forbidden-[0-9a-f]+:nobody" cannot list resource "clusterprofiles" in API group "multicluster.x-k8s.io" in the namespace "forbidden-[0-9a-f]+"\n/,
    )
    assert.ok(!result.stderr.includes(token), 'the token must not appear in the error')
  })

  it('shows -o wide to a consumer who may read profiles but not namespaces; --clusterset says what is missing', async () => {
    const {env, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'profiles-only')
    await createServiceAccount(hub, namespace, 'reader')
    await kubeCall(hub, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {name: 'profiles-reader'},
      rules: [{apiGroups: ['multicluster.x-k8s.io'], resources: ['clusterprofiles'], verbs: ['get', 'list']}],
    })
    await kubeCall(hub, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {name: 'profiles-reader'},
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'profiles-reader'},
      subjects: [{kind: 'ServiceAccount', name: 'reader', namespace}],
    })
    await applyProfile(hub, {metadata: {name: 'p', namespace}, spec: {clusterManager: {name: 'm'}}})
    const token = await serviceAccountToken(hub, namespace, 'reader')
    const kubeconfig = await tokenKubeconfig(
      await tempDir(),
      'reader',
      env.hub.server,
      env.hub.caData,
      token,
      namespace,
    )
    const wide = await cpcred(['list', '-o', 'wide'], {KUBECONFIG: kubeconfig})
    assert.equal(wide.code, 0, wide.stderr)
    assert.match(wide.stdout.split('\n')[1]!, /^p\s+m\s+.*<none>\s+<none>\s+<none>\s+<none>\s+v1alpha1$/)
    const filtered = await cpcred(['list', '--clusterset', 'prod'], {KUBECONFIG: kubeconfig})
    assert.equal(filtered.code, 4)
    assert.match(
      filtered.stderr,
      /^error: cannot list namespaces on the hub .*\nolder hubs record clustersets as namespace labels, which --clusterset reads beside the clusterset\.k8s\.io property; ask the hub administrator for list on namespaces, or drop --clusterset\n$/,
    )
  })

  it('rejects an unknown output format as a usage error (exit 2)', async () => {
    const {env} = await testEnv()
    const result = await cpcred(['list', '-o', 'xml'], {KUBECONFIG: env.hub.kubeconfig})
    assert.equal(result.code, 2)
    assert.match(result.stderr, /^error: .*xml/)
  })

  it('explains a missing kubeconfig and a missing context', async () => {
    const home = await tempDir()
    const none = await cpcred(['list'], {HOME: home})
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^error: no kubeconfig found for the hub/)
    const {env} = await testEnv()
    const wrong = await cpcred(['list', '--context', 'nope'], {KUBECONFIG: env.hub.kubeconfig})
    assert.equal(wrong.code, 2)
    assert.match(
      wrong.stderr,
      /^error: context "nope" \(from --context\) not found in .*\nknown contexts: hub\n$/,
    )
  })
})

describe('the spoke trusts hub-issued tokens', () => {
  it('accepts a hub ServiceAccount token for the spoke audience and rejects another audience', async () => {
    const {env, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'trust')
    await createServiceAccount(hub, namespace, 'deployer')
    const dir = await tempDir()
    const good = await serviceAccountToken(hub, namespace, 'deployer', [env.spoke.server], 600)
    const goodConfig = await tokenKubeconfig(dir, 'good', env.spoke.server, env.spoke.caData, good)
    const whoami = await runProgram('kubectl', ['--kubeconfig', goodConfig, 'auth', 'whoami', '-o', 'json'])
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(
      JSON.parse(whoami.stdout).status.userInfo.username,
      `hub:system:serviceaccount:${namespace}:deployer`,
    )

    const other = await serviceAccountToken(
      hub,
      namespace,
      'deployer',
      ['https://some-other-cluster.example'],
      600,
    )
    const otherConfig = await tokenKubeconfig(dir, 'other', env.spoke.server, env.spoke.caData, other)
    const rejected = await runProgram('kubectl', ['--kubeconfig', otherConfig, 'auth', 'whoami'])
    assert.notEqual(rejected.code, 0)
    assert.match(rejected.stderr, /Unauthorized|must be logged in/)
    // The spoke's admin can still read it, so the rejection is about the token.
    await kubeCall((await testEnv()).spoke, 'GET', '/api/v1/namespaces/default')
  })
})
