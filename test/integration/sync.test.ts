// `cpcred sync` and the watch commands against the real hub, with the kubeconfig read back by the
// real kubectl. The --watch tests run on a hub of their own, which they restart.
import assert from 'node:assert/strict'
import {lstat, mkdir, readFile, readlink, stat, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import YAML from 'yaml'
import {kubeCall, type Connection} from '../testenv/http.js'
import {adminConnection, down, restartApiserver, up, type TestEnv} from '../testenv/testenv.js'
import {
  applyProfile,
  cpcred,
  isolatedEnv,
  runProgram,
  tempDir,
  testEnv,
  writeProviderFile,
} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {shellScript} from '../helpers/processes.js'
import {eventually, follow} from '../helpers/following.js'

const PROFILES = '/apis/multicluster.x-k8s.io/v1alpha1/namespaces'

interface Kubeconfig {
  clusters: {name: string; cluster: {server: string}}[]
  contexts: {name: string; context: {cluster: string; user: string}}[]
  users: {name: string}[]
  'current-context'?: string
}

const contextNames = (config: Kubeconfig) => config.contexts.map((context) => context.name).sort()

describe('cpcred sync', () => {
  let fixture: SpokeFixture
  let file: string
  const run = (...args: string[]) =>
    cpcred(
      [
        'sync',
        '-n',
        fixture.namespace,
        '--all',
        '--provider-file',
        fixture.providerFile,
        '--output-file',
        file,
        ...args,
      ],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
  const read = async () => YAML.parse(await readFile(file, 'utf8')) as Kubeconfig

  before(async () => {
    fixture = await spokeFixture({prefix: 'sync', profileName: 'one'})
    const {hub} = await testEnv()
    await applyProfile(hub, {
      ...structuredClone(fixture.profile),
      metadata: {name: 'two', namespace: fixture.namespace},
    })
    file = path.join(await tempDir('cpcred-sync-'), 'config')
    // The user's own context, named like a profile that comes later.
    await writeFile(
      file,
      YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{name: `${fixture.namespace}/three`, cluster: {server: 'https://mine.example'}}],
        contexts: [
          {name: `${fixture.namespace}/three`, context: {cluster: `${fixture.namespace}/three`, user: 'me'}},
        ],
        users: [{name: 'me', user: {token: 'my-own-token'}}],
        'current-context': `${fixture.namespace}/three`,
      }),
      {mode: 0o600},
    )
  })

  it('--dry-run prints the plan and changes nothing', async () => {
    const before = await readFile(file, 'utf8')
    const result = await run('--dry-run')
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.stdout, `+ add ${fixture.namespace}/one\n+ add ${fixture.namespace}/two\n`)
    assert.match(result.stderr, /dry run, .* not changed: 2 added, 0 updated, 0 pruned, 0 skipped/)
    assert.equal(await readFile(file, 'utf8'), before)
  })

  it('adds both profiles, leaves the user’s entries and current context, and kubectl uses them', async () => {
    const result = await run()
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /Wrote .*: 2 added, 0 updated, 0 pruned, 0 skipped/)
    const config = await read()
    assert.deepEqual(contextNames(config), [
      `${fixture.namespace}/one`,
      `${fixture.namespace}/three`,
      `${fixture.namespace}/two`,
    ])
    assert.equal(config['current-context'], `${fixture.namespace}/three`)
    const whoami = await runProgram(
      'kubectl',
      ['--kubeconfig', file, '--context', `${fixture.namespace}/two`, 'auth', 'whoami', '-o', 'json'],
      {env: isolatedEnv},
    )
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
  })

  it('does not rewrite the file when nothing changed', async () => {
    const before = await stat(file)
    const result = await run()
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /is in step with the inventory/)
    const after = await stat(file)
    assert.equal(after.ino, before.ino, 'not replaced')
    assert.equal(after.mtimeMs, before.mtimeMs)
  })

  it('prunes a deleted profile, updates a changed one, and skips a name the user owns', async () => {
    const {hub} = await testEnv()
    await kubeCall(hub, 'DELETE', `${PROFILES}/${fixture.namespace}/clusterprofiles/one`)
    const two = await kubeCall<{status: {accessProviders: {cluster: {server: string}}[]}}>(
      hub,
      'GET',
      `${PROFILES}/${fixture.namespace}/clusterprofiles/two`,
    )
    two.status.accessProviders[0]!.cluster.server = 'https://127.0.0.1:9'
    await kubeCall(hub, 'PUT', `${PROFILES}/${fixture.namespace}/clusterprofiles/two/status`, two)
    await applyProfile(hub, {
      ...structuredClone(fixture.profile),
      metadata: {name: 'three', namespace: fixture.namespace},
    })

    const result = await run('-o', 'json')
    assert.equal(result.code, 0, result.stderr)
    const outcome = JSON.parse(result.stdout)
    assert.equal(outcome.wrote, true)
    assert.deepEqual(
      outcome.changes.map((change: {action: string; profile: string; detail?: string}) => [
        change.action,
        change.profile,
        change.detail,
      ]),
      [
        ['update', `${fixture.namespace}/two`, 'server'],
        ['prune', `${fixture.namespace}/one`, 'it is gone from the hub or no longer selected'],
        [
          'skip',
          `${fixture.namespace}/three`,
          `the kubeconfig already has a cluster, context "${fixture.namespace}/three" that cpcred sync did not write for this profile; rename it or use --context-name`,
        ],
      ],
    )
    const config = await read()
    assert.deepEqual(contextNames(config), [`${fixture.namespace}/three`, `${fixture.namespace}/two`])
    assert.equal(
      config.clusters.find((cluster) => cluster.name === `${fixture.namespace}/two`)!.cluster.server,
      'https://127.0.0.1:9',
    )
    assert.equal(
      config.clusters.find((cluster) => cluster.name === `${fixture.namespace}/three`)!.cluster.server,
      'https://mine.example',
    )
    assert.ok(config.users.some((user) => user.name === 'me'))
  })

  it('writes through a symlinked kubeconfig, and never loses entries to a concurrent --merge', async () => {
    const dir = await tempDir('cpcred-sync-link-')
    const real = path.join(dir, 'dotfiles', 'config')
    await mkdir(path.dirname(real))
    const link = path.join(dir, 'config')
    await symlink(real, link)
    const merges = Array.from({length: 8}, (_, index) =>
      cpcred(
        [
          'kubeconfig',
          `${fixture.namespace}/two`,
          '--provider-file',
          fixture.providerFile,
          '--merge',
          '--output-file',
          link,
          '--context-name',
          `merged-${index}`,
        ],
        {KUBECONFIG: fixture.hubKubeconfig},
      ),
    )
    const sync = cpcred(
      [
        'sync',
        '-n',
        fixture.namespace,
        '--all',
        '--provider-file',
        fixture.providerFile,
        '--output-file',
        link,
      ],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    for (const result of await Promise.all([...merges, sync])) assert.equal(result.code, 0, result.stderr)
    assert.ok((await lstat(link)).isSymbolicLink())
    assert.equal(await readlink(link), real)
    const config = YAML.parse(await readFile(real, 'utf8')) as Kubeconfig
    // Every writer's entries are there: sync's, and the merges' (which sync never prunes).
    assert.deepEqual(contextNames(config), [
      ...Array.from({length: 8}, (_, index) => `merged-${index}`),
      `${fixture.namespace}/three`,
      `${fixture.namespace}/two`,
    ])
  })

  it('needs a selection, and says so (exit 2)', async () => {
    const result = await cpcred(['sync', '--provider-file', fixture.providerFile, '--output-file', file], {
      KUBECONFIG: fixture.hubKubeconfig,
    })
    assert.equal(result.code, 2)
    assert.match(
      result.stderr,
      /^error: say which profiles to keep in step\nuse --all .*, -l SELECTOR or --placement NAME/,
    )
  })
})

