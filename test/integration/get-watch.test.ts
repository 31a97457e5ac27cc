// cpcred get --watch against the real spoke as two profiles (two targets whose rows say which): the
// first table, then a row per change on every target, as kubectl get -w prints them; the watch
// outlives the target's apiserver restarting; Ctrl-C ends it with 0, a reader gone ends it quietly.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {readFile, writeFile} from 'node:fs/promises'
import YAML from 'yaml'
import {cpcredBin, createNamespace, isolatedEnv, serviceAccountToken, tempDir} from '../helpers/env.js'
import {
  anotherSpokeProfile,
  pluginRecords,
  spokeFixture,
  type Clusters,
  type SpokeFixture,
} from '../helpers/fixtures.js'
import {eventually, follow} from '../helpers/following.js'
import {grantClusterRole, kubeCall} from '../testenv/http.js'
import {adminConnection, down, restartApiserver, up} from '../testenv/testenv.js'

/** The lines of a table, each split into its cells (tabwriter pads with at least 3 spaces). */
function rowsOf(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trimEnd().split(/ {3,}/))
}

/**
 * The spoke of `clusters` as two profiles, the plugin's identity allowed to read and watch pods, and
 * a namespace with one pod; how the tests watch it and change it.
 */
async function watchedSpoke(clusters?: Clusters, pluginEnv?: Record<string, string>) {
  const fixture = await spokeFixture({prefix: 'get-watch', clusters, pluginEnv})
  const cacheHome = await tempDir('cpcred-cache-')
  const {spoke} = fixture.clusters
  await anotherSpokeProfile(fixture, 'target-b')
  const targets = [`${fixture.namespace}/target`, `${fixture.namespace}/target-b`]
  await grantClusterRole(spoke, `${fixture.namespace}-reader`, fixture.username, [
    {apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch']},
  ])
  const namespace = await createNamespace(spoke, 'get-watch')
  const createPod = (name: string) =>
    kubeCall(spoke, 'POST', `/api/v1/namespaces/${namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name},
      spec: {containers: [{name: 'c', image: 'registry.invalid/none'}]},
    })
  await createPod('web-0')
  const env = {KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome}
  return {
    fixture,
    targets,
    namespace,
    env,
    createPod,
    deletePod: (name: string) => kubeCall(spoke, 'DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`),
    watch: (words: string[]) =>
      follow(['get', '--provider-file', fixture.providerFile, ...targets, '--', ...words], env),
  }
}

/** The rows (after the header) of pod `name`, by the CLUSTER they name. */
const rowsFor = (stdout: string, name: string) =>
  rowsOf(stdout)
    .filter((row) => row[1] === name)
    .map((row) => row[0])

describe('cpcred get --watch', () => {
  let fixture: SpokeFixture
  let namespace: string
  let targets: string[]
  let env: Record<string, string>
  let watch: (words: string[]) => ReturnType<typeof follow>
  let createPod: (name: string) => Promise<unknown>
  let deletePod: (name: string) => Promise<unknown>

  before(async () => {
    ;({fixture, namespace, targets, env, watch, createPod, deletePod} = await watchedSpoke())
  })

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
      {env: {...isolatedEnv, ...env}, stdio: ['ignore', 'pipe', 'pipe']},
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
})

// Its own hub and spoke: restarting the run's shared spoke would fail the tests that other files
// run on it meanwhile.
describe('cpcred get --watch, when a target restarts', () => {
  let dir: string
  let clusters: Clusters
  let spoke: Awaited<ReturnType<typeof watchedSpoke>>

  before(async () => {
    dir = await tempDir('cpcred-get-watch-env-')
    const env = await up(path.join(dir, 'env'))
    clusters = {env, hub: await adminConnection(env.hub), spoke: await adminConnection(env.spoke)}
    // Credentials that say they expire at once: every credential cpcred wants is the plugin's.
    spoke = await watchedSpoke(clusters, {PLUGIN_TTL_SECONDS: '1'})
  })
  after(() => down(path.join(dir, 'env')))

  it("outlives a target's apiserver restart: the watch goes on, and says it is retrying", async () => {
    const {namespace, targets, watch, createPod} = spoke
    const run = watch(['pods', '-n', namespace, '-w'])
    try {
      await eventually('the first table', async () =>
        rowsFor(run.stdout(), 'web-0').length === 2 ? true : undefined,
      )
      await restartApiserver(clusters.env, 'spoke')
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

  it('takes a new credential when the target refuses the one the watch began with', async () => {
    const {namespace, targets, watch, createPod, fixture} = spoke
    const run = watch(['pods', '-n', namespace, '-w'])
    let code: number | null
    try {
      await eventually(
        'the first table',
        async () => (rowsFor(run.stdout(), 'web-0').length === 2 ? true : undefined),
        60_000,
      ).catch((error: Error) => assert.fail(`${error.message}; stderr: ${run.stderr()}`))
      const issued = (await pluginRecords(fixture)).length
      // The spoke now refuses tokens issued before this second; the plugin hands out a newer one.
      const rotatedAt = Math.floor(Date.now() / 1000)
      const config = path.join(clusters.env.dir, 'spoke-authentication-config.yaml')
      const authentication = YAML.parse(await readFile(config, 'utf8'))
      authentication.jwt[0].claimValidationRules = [
        {expression: `claims.iat > ${rotatedAt}`, message: 'issued before the rotation'},
      ]
      await writeFile(config, YAML.stringify(authentication))
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const token = await serviceAccountToken(
        clusters.hub,
        fixture.namespace,
        'deployer',
        [clusters.env.spoke.server],
        3600,
      )
      await writeFile(fixture.tokenFile, token, {mode: 0o600})
      // A restart ends the watches, which come back with the old token: 401.
      await restartApiserver(clusters.env, 'spoke')
      await createPod('web-after-rotation')
      await eventually(
        'the pod created after the rotation on both targets',
        async () => (rowsFor(run.stdout(), 'web-after-rotation').length >= 2 ? true : undefined),
        60_000,
      )
      assert.ok((await pluginRecords(fixture)).length > issued, 'the plugin ran again')
    } finally {
      code = await run.stop()
    }
    assert.equal(code, 0, run.stderr())
    assert.deepEqual([...new Set(rowsFor(run.stdout(), 'web-after-rotation'))].sort(), [...targets].sort())
  })
})
