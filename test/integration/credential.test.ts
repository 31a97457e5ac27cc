import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {readdir, readFile, stat, utimes, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {cpcred, isolatedEnv, tempDir, testEnv, writeProviderFile} from '../helpers/env.js'
import {fakePlugin, pluginRecords, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {bundleProbe} from '../helpers/processes.js'

/** A provider file whose only provider, "fake", runs the fake plugin with this extra execConfig. */
async function fakeProviderFile(
  execConfig: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<string> {
  return writeProviderFile(await tempDir(), [
    {
      name: 'fake',
      execConfig: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: fakePlugin,
        env: Object.entries(env).map(([name, value]) => ({name, value})),
        ...execConfig,
      },
    },
  ])
}

describe('cpcred credential', () => {
  let fixture: SpokeFixture
  let cacheHome: string

  before(async () => {
    fixture = await spokeFixture({
      prefix: 'credential',
      extensions: [
        {name: 'client.authentication.k8s.io/exec', extension: {audience: 'spoke', clusterName: 'target'}},
      ],
    })
    cacheHome = await tempDir('cpcred-cache-')
  })

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cpcred(['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, ...args], {
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: cacheHome,
      ...env,
    })

  it('prints only the ExecCredential on stdout, in the apiVersion kubectl asked for', async () => {
    const result = await run(['--no-cache'], {
      KUBERNETES_EXEC_INFO: JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        kind: 'ExecCredential',
        spec: {interactive: false},
      }),
    })
    assert.equal(result.code, 0, result.stderr)
    const credential = JSON.parse(result.stdout)
    assert.equal(credential.kind, 'ExecCredential')
    assert.equal(credential.apiVersion, 'client.authentication.k8s.io/v1beta1')
    assert.match(credential.status.expirationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    assert.ok(credential.status.token.length > 100)
    // The plugin's stderr belongs to the user and reaches stderr, never stdout.
    assert.match(result.stderr, /fake-plugin: issued a token/)
  })

  it('hands the plugin the exec info kubectl would: cluster, CA and the exec extension as config', async () => {
    const records = await pluginRecords(fixture)
    const info = records.at(-1)!.info!
    const {env} = await testEnv()
    assert.equal(info.apiVersion, 'client.authentication.k8s.io/v1')
    assert.deepEqual(info.spec, {
      cluster: {
        server: env.spoke.server,
        'certificate-authority-data': env.spoke.caData,
        config: {audience: 'spoke', clusterName: 'target'},
      },
      interactive: false,
    })
  })

  it('pins the hub for the plugin even when KUBECONFIG names the target, as under kubectl', async () => {
    const {env} = await testEnv()
    const result = await cpcred(
      [
        'credential',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--kubeconfig',
        fixture.hubKubeconfig,
        '--no-cache',
      ],
      {KUBECONFIG: env.spoke.kubeconfig},
    )
    assert.equal(result.code, 0, result.stderr)
    const record = (await pluginRecords(fixture)).at(-1)!
    assert.equal(record.env.KUBECONFIG, fixture.hubKubeconfig)
    assert.equal(record.env.CPCRED_HUB_CONTEXT, 'hub')
  })

  it('runs the plugin once for 20 concurrent callers on a cold cache, then serves the cache', async () => {
    const before = (await pluginRecords(fixture)).length
    const results = await Promise.all(Array.from({length: 20}, () => run([], {})))
    for (const result of results) assert.equal(result.code, 0, result.stderr)
    const tokens = new Set(results.map((result) => JSON.parse(result.stdout).status.token))
    assert.equal(tokens.size, 1)
    assert.equal((await pluginRecords(fixture)).length - before, 1, 'the plugin must run exactly once')

    const again = await run(['-v'])
    assert.match(again.stderr, /from the cache/)
    assert.equal((await pluginRecords(fixture)).length - before, 1)

    const dir = path.join(cacheHome, 'cpcred', 'credentials')
    assert.equal((await stat(dir)).mode & 0o777, 0o700)
  })

  it('never serves a cached credential for another identity: a different plugin env runs the plugin again', async () => {
    const before = (await pluginRecords(fixture)).length
    const other = await fakeProviderFile(
      {provideClusterInfo: true},
      {PLUGIN_TOKEN_FILE: fixture.tokenFile, PLUGIN_RECORD: fixture.recordFile, FAKE_ROLE: 'other'},
    )
    const result = await cpcred(
      ['credential', `${fixture.namespace}/target`, '--provider-file', other, '-v'],
      {
        KUBECONFIG: fixture.hubKubeconfig,
        XDG_CACHE_HOME: cacheHome,
      },
    )
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /from the plugin/)
    assert.equal((await pluginRecords(fixture)).length - before, 1)
    assert.equal((await pluginRecords(fixture)).at(-1)!.env.FAKE_ROLE, 'other')
  })

  it("cache clear's help says what leaving PROFILE out does: it clears everything, it offers no choice", async () => {
    const help = await cpcred(['cache', 'clear', '--help'])
    assert.equal(help.code, 0, help.stderr)
    const text = help.stdout.replace(/\s+/g, ' ')
    assert.match(text, /omitted: remove every cached credential/)
    assert.doesNotMatch(text, /choose one/)
  })

  it('cache clear removes the entry of one profile, then all entries', async () => {
    await run([])
    const clearOne = await cpcred(
      ['cache', 'clear', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile],
      {
        KUBECONFIG: fixture.hubKubeconfig,
        XDG_CACHE_HOME: cacheHome,
      },
    )
    assert.equal(clearOne.code, 0, clearOne.stderr)
    assert.equal(clearOne.stderr, `Removed the cached credential of ${fixture.namespace}/target.\n`)
    const before = (await pluginRecords(fixture)).length
    const refetched = await run(['-v'])
    assert.match(refetched.stderr, /from the plugin/)
    assert.equal((await pluginRecords(fixture)).length - before, 1)

    const clearAll = await cpcred(['cache', 'clear'], {XDG_CACHE_HOME: cacheHome})
    assert.match(clearAll.stderr, /^Removed [1-9]\d* cached credential\(s\) from /)
    assert.match((await run(['-v'])).stderr, /from the plugin/)
  })

  it('reuses a profile read moments ago, and reads the hub again past --profile-max-age', async () => {
    const {hub} = await testEnv()
    const {applyProfile} = await import('../helpers/env.js')
    const {kubeCall} = await import('../testenv/http.js')
    await applyProfile(hub, {
      metadata: {name: 'short-lived', namespace: fixture.namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {accessProviders: fixture.profile.status!.accessProviders},
    })
    const call = (...extra: string[]) =>
      cpcred(
        ['credential', `${fixture.namespace}/short-lived`, '--provider-file', fixture.providerFile, ...extra],
        {
          KUBECONFIG: fixture.hubKubeconfig,
          XDG_CACHE_HOME: cacheHome,
        },
      )
    assert.equal((await call()).code, 0)
    await kubeCall(
      hub,
      'DELETE',
      `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${fixture.namespace}/clusterprofiles/short-lived`,
    )
    // Within the default 30 s the profile read a moment ago still serves kubectl's calls...
    assert.equal((await call()).code, 0)
    // ...and past the allowed age the hub is asked again, which no longer has it.
    const gone = await call('--profile-max-age', '0s')
    assert.equal(gone.code, 1)
    assert.match(gone.stderr, /^error: ClusterProfile "short-lived" not found in namespace/)
  })

  it('gives the last answer again without loading cpcred, until something it depends on changes', async () => {
    const dir = await tempDir('cpcred-answers-')
    const probe = await bundleProbe(dir, 'fast-path.cjs')
    const recordFile = path.join(dir, 'record.jsonl')
    const providerFile = await fakeProviderFile(
      {},
      {PLUGIN_TOKEN_FILE: fixture.tokenFile, PLUGIN_RECORD: recordFile, PLUGIN_TTL_SECONDS: '3600'},
    )
    const answersCache = await tempDir('cpcred-cache-')
    const call = async (env: NodeJS.ProcessEnv = {}, cacheHome = answersCache) => {
      const result = await cpcred(
        ['credential', `${fixture.namespace}/target`, '--provider-file', providerFile],
        {
          KUBECONFIG: fixture.hubKubeconfig,
          XDG_CACHE_HOME: cacheHome,
          NODE_OPTIONS: probe.nodeOptions,
          ...env,
        },
      )
      assert.equal(result.code, 0, result.stderr)
      const how = await probe.last()
      return {token: JSON.parse(result.stdout).status.token as string, how}
    }
    const runs = async () => (await readFile(recordFile, 'utf8')).trim().split('\n').length

    const first = await call()
    assert.equal(first.how, 'full')
    assert.equal(await runs(), 1)
    const answers = path.join(answersCache, 'cpcred', 'credentials', 'answers')
    assert.equal((await stat(answers)).mode & 0o777, 0o700)
    const [file] = await readdir(answers)
    assert.equal((await stat(path.join(answers, file!))).mode & 0o777, 0o600)

    assert.deepEqual(await call(), {token: first.token, how: 'answer'})
    // Another question (other environment) is not answered by it.
    assert.equal(
      (
        await call({
          KUBERNETES_EXEC_INFO: JSON.stringify({
            apiVersion: 'client.authentication.k8s.io/v1',
            kind: 'ExecCredential',
            spec: {interactive: false},
          }),
        })
      ).how,
      'full',
    )

    // A provider file written since: the full path, from the credential cache, and a new answer.
    await writeFile(providerFile, await readFile(providerFile, 'utf8'))
    assert.equal((await call()).how, 'full')
    assert.equal((await call()).how, 'answer')
    // The hub kubeconfig touched: the same.
    const now = new Date()
    await utimes(fixture.hubKubeconfig, now, now)
    assert.equal((await call()).how, 'full')
    assert.equal((await call()).how, 'answer')
    assert.equal(await runs(), 1)

    // cache clear forgets the answers with the credentials: the plugin runs again.
    const cleared = await cpcred(['cache', 'clear'], {XDG_CACHE_HOME: answersCache})
    assert.equal(cleared.code, 0, cleared.stderr)
    assert.equal(existsSync(answers), false)
    assert.equal((await call()).how, 'full')
    assert.equal(await runs(), 2)

    // A credential 62 s from expiry is served 2 s more (the cache's margin is 60 s), and so is its answer.
    const shortLived = await tempDir('cpcred-cache-')
    await call({}, shortLived)
    await writeFile(providerFile, (await readFile(providerFile, 'utf8')).replace('"3600"', '"62"'))
    await call({}, shortLived)
    assert.equal((await call({}, shortLived)).how, 'answer')
    await new Promise((resolve) => setTimeout(resolve, 2500))
    const before = await runs()
    assert.equal((await call({}, shortLived)).how, 'full')
    assert.equal(await runs(), before + 1)
  })

  for (const [mode, expected] of [
    [
      'exit1',
      /^error: provider "fake" \(.*fake-plugin\.mjs\) exited with code 1; its stderr:\nfake-plugin: the identity provider said no\n/,
    ],
    ['junk', /^error: provider "fake" \(.*fake-plugin\.mjs\) .*not .*JSON/i],
    ['cert-no-key', /^error: provider "fake" \(.*fake-plugin\.mjs\) .*key/i],
  ] as const) {
    it(`fails with exit code 5 and a clear message when the plugin ${mode === 'exit1' ? 'exits 1' : `prints ${mode}`}`, async () => {
      const file = await fakeProviderFile({}, {PLUGIN_MODE: mode})
      const result = await cpcred(['credential', `${fixture.namespace}/target`, '--provider-file', file], {
        KUBECONFIG: fixture.hubKubeconfig,
      })
      assert.equal(result.code, 5, result.stderr)
      assert.equal(result.stdout, '')
      assert.match(result.stderr, expected)
      assert.doesNotMatch(result.stderr, /\n\s+at /)
    })
  }

  it('stops a plugin that hangs after --plugin-timeout (exit 5)', async () => {
    const file = await fakeProviderFile({}, {PLUGIN_MODE: 'hang'})
    const result = await cpcred(
      ['credential', `${fixture.namespace}/target`, '--provider-file', file, '--plugin-timeout', '2s'],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(result.code, 5)
    assert.match(result.stderr, /^error: provider "fake" \(.*\) did not finish within 2s and was stopped/)
  })

  it('names a missing plugin command with the provider install hint', async () => {
    const file = await fakeProviderFile({
      command: '/nonexistent/plugin',
      installHint: 'get it from the platform team',
    })
    const result = await cpcred(['credential', `${fixture.namespace}/target`, '--provider-file', file], {
      KUBECONFIG: fixture.hubKubeconfig,
    })
    assert.equal(result.code, 5)
    assert.equal(
      result.stderr,
      'error: provider "fake" (/nonexistent/plugin): command not found: /nonexistent/plugin\nget it from the platform team\n',
    )
  })

  it('explains usage mistakes with exit code 2', async () => {
    const missing = await cpcred(['credential'], {...isolatedEnv, KUBECONFIG: fixture.hubKubeconfig})
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /^error: a profile is required\nusage: cpcred credential/)
    const unknown = await cpcred(['credential', 'x', '--bogus'], {KUBECONFIG: fixture.hubKubeconfig})
    assert.equal(unknown.code, 2)
    assert.match(unknown.stderr, /^error: unknown flag: --bogus$/m)
  })
})