describe('cpcred sync --watch and list --watch, on a hub that restarts', () => {
  let env: TestEnv
  let hub: Connection
  let dir: string
  let providerFile: string
  const namespace = 'watched'

  const profileBody = (name: string) => ({
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, namespace},
    spec: {clusterManager: {name: 'test-manager'}},
  })
  async function createProfile(name: string, server: string) {
    const created = await kubeCall<Record<string, unknown>>(
      hub,
      'POST',
      `${PROFILES}/${namespace}/clusterprofiles`,
      profileBody(name),
    )
    await kubeCall(hub, 'PUT', `${PROFILES}/${namespace}/clusterprofiles/${name}/status`, {
      ...created,
      status: {accessProviders: [{name: 'static', cluster: {server}}]},
    })
  }

  before(async () => {
    dir = await tempDir('cpcred-watch-')
    env = await up(path.join(dir, 'env'))
    hub = await adminConnection(env.hub)
    await kubeCall(hub, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {name: namespace},
    })
    const plugin = await shellScript(
      dir,
      'static-plugin',
      `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'`,
    )
    providerFile = await writeProviderFile(dir, [
      {name: 'static', execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: plugin}},
    ])
    await createProfile('first', 'https://127.0.0.1:1')
  })
  after(() => down(path.join(dir, 'env')))

  it('applies additions and deletions within seconds, and carries on after the hub restarts', async () => {
    const file = path.join(dir, 'watched-config')
    const watcher = follow(
      ['sync', '-n', namespace, '--all', '--watch', '--provider-file', providerFile, '--output-file', file],
      {
        KUBECONFIG: env.hub.kubeconfig,
      },
    )
    const contexts = async () => contextNames(YAML.parse(await readFile(file, 'utf8')) as Kubeconfig)
    const has = (expected: string[]) => async () => {
      const names = await contexts()
      return JSON.stringify(names) === JSON.stringify(expected) ? names : undefined
    }
    try {
      await eventually('the first pass', has([`${namespace}/first`]))
      await createProfile('second', 'https://127.0.0.1:2')
      const added = Date.now()
      await eventually('the new profile', has([`${namespace}/first`, `${namespace}/second`]), 5000)
      const addedIn = Date.now() - added
      await kubeCall(hub, 'DELETE', `${PROFILES}/${namespace}/clusterprofiles/first`)
      await eventually('the deletion', has([`${namespace}/second`]), 5000)

      // A change that does not touch the entries (a label) rewrites nothing.
      const before = await stat(file)
      const second = await kubeCall<{metadata: {labels?: Record<string, string>}}>(
        hub,
        'GET',
        `${PROFILES}/${namespace}/clusterprofiles/second`,
      )
      second.metadata.labels = {touched: 'yes'}
      await kubeCall(hub, 'PUT', `${PROFILES}/${namespace}/clusterprofiles/second`, second)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      assert.equal((await stat(file)).ino, before.ino, 'a change that alters no entry leaves the file alone')

      await restartApiserver(env, 'hub')
      await createProfile('third', 'https://127.0.0.1:3')
      await eventually(
        'a profile created after the restart',
        has([`${namespace}/second`, `${namespace}/third`]),
        30_000,
      )

      // The user edits the watched file with kubectl (in place, in the same second as a write may
      // be): the next pass starts from their file, not from what the watch wrote before.
      const edit = await runProgram(
        'kubectl',
        ['--kubeconfig', file, 'config', 'set-context', 'mine', '--cluster', `${namespace}/third`],
        {env: isolatedEnv},
      )
      assert.equal(edit.code, 0, edit.stderr)
      await createProfile('edited', 'https://127.0.0.1:5')
      await eventually(
        'a profile created after the user edited the file',
        has(['mine', `${namespace}/edited`, `${namespace}/second`, `${namespace}/third`]),
        5000,
      )
      assert.ok(addedIn < 2000, `an addition took ${addedIn} ms to reach the file`)
      assert.match(watcher.stderr(), new RegExp(`\\+ add ${namespace}/second`))
      assert.match(watcher.stderr(), new RegExp(`- prune ${namespace}/first`))
      assert.match(watcher.stderr(), /retrying in/)
    } finally {
      assert.equal(await watcher.stop(), 0, watcher.stderr())
    }
  })

  it('list --watch prints the header once, then a row per change; -o json an object per line', async () => {
    const table = follow(['list', '-n', namespace, '--watch'], {KUBECONFIG: env.hub.kubeconfig})
    const json = follow(['list', '-n', namespace, '--watch', '-o', 'json'], {KUBECONFIG: env.hub.kubeconfig})
    try {
      await eventually('the listing', async () =>
        table.stdout().includes('second') && json.stdout().includes('second') ? true : undefined,
      )
      await createProfile('fourth', 'https://127.0.0.1:4')
      await eventually(
        'the new row',
        async () =>
          table.stdout().includes('fourth') && json.stdout().includes('fourth') ? true : undefined,
        5000,
      )
    } finally {
      assert.equal(await table.stop(), 0, table.stderr())
      assert.equal(await json.stop(), 0, json.stderr())
    }
    const lines = table.stdout().trimEnd().split('\n')
    assert.equal(lines.filter((line) => line.startsWith('NAME')).length, 1, 'one header')
    assert.match(lines.at(-1)!, /^fourth\s+test-manager\s/)
    for (const line of json.stdout().trimEnd().split('\n'))
      assert.equal(JSON.parse(line).kind, 'ClusterProfile')
  })
})
