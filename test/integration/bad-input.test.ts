// Bad input as it comes in the field, against the real hub and spoke: broken hub kubeconfigs,
// hostile inventories, malformed provider files, misbehaving plugins (shell wrappers whose children
// hang or ignore SIGTERM), kubeconfigs that are symlinks or read-only, and exec misuse. Every case
// checks the exit-code class, a short message naming the problem, no stack trace, no credential in
// anything printed, and that nothing the user had was lost.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {STOP_GRACE_MS} from '../../src/adapters/process-group.js'
import {RAW_CONTROL, HOSTILE} from '../helpers/controls.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createServiceAccount,
  isolatedEnv,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
  writeProviderFile,
  type RunResult,
} from '../helpers/env.js'
import {fakePlugin, pluginRecords, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {shellScript, waitForPids, waitGone} from '../helpers/processes.js'
import {createPki} from '../testenv/pki.js'

const STACK_TRACE = /\n\s+at .+\(.*:\d+:\d+\)|\n\s+at file:|node:internal/

describe('bad input, as it comes in the field', () => {
  let fixture: SpokeFixture
  let token: string
  let dir: string
  let cacheHome: string
  let hub: string
  let spoke: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'bad-input'})
    token = (await readFile(fixture.tokenFile, 'utf8')).trim()
    dir = await tempDir('cpcred-bad-input-')
    cacheHome = await tempDir('cpcred-bad-input-cache-')
    const {env, hub: hubConnection} = await testEnv()
    hub = env.hub.server
    spoke = env.spoke.server
    // A profile written by a hostile cluster manager: every free-text field carries escapes.
    await applyProfile(hubConnection, {
      metadata: {name: 'hostile', namespace: fixture.namespace, labels: {kind: 'hostile'}},
      spec: {displayName: HOSTILE, clusterManager: {name: 'test-manager'}},
      status: {
        conditions: [
          {
            type: 'ControlPlaneHealthy',
            status: 'True',
            reason: 'Probe',
            message: `ok\nCommand: rm -rf / ${HOSTILE}`,
            lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          },
        ],
        properties: [{name: 'region', value: HOSTILE}],
        accessProviders: [
          {name: `evil${HOSTILE}`, cluster: {server: `${spoke}/${HOSTILE}`}},
          {name: 'fake', cluster: {server: spoke, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    })
  })

  /** cpcred with the fixture's hub and a private cache. */
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cpcred(args, {KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome, ...env})

  /** The checks every bad case shares. */
  function expectFailure(result: RunResult, code: number, message: RegExp): void {
    assert.equal(result.code, code, `exit code; stderr:\n${result.stderr}`)
    assert.match(result.stderr, message)
    assert.match(result.stderr, /^(warning: .*\n)*error: /, 'a one-line error comes first')
    assert.doesNotMatch(result.stderr, STACK_TRACE, 'no stack trace')
    assertNoSecret(result)
    assert.doesNotMatch(result.stderr, RAW_CONTROL, 'stderr is printable')
  }

  function assertNoSecret(result: RunResult): void {
    assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token), 'the token is never printed')
  }

  /** A provider file with one provider, "fake", running `command` (the fake plugin by default). */
  async function providerFile(execConfig: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return writeProviderFile(await tempDir(), [
      {
        name: 'fake',
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: fakePlugin,
          env: [
            {name: 'PLUGIN_TOKEN_FILE', value: fixture.tokenFile},
            {name: 'PLUGIN_RECORD', value: fixture.recordFile},
          ],
          provideClusterInfo: true,
          ...execConfig,
        },
        ...extra,
      },
    ])
  }

  const fakeMode = (mode: string) =>
    providerFile({
      env: [
        {name: 'PLUGIN_TOKEN_FILE', value: fixture.tokenFile},
        {name: 'PLUGIN_MODE', value: mode},
      ],
    })

  const credential = (file: string, ...extra: string[]) =>
    run(['credential', `${fixture.namespace}/target`, '--provider-file', file, '--no-cache', ...extra])

  describe('the hub', () => {
    it('names a --kubeconfig that does not exist (exit 2)', async () => {
      expectFailure(
        await run(['list', '--kubeconfig', '/nonexistent/hub']),
        2,
        /cannot read kubeconfig \/nonexistent\/hub: no such file/,
      )
    })

    it('names a kubeconfig that is not YAML (exit 2)', async () => {
      const file = path.join(dir, 'garbage.kubeconfig')
      await writeFile(file, 'clusters: [\n')
      expectFailure(await run(['list', '--kubeconfig', file]), 2, /garbage\.kubeconfig is not valid YAML/)
    })

    it('names a kubeconfig that is YAML but not a kubeconfig (exit 2)', async () => {
      const file = path.join(dir, 'list.kubeconfig')
      await writeFile(file, '- just\n- a list\n')
      expectFailure(
        await run(['list', '--kubeconfig', file]),
        2,
        /list\.kubeconfig: the file is not a kubeconfig/,
      )
    })

    it('lists the known contexts for an unknown --context (exit 2)', async () => {
      expectFailure(
        await run(['list', '--context', 'nope']),
        2,
        /context "nope" not found.*\nknown contexts: hub/,
      )
    })

    it('says the hub cannot be reached when nothing listens there (exit 3)', async () => {
      const file = await tokenKubeconfig(dir, 'closed', 'https://127.0.0.1:1', '', 'x')
      expectFailure(
        await run(['list', '--kubeconfig', file]),
        3,
        /cannot reach the hub \(context "closed", https:\/\/127\.0\.0\.1:1\): connection refused/,
      )
    })

    it('says the hub certificate is not trusted with the wrong CA (exit 3)', async () => {
      const other = await createPki(await tempDir('cpcred-other-ca-'))
      const file = await tokenKubeconfig(
        dir,
        'wrong-ca',
        hub,
        Buffer.from(other.caPem).toString('base64'),
        token,
      )
      expectFailure(await run(['list', '--kubeconfig', file]), 3, /cannot reach the hub .*certificate/i)
    })

    it('says the hub rejected the credentials on a 401 (exit 4)', async () => {
      const {env} = await testEnv()
      const file = await tokenKubeconfig(dir, 'bad-token', hub, env.hub.caData, 'not-a-real-token')
      expectFailure(
        await run(['list', '--kubeconfig', file]),
        4,
        /rejected the credentials .*401 Unauthorized/,
      )
    })

    it('says what RBAC is missing on a 403 (exit 4)', async () => {
      const {env, hub: hubConnection} = await testEnv()
      await createServiceAccount(hubConnection, fixture.namespace, 'no-rbac')
      const noRbac = await serviceAccountToken(hubConnection, fixture.namespace, 'no-rbac')
      const file = await tokenKubeconfig(dir, 'no-rbac', hub, env.hub.caData, noRbac, fixture.namespace)
      const result = await run(['list', '--kubeconfig', file])
      expectFailure(
        result,
        4,
        /cannot list clusterprofiles\.multicluster\.x-k8s\.io in namespace .*cannot list resource "clusterprofiles"/,
      )
      assert.ok(!result.stderr.includes(noRbac))
    })

    it('says the ClusterProfile API is not served on a cluster without the CRD (exit 3)', async () => {
      const {env} = await testEnv()
      expectFailure(
        await run(['list', '--kubeconfig', env.spoke.kubeconfig]),
        3,
        /does not serve multicluster\.x-k8s\.io v1alpha1 or v1alpha2 clusterprofiles/,
      )
    })

    it('skips a missing file in a KUBECONFIG list, as kubectl does', async () => {
      const result = await run(['list', '-n', fixture.namespace], {
        KUBECONFIG: ['/nonexistent/first', fixture.hubKubeconfig].join(path.delimiter),
      })
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^NAME\s+MANAGER/)
    })

    it('reads a hub kubeconfig that is a symlink', async () => {
      const link = path.join(dir, 'hub-link.kubeconfig')
      await symlink(fixture.hubKubeconfig, link)
      const result = await run(['list', '-n', fixture.namespace, '--kubeconfig', link])
      assert.equal(result.code, 0, result.stderr)
    })
  })

  describe('a hostile inventory', () => {
    it('list -o wide shows every column of a hostile profile as printable text', async () => {
      const result = await run([
        'list',
        '-n',
        fixture.namespace,
        '-l',
        'kind=hostile',
        '-o',
        'wide',
        '--provider-file',
        fixture.providerFile,
      ])
      assert.equal(result.code, 0, result.stderr)
      assert.doesNotMatch(result.stdout, RAW_CONTROL)
      assert.match(result.stdout, /\\x1b\]0;pwned\\x07\\x1b\[31mred/)
      assert.match(result.stdout, /evil\\x1b\]0;pwned/, 'the provider name is escaped too')
      assert.equal(result.stdout.trimEnd().split('\n').length, 2, 'no forged lines')
    })

    it('list -o json and -o yaml keep the strings exact', async () => {
      const json = await run(['list', '-n', fixture.namespace, '-l', 'kind=hostile', '-o', 'json'])
      assert.equal(JSON.parse(json.stdout).items[0].spec.displayName, HOSTILE)
      const yaml = await run(['list', '-n', fixture.namespace, '-l', 'kind=hostile', '-o', 'yaml'])
      assert.equal(YAML.parse(yaml.stdout).items[0].spec.displayName, HOSTILE)
    })

    it('describe escapes the condition message, properties, provider names and servers', async () => {
      const result = await run([
        'describe',
        `${fixture.namespace}/hostile`,
        '--provider-file',
        fixture.providerFile,
      ])
      assert.equal(result.code, 0, result.stderr)
      assert.doesNotMatch(result.stdout, RAW_CONTROL)
      assert.doesNotMatch(result.stdout, /^\s*Command: rm -rf/m, 'a message cannot forge a line')
      assert.match(result.stdout, /ok\\nCommand: rm -rf \//)
    })

    it('a profile that only a hostile provider name offers fails with a printable error (exit 1)', async () => {
      const {env, hub: hubConnection} = await testEnv()
      await applyProfile(hubConnection, {
        metadata: {name: 'hostile-only', namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: `evil${HOSTILE}`,
              cluster: {server: spoke, 'certificate-authority-data': env.spoke.caData},
            },
          ],
        },
      })
      const result = await run([
        'credential',
        `${fixture.namespace}/hostile-only`,
        '--provider-file',
        fixture.providerFile,
      ])
      expectFailure(result, 1, /no provider in common/i)
      assert.match(result.stderr, /evil\\x1b/)
    })

    it('refuses a profile that tries to set PATH or LD_PRELOAD for the plugin', async () => {
      const {env, hub: hubConnection} = await testEnv()
      await applyProfile(hubConnection, {
        metadata: {name: 'env-injection', namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {
                server: spoke,
                'certificate-authority-data': env.spoke.caData,
                extensions: [
                  {
                    name: 'clusterprofiles.multicluster.x-k8s.io/exec/additional-envs',
                    extension: {PATH: '/tmp/evil', LD_PRELOAD: '/tmp/evil.so', REGION: 'eu'},
                  },
                ],
              },
            },
          ],
        },
      })
      const file = await providerFile({}, {profileSourcedEnvVarsPolicy: 'Replace'})
      const result = await run([
        'credential',
        `${fixture.namespace}/env-injection`,
        '--provider-file',
        file,
        '--no-cache',
      ])
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stderr, /warning: .*(PATH|LD_PRELOAD)/)
      const record = (await pluginRecords(fixture)).at(-1)!
      assert.notEqual(record.env.PATH, '/tmp/evil')
      assertNoSecret({...result, stdout: ''})
    })

    it('names certificate-authority-data that holds no PEM certificate (exit 1)', async () => {
      const {hub: hubConnection} = await testEnv()
      await applyProfile(hubConnection, {
        metadata: {name: 'bad-ca', namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {server: spoke, 'certificate-authority-data': Buffer.from('hello').toString('base64')},
            },
          ],
        },
      })
      const result = await run([
        'exec',
        `${fixture.namespace}/bad-ca`,
        '--provider-file',
        fixture.providerFile,
        '--',
        'true',
      ])
      expectFailure(
        result,
        1,
        /ClusterProfile .*\/bad-ca: the certificate-authority-data of its accessProviders entry "fake" is not a base64-encoded PEM certificate/,
      )
    })

    it('warns loudly about a plain-http server', async () => {
      const {hub: hubConnection} = await testEnv()
      await applyProfile(hubConnection, {
        metadata: {name: 'plain-http', namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {accessProviders: [{name: 'fake', cluster: {server: 'http://127.0.0.1:1'}}]},
      })
      const result = await run([
        'kubeconfig',
        `${fixture.namespace}/plain-http`,
        '--provider-file',
        fixture.providerFile,
      ])
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stderr, /^warning: .*http:\/\/127\.0\.0\.1:1.*not https/im)
    })
  })

  describe('provider files', () => {
    const expectProviderError = async (content: string, message: RegExp) => {
      const file = path.join(await tempDir(), 'providers.json')
      await writeFile(file, content)
      expectFailure(
        await run(['describe', `${fixture.namespace}/target`, '--provider-file', file]),
        2,
        message,
      )
    }

    it('names malformed JSON with its position', () =>
      expectProviderError('{"providers": [', /providers\.json.*(JSON|end)/i))

    it('names a field of the wrong type', () =>
      expectProviderError(
        JSON.stringify({
          providers: [
            {
              name: 'x',
              execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'x', args: 'not-a-list'},
            },
          ],
        }),
        /args/,
      ))

    it('names an unknown policy and the allowed ones', () =>
      expectProviderError(
        JSON.stringify({
          providers: [
            {
              name: 'fake',
              execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'x'},
              profileSourcedEnvVarsPolicy: 'Sometimes',
            },
          ],
        }),
        /profileSourcedEnvVarsPolicy "Sometimes" is not one of "", "Ignore", "AppendIfNotExists", "Replace"/,
      ))

    it('names a provider file that does not exist', async () => {
      expectFailure(
        await run([
          'describe',
          `${fixture.namespace}/target`,
          '--provider-file',
          '/nonexistent/providers.json',
        ]),
        2,
        /\/nonexistent\/providers\.json/,
      )
    })

    for (const [what, inline] of [
      ['a command separator', "fake='/bin/plugin; rm -rf ~'"],
      ['a pipe', "fake='/bin/plugin | tee /tmp/x'"],
      ['a variable', "fake='/bin/plugin $HOME'"],
      ['command substitution', "fake='/bin/plugin $(id)'"],
    ] as const) {
      it(`refuses ${what} in an inline --access-provider (exit 2)`, async () => {
        const result = await run(['credential', `${fixture.namespace}/target`, '--access-provider', inline])
        expectFailure(result, 2, /--access-provider/)
      })
    }

    it('says which providers the profile offers when none matches (exit 1)', async () => {
      const file = path.join(await tempDir(), 'providers.json')
      await writeFile(
        file,
        JSON.stringify({
          providers: [
            {name: 'other', execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'x'}},
          ],
        }),
      )
      expectFailure(await credential(file), 1, /fake.*\n?.*other|other.*\n?.*fake/)
    })
  })

  describe('plugins', () => {
    for (const [mode, message] of [
      ['exit1', /exited with code 1; its stderr:\nfake-plugin: the identity provider said no/],
      ['junk', /not .*JSON/i],
      ['wrong-kind', /kind is "Secret", expected "ExecCredential"/],
      ['no-status', /has no status/],
      ['wrong-api', /v1alpha1/],
      ['cert-no-key', /clientCertificateData but no clientKeyData/],
      ['expired', /already expired \(at 2020-01-01T00:00:00Z\)/],
      ['flood', /printed more than 1048576 bytes on stdout/],
      ['signal', /was killed by SIGKILL/],
      ['hostile', /exited with code 1; its stderr:\ndenied: \\x1b\]0;owned\\x07\\x1b\[31mred\\u202eevil/],
    ] as const) {
      it(`fails with exit 5 naming the plugin when it ${mode === 'hostile' ? 'prints escapes on stderr' : mode === 'exit1' ? 'exits 1' : `answers ${mode}`}`, async () => {
        const result = await credential(await fakeMode(mode))
        expectFailure(result, 5, message)
        assert.match(result.stderr, /^error: provider "fake" \(.*fake-plugin\.mjs\)/)
        assert.equal(result.stdout, '')
      })
    }

    it('names a plugin that is not executable (exit 5)', async () => {
      const script = await shellScript(await tempDir(), 'not-executable', 'exit 0')
      await chmod(script, 0o644)
      expectFailure(
        await credential(await providerFile({command: script})),
        5,
        /could not be started \(EACCES\)/,
      )
    })

    it('stops a #!/bin/sh wrapper whose child hangs within the timeout and grace, child and all', async () => {
      const work = await tempDir()
      const pids = path.join(work, 'pids')
      const wrapper = await shellScript(
        work,
        'corp-sso',
        `echo "waiting for SSO" >&2\nsh -c 'echo $$ >> "${pids}"; exec sleep 60'`,
      )
      const started = performance.now()
      const result = await credential(await providerFile({command: wrapper}), '--plugin-timeout', '1s')
      const elapsed = performance.now() - started
      expectFailure(
        result,
        5,
        /did not finish within 1s and was stopped \(with its child processes\); its stderr:\nwaiting for SSO/,
      )
      // Node's start and the hub read come on top of the timeout; the grace is the upper bound.
      assert.ok(elapsed < 1000 + STOP_GRACE_MS + 3000, `took ${Math.round(elapsed)} ms`)
      assert.ok(await waitGone(await waitForPids(pids)), 'the hung child is gone')
    })

    it('kills a wrapper grandchild that ignores SIGTERM after the grace', async () => {
      const work = await tempDir()
      const pids = path.join(work, 'pids')
      const wrapper = await shellScript(
        work,
        'stubborn',
        `sh -c 'trap "" TERM; echo $$ >> "${pids}"; while :; do sleep 1; done' &\nwait`,
      )
      const started = performance.now()
      const result = await credential(await providerFile({command: wrapper}), '--plugin-timeout', '1s')
      const elapsed = performance.now() - started
      expectFailure(result, 5, /did not finish within 1s and was stopped/)
      assert.ok(elapsed < 1000 + STOP_GRACE_MS + 3000, `took ${Math.round(elapsed)} ms`)
      assert.ok(await waitGone(await waitForPids(pids)), 'SIGKILL reached the grandchild')
    })

    it('stops the plugin group when cpcred gets SIGINT, and exits 130', async () => {
      const work = await tempDir()
      const pids = path.join(work, 'pids')
      const wrapper = await shellScript(work, 'slow', `sh -c 'echo $$ >> "${pids}"; exec sleep 60'`)
      const file = await providerFile({command: wrapper})
      const child = spawn(
        process.execPath,
        [cpcredBin, 'credential', `${fixture.namespace}/target`, '--provider-file', file, '--no-cache'],
        {
          env: {...isolatedEnv, KUBECONFIG: fixture.hubKubeconfig},
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
      const [plugin] = await waitForPids(pids)
      child.kill('SIGINT')
      assert.equal(await exited, 130, stderr)
      assert.match(stderr, /^error: provider "fake" \(.*slow\) was stopped: cpcred received SIGINT/)
      assert.ok(await waitGone([plugin!]), 'the plugin is not left running')
    })
  })

  describe('kubeconfig files', () => {
    const kubeconfig = (...args: string[]) =>
      run(['kubeconfig', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, ...args])

    it('leaves a corrupt merge target byte for byte as it was (exit 2)', async () => {
      const file = path.join(await tempDir(), 'config')
      await writeFile(file, 'clusters: [oops\n', {mode: 0o600})
      expectFailure(await kubeconfig('--merge', '--output-file', file), 2, /is not valid YAML/)
      assert.equal(await readFile(file, 'utf8'), 'clusters: [oops\n')
    })

    it('refuses to merge into a directory (exit 2)', async () => {
      const target = await tempDir()
      expectFailure(await kubeconfig('--merge', '--output-file', target), 2, /is a directory/)
    })

    it('merges through a symlink into its target, keeping the link and the mode', async () => {
      const home = await tempDir()
      const real = path.join(home, 'dotfiles', 'kube', 'config')
      await mkdir(path.dirname(real), {recursive: true})
      const existing = YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{name: 'mine', cluster: {server: 'https://mine.example'}}],
        users: [{name: 'mine', user: {token: 'my-own'}}],
        contexts: [{name: 'mine', context: {cluster: 'mine', user: 'mine'}}],
        'current-context': 'mine',
      })
      await writeFile(real, existing)
      await chmod(real, 0o640)
      const link = path.join(home, '.kube', 'config')
      await mkdir(path.dirname(link))
      await symlink('../dotfiles/kube/config', link)
      // The default merge target: the first KUBECONFIG file, here the link.
      const result = await run(
        [
          'kubeconfig',
          `${fixture.namespace}/target`,
          '--provider-file',
          fixture.providerFile,
          '--merge',
          '--kubeconfig',
          fixture.hubKubeconfig,
        ],
        {KUBECONFIG: link},
      )
      assert.equal(result.code, 0, result.stderr)
      assert.ok((await lstat(link)).isSymbolicLink(), 'the link is still a link')
      assert.equal(await readlink(link), '../dotfiles/kube/config')
      const merged = YAML.parse(await readFile(real, 'utf8'))
      assert.deepEqual(
        merged.contexts.map((context: {name: string}) => context.name).sort(),
        ['mine', `${fixture.namespace}/target`].sort(),
      )
      assert.equal((await stat(real)).mode & 0o777, 0o640)
      assert.deepEqual(await readdir(path.dirname(real)), ['config'], 'no temp or lock file left beside it')
      assert.deepEqual(await readdir(path.dirname(link)), ['config'])
    })

    it('leaves a read-only kubeconfig untouched (exit 1)', async () => {
      const file = path.join(await tempDir(), 'config')
      await writeFile(file, 'apiVersion: v1\nkind: Config\n')
      await chmod(file, 0o400)
      expectFailure(await kubeconfig('--merge', '--output-file', file), 1, /is read-only/)
      assert.equal(await readFile(file, 'utf8'), 'apiVersion: v1\nkind: Config\n')
    })

    it('refuses to replace an existing --output-file without --overwrite (exit 2)', async () => {
      const file = path.join(await tempDir(), 'out')
      await writeFile(file, 'mine\n')
      expectFailure(await kubeconfig('--output-file', file), 2, /already exists\n.*--overwrite/)
      assert.equal(await readFile(file, 'utf8'), 'mine\n')
    })

    it('names an --output-file below a regular file (exit 1)', async () => {
      const file = path.join(await tempDir(), 'plain')
      await writeFile(file, 'x')
      expectFailure(await kubeconfig('--output-file', path.join(file, 'config')), 1, /plain\/config/)
    })

    it('loses no entry when 20 merges run at once', async () => {
      const file = path.join(await tempDir(), 'config')
      const results = await Promise.all(
        Array.from({length: 20}, (_, index) =>
          kubeconfig('--merge', '--output-file', file, '--context-name', `ctx-${index}-{name}`),
        ),
      )
      for (const result of results) assert.equal(result.code, 0, result.stderr)
      const merged = YAML.parse(await readFile(file, 'utf8'))
      assert.equal(merged.contexts.length, 20)
      assert.equal(new Set(merged.contexts.map((context: {name: string}) => context.name)).size, 20)
    })
  })

  describe('the credential cache', () => {
    it('drops a corrupt entry and runs the plugin again', async () => {
      const home = await tempDir()
      const first = await run(
        ['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile],
        {XDG_CACHE_HOME: home},
      )
      assert.equal(first.code, 0, first.stderr)
      const dir = path.join(home, 'cpcred', 'credentials')
      // The entries, not the lock files nor the answers directory (which the changed entry invalidates).
      for (const name of await readdir(dir))
        if (name.endsWith('.json')) await writeFile(path.join(dir, name), '{"version": 1, "credential": ')
      const before = (await pluginRecords(fixture)).length
      const again = await run(
        ['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '-v'],
        {XDG_CACHE_HOME: home},
      )
      assert.equal(again.code, 0, again.stderr)
      assert.match(again.stderr, /from the plugin/)
      assert.equal((await pluginRecords(fixture)).length - before, 1)
    })

    it('runs the plugin once for 30 concurrent cold callers, into 0600 files in a 0700 directory', async () => {
      const home = await tempDir()
      const before = (await pluginRecords(fixture)).length
      const results = await Promise.all(
        Array.from({length: 30}, () =>
          run(['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile], {
            XDG_CACHE_HOME: home,
          }),
        ),
      )
      for (const result of results) assert.equal(result.code, 0, result.stderr)
      assert.equal((await pluginRecords(fixture)).length - before, 1, 'one plugin run')
      const dir = path.join(home, 'cpcred', 'credentials')
      assert.equal((await stat(dir)).mode & 0o777, 0o700)
      for (const name of await readdir(dir)) {
        if (name === 'answers') {
          assert.equal((await stat(path.join(dir, name))).mode & 0o777, 0o700, name)
          for (const answer of await readdir(path.join(dir, name)))
            assert.equal((await stat(path.join(dir, name, answer))).mode & 0o777, 0o600, answer)
        } else if (!name.endsWith('.lock'))
          assert.equal((await stat(path.join(dir, name))).mode & 0o777, 0o600, name)
      }
    })
  })

  describe('exec', () => {
    const exec = (args: string[], env: NodeJS.ProcessEnv = {}) => run(['exec', ...args], env)
    const target = () => `${fixture.namespace}/target`

    it('returns the command exit code, and 128+n when the command dies of signal n', async () => {
      assert.equal(
        (await exec([target(), '--provider-file', fixture.providerFile, '--', 'sh', '-c', 'exit 7'])).code,
        7,
      )
      assert.equal(
        (await exec([target(), '--provider-file', fixture.providerFile, '--', 'sh', '-c', 'kill -TERM $$']))
          .code,
        143,
      )
    })

    it('needs -- before the command (exit 2)', async () => {
      expectFailure(await exec([target(), 'kubectl', 'get', 'pods']), 2, /no command to run\n.*--/)
    })

    for (const parallel of ['0', 'many', '-3', '1.5']) {
      it(`refuses --parallel ${parallel} (exit 2)`, async () => {
        expectFailure(await exec(['--all', '--parallel', parallel, '--', 'true']), 2, /--parallel/)
      })
    }

    it('never prompts without a terminal: no target is a usage error (exit 2)', async () => {
      expectFailure(await exec(['--', 'true']), 2, /no target given\n.*no terminal/)
    })

    it('names a command that does not exist (exit 1)', async () => {
      expectFailure(
        await exec([target(), '--provider-file', fixture.providerFile, '--', 'no-such-command-xyz']),
        1,
        /command not found: no-such-command-xyz/,
      )
    })

    it('escapes a hostile plugin error in the fan-out lines and summary', async () => {
      const file = await fakeMode('hostile')
      const result = await exec([
        '-n',
        fixture.namespace,
        target(),
        `${fixture.namespace}/hostile`,
        '--provider-file',
        file,
        '--',
        'true',
      ])
      assert.equal(result.code, 1)
      assert.doesNotMatch(result.stderr, RAW_CONTROL)
      assert.match(
        result.stderr,
        /\/hostile \| error: provider "fake" .*its stderr:\n.*\/hostile \| denied: \\x1b\]0;owned/,
      )
      assert.match(result.stderr, /1 of 2 failed|2 of 2 failed/)
    })

    it('removes the private directory a killed cpcred left behind, and keeps a live one', async () => {
      const runtime = await tempDir('cpcred-runtime-')
      const root = path.join(runtime, `cpcred-${process.getuid!()}`)
      const gone = spawn('true')
      await new Promise((resolve) => gone.on('close', resolve))
      const stale = path.join(root, `exec-${gone.pid}-AbC123`)
      const live = path.join(root, `exec-${process.pid}-XyZ789`)
      for (const leftover of [stale, live]) {
        await mkdir(leftover, {mode: 0o700, recursive: true})
        await writeFile(path.join(leftover, 'kubeconfig'), 'token: secret\n', {mode: 0o600})
      }
      const result = await exec([target(), '--provider-file', fixture.providerFile, '--', 'true'], {
        XDG_RUNTIME_DIR: runtime,
      })
      assert.equal(result.code, 0, result.stderr)
      assert.ok(!existsSync(stale), 'the stale directory is gone')
      assert.ok(existsSync(live), 'the directory of a running process stays')
    })

    it('after kill -9 of cpcred exec, the next exec sweeps what it left', async () => {
      const runtime = await tempDir('cpcred-runtime-')
      const root = path.join(runtime, `cpcred-${process.getuid!()}`)
      const child = spawn(
        process.execPath,
        [cpcredBin, 'exec', target(), '--provider-file', fixture.providerFile, '--', 'sleep', '60'],
        {
          env: {
            ...isolatedEnv,
            KUBECONFIG: fixture.hubKubeconfig,
            XDG_CACHE_HOME: cacheHome,
            XDG_RUNTIME_DIR: runtime,
          },
          stdio: 'ignore',
        },
      )
      const deadline = Date.now() + 20_000
      const entries = () => readdir(root).catch(() => [] as string[])
      while ((await entries()).length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      const [left] = await entries()
      assert.match(left!, new RegExp(`^exec-${child.pid}-`))
      assert.equal((await stat(root)).mode & 0o777, 0o700, 'the private root is 0700')
      const closed = new Promise((resolve) => child.on('close', resolve))
      child.kill('SIGKILL')
      await closed
      assert.ok(existsSync(path.join(root, left!)), 'kill -9 leaves the directory behind')
      const next = await exec([target(), '--provider-file', fixture.providerFile, '--', 'true'], {
        XDG_RUNTIME_DIR: runtime,
      })
      assert.equal(next.code, 0, next.stderr)
      assert.deepEqual(await readdir(root), [])
    })
  })
})
