// cpcred get --watch against the real spoke as two profiles (two targets whose rows say which): the
// first table, then a row per change on every target, as kubectl get -w prints them; the watch
// outlives the target's apiserver restarting; Ctrl-C ends it with 0, a reader gone ends it quietly.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {before, describe, it} from 'node:test'
import {cpcredBin, createNamespace, isolatedEnv, tempDir, testEnv} from '../helpers/env.js'
import {anotherSpokeProfile, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {eventually, follow} from '../helpers/following.js'
import {kubeCall, type Connection} from '../testenv/http.js'
import {restartApiserver} from '../testenv/testenv.js'

/** The lines of a table, each split into its cells (tabwriter pads with at least 3 spaces). */
function rowsOf(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trimEnd().split(/ {3,}/))
}

describe('cpcred get --watch', () => {
  let fixture: SpokeFixture
  let cacheHome: string
  let spoke: Connection
  let namespace: string
  let targets: string[]

  before(async () => {
    fixture = await spokeFixture({prefix: 'get-watch'})
    cacheHome = await tempDir('cpcred-cache-')
    spoke = (await testEnv()).spoke
    await anotherSpokeProfile(fixture, 'target-b')
    targets = [`${fixture.namespace}/target`, `${fixture.namespace}/target-b`]
    // What the plugin's identity may do on the spoke: read and watch pods.
    const reader = `${fixture.namespace}-reader`
    await kubeCall(spoke, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {name: reader},
      rules: [{apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch']}],
    })
    await kubeCall(spoke, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: {name: reader},
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: reader},
      subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: fixture.username}],
    })
    namespace = await createNamespace(spoke, 'get-watch')
    await createPod('web-0')
  })

  const env = () => ({KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome})
  const watch = (words: string[]) =>
    follow(['get', '--provider-file', fixture.providerFile, ...targets, '--', ...words], env())
  const createPod = (name: string) =>
    kubeCall(spoke, 'POST', `/api/v1/namespaces/${namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name},
      spec: {containers: [{name: 'c', image: 'registry.invalid/none'}]},
    })
  const deletePod = (name: string) =>
    kubeCall(spoke, 'DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`)
  /** The rows (after the header) of pod `name`, by the CLUSTER they name. */
  const rowsFor = (stdout: string, name: string) =>
    rowsOf(stdout)
      .filter((row) => row[1] === name)
      .map((row) => row[0])

  it('prints the first table, then a row per added and deleted pod on each target; Ctrl-C ends it with 0', async () => {
    const run = watch(['pods', '-n', namespace, '--watch'])
    try {
      await eventually('the first table', async () =>
        rowsFor(run.stdout(), 'web-0').length === 2 ? true : undefined,
      )
      await createPod('web-added')
      await eventually('the added pod on both targets', async () =>
        rowsFor(run.stdout(), 'web-added').length >= 2 ? true : undefined,
      )
      const added = rowsFor(run.stdout(), 'web-added').length
      await deletePod('web-added')
      // kubectl get -w prints a deleted object's last row again.
      await eventually('the deleted pod on both targets', async () =>
        rowsFor(run.stdout(), 'web-added').length >= added + 2 ? true : undefined,
      )
    } finally {
      const code = await run.stop()
      const rows = rowsOf(run.stdout())
      assert.equal(code, 0, run.stderr())
      // The credential plugin's own line aside, nothing on stderr: no warning, no error.
      assert.doesNotMatch(run.stderr(), /warning|error/)
      // One header, kubectl's columns after CLUSTER; every row names its target.
      assert.deepEqual(rows[0], ['CLUSTER', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'])
      assert.equal(rows.filter((row) => row[0] === 'CLUSTER').length, 1)
      for (const row of rows.slice(1)) assert.ok(targets.includes(row[0]!), row.join(' '))
      for (const target of targets)
        assert.ok(
          rows.filter((row) => row[0] === target && row[1] === 'web-added').length >= 2,
          `${target}: the pod added and deleted`,
        )
    }
  })

  it('-o name: a line per change, NAMESPACE/NAME of the target then pod/NAME', async () => {
    const run = watch(['pods', '-n', namespace, '-w', '-o', 'name'])
    try {
      await eventually('the first names', async () =>
        run
          .stdout()
          .split('\n')
          .filter((line) => line.endsWith(' pod/web-0')).length === 2
          ? true
          : undefined,
      )
      await createPod('web-named')
      await eventually('the added pod on both targets', async () =>
        targets.every((target) => run.stdout().includes(`${target} pod/web-named\n`)) ? true : undefined,
      )
    } finally {
      assert.equal(await run.stop(), 0, run.stderr())
      await deletePod('web-named')
    }
  })

  it('a reader of stdout that has gone ends it quietly', async () => {
    const child = spawn(
      process.execPath,
      [
        cpcredBin,
        'get',
        '--provider-file',
        fixture.providerFile,
        ...targets,
        '--',
        'pods',
        '-n',
        namespace,
        '-w',
      ],
      {env: {...isolatedEnv, ...env()}, stdio: ['ignore', 'pipe', 'pipe']},
    )
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk
        if (rowsFor(stdout, 'web-0').length === 2) resolve()
      })
    })
    // As `| head -3`: the reader reads the first table and goes.
    child.stdout.destroy()
    await createPod('web-unread')
    try {
      assert.equal(await exited, 141)
      assert.doesNotMatch(stderr, /warning|error/)
    } finally {
      await deletePod('web-unread')
    }
  })

  it("outlives a target's apiserver restart: the watch goes on, and says it is retrying", async () => {
    const run = watch(['pods', '-n', namespace, '-w'])
    try {
      await eventually('the first table', async () =>
        rowsFor(run.stdout(), 'web-0').length === 2 ? true : undefined,
      )
      await restartApiserver((await testEnv()).env, 'spoke')
      await createPod('web-after-restart')
      await eventually(
        'the pod created after the restart on both targets',
        async () => (rowsFor(run.stdout(), 'web-after-restart').length >= 2 ? true : undefined),
        60_000,
      )
    } finally {
      const code = await run.stop()
      assert.equal(code, 0, run.stderr())
      assert.match(run.stderr(), /get-watch-[^/\s]*\/target(-b)?: .*; retrying in \d/)
    }
    assert.deepEqual([...new Set(rowsFor(run.stdout(), 'web-after-restart'))].sort(), [...targets].sort())
  })
})
