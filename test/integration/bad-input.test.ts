// Bad input as it comes in the field, against the real hub and spoke: broken hub kubeconfigs,
// hostile inventories, malformed provider files, misbehaving plugins (shell wrappers whose children
// hang or ignore SIGTERM), kubeconfigs that are symlinks or read-only, and exec misuse. Every case
// checks the exit-code class, a short message naming the problem, no stack trace, no credential in
// anything printed, and that nothing the user had was lost.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {STOP_GRACE_MS} from '../../src/adapters/process-group.js'
import type {ProfileCluster} from '../../src/core/profiles/cluster-profile.js'
import {RAW_CONTROL, HOSTILE} from '../helpers/controls.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createServiceAccount,
  isolatedEnv,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
  writeProviderFile,
  type RunResult,
} from '../helpers/env.js'
import {
  fakePlugin,
  KUBECTL_WHOAMI,
  pluginRecords,
  spokeFixture,
  type SpokeFixture,
} from '../helpers/fixtures.js'
import {shellScript, waitForPids, waitGone} from '../helpers/processes.js'
import {createPki} from '../testenv/pki.js'
import {INVALID_SELECTORS, VALID_SELECTORS} from '../helpers/selectors.js'

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

    for (const [what, server, problem] of [
      ['that is not a URL', 'not a url', /control characters or whitespace in the server URL/],
      ['without a scheme', 'hub.example', /the server URL is not an absolute URL/],
      [
        'with user information',
        'https://ada:hub-pass-w0rd@127.0.0.1:1',
        /user information in the server URL/,
      ],
    ] as const) {
      it(`names a hub server ${what} before any request (exit 2), never echoing it`, async () => {
        const file = await tokenKubeconfig(dir, `odd-server-${what.length}`, server, '', token)
        const result = await run(['list', '--kubeconfig', file])
        expectFailure(result, 2, /cluster "odd-server-\d+" of context "odd-server-\d+" cannot be used: /)
        assert.match(result.stderr, problem)
        assert.ok(!result.stderr.includes('hub-pass-w0rd'))
      })
    }

    it('names an HTTPS_PROXY that is not a URL (exit 3), never "report it"', async () => {
      const file = await tokenKubeconfig(dir, 'proxied', 'https://hub.invalid:6443', '', token)
      const result = await run(['list', '--kubeconfig', file], {HTTPS_PROXY: 'not a proxy'})
      expectFailure(result, 3, /the proxy in HTTPS_PROXY, HTTP_PROXY or ALL_PROXY is not a URL/)
      assert.doesNotMatch(result.stderr, /report it/)
    })

    it('lists the known contexts for an unknown --context (exit 2)', async () => {
      expectFailure(
        await run(['list', '--context', 'nope']),
        2,
        /context "nope" \(from --context\) not found.*\nknown contexts: hub/,
      )
    })

    it('says the hub cannot be reached when nothing listens there (exit 3)', async () => {
      const file = await tokenKubeconfig(dir, 'closed', 'https://127.0.0.1:1', '', 'x')
      expectFailure(
        await run(['list', '--kubeconfig', file]),
        3,
        /cannot reach the hub \(context "closed" from the current context of --kubeconfig, https:\/\/127\.0\.0\.1:1\): connection refused/,
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

    it('says the hub CA data is not a PEM certificate, not that the hub is untrusted (exit 2)', async () => {
      const file = await tokenKubeconfig(
        dir,
        'not-pem-ca',
        hub,
        Buffer.from('hello').toString('base64'),
        token,
      )
      const result = await run(['list', '--kubeconfig', file])
      expectFailure(
        result,
        2,
        /the certificate-authority-data \(base64 of PEM\) of cluster .* is not a PEM certificate/,
      )
      assert.doesNotMatch(result.stderr, /trusted CA|hub is running/)
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

    it('names a command that does not exist (exit 127, as a shell)', async () => {
      expectFailure(
        await exec([target(), '--provider-file', fixture.providerFile, '--', 'no-such-command-xyz']),
        127,
        /no-such-command-xyz: command not found/,
      )
    })

    it('names a command that cannot be started, alone (126, as a shell) and in a fan-out, never "report it"', async () => {
      const file = path.join(await tempDir(), 'not-executable')
      await writeFile(file, '#!/bin/sh\necho hi\n', {mode: 0o644})
      const one = await exec([target(), '--provider-file', fixture.providerFile, '--', file])
      expectFailure(one, 126, /not-executable: Permission denied/)
      const many = await exec([
        target(),
        target(),
        '--provider-file',
        fixture.providerFile,
        '-o',
        'json',
        '--',
        file,
      ])
      assert.notEqual(many.code, 0)
      assert.match(many.stdout, /not-executable: Permission denied/)
      assert.doesNotMatch(`${one.stderr}${many.stderr}`, /report it/)
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

    it("keeps a plugin failure's cause and a missing plugin's installHint in the summary, with --quiet too", async () => {
      const failing = await exec([
        target(),
        '--quiet',
        '--provider-file',
        await fakeMode('exit1'),
        '--',
        'true',
      ])
      assert.equal(failing.code, 1, failing.stderr)
      assert.match(
        failing.stderr,
        /\/target +5 +\S+ +provider "fake" \(.*\) exited with code 1; its stderr: fake-plugin: the identity provider said no\n/,
      )

      const reports = await tempDir('cpcred-bad-input-reports-')
      const missing = await exec([
        target(),
        '--quiet',
        '--report',
        `junit=${path.join(reports, 'fleet.xml')}`,
        '--provider-file',
        await providerFile({command: '/nonexistent/sso-login', installHint: 'brew install sso-login'}),
        '--',
        'true',
      ])
      assert.equal(missing.code, 1, missing.stderr)
      assert.match(
        missing.stderr,
        /\/target +5 +\S+ +provider "fake" \(\/nonexistent\/sso-login\): command not found: \/nonexistent\/sso-login; brew install sso-login\n/,
      )
      // The hint on a line of its own, as a newline a parser gives back.
      assert.match(
        await readFile(path.join(reports, 'fleet.xml'), 'utf8'),
        /<error message="provider &quot;fake&quot; \(\/nonexistent\/sso-login\): command not found: \/nonexistent\/sso-login&#10;brew install sso-login"/,
      )
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

  // Issue 19's classes: each case checks the exit class, a short message naming the problem, no
  // stack trace, no secret in anything printed, and that nothing the user had was lost.
  describe('hostile and odd data', () => {
    const PASSWORD = 'hunter2-s3cr3t-pw'
    const AMBIGUOUS = ['no', 'on', 'y', 'off', 'yes', '~', 'null', '0x1F', '012', '1e3', '2026-01-01']
    let spokeCa: string

    /** kubectl's reading of a kubeconfig file, or its error. */
    const kubectlView = async (file: string) => {
      const viewed = await runProgram(
        'kubectl',
        ['config', 'view', '--raw', '-o', 'json', '--kubeconfig', file],
        {
          env: isolatedEnv,
        },
      )
      assert.equal(viewed.code, 0, `kubectl cannot load ${file}: ${viewed.stderr}`)
      return JSON.parse(viewed.stdout) as Record<string, {name: string}[]>
    }

    /** A kubeconfig written by kubectl itself, with ambiguous names (kubectl quotes them). */
    const kubectlWrittenKubeconfig = async () => {
      const file = path.join(await tempDir(), 'config')
      for (const name of AMBIGUOUS) {
        for (const args of [
          ['set-cluster', name, `--server=https://${name === '~' ? 'tilde' : name}.example:6443`],
          ['set-credentials', name, `--token=token-of-${name}`],
          [
            'set-context',
            name,
            `--cluster=${name}`,
            `--user=${name}`,
            `--namespace=${name === '~' ? 'x' : name}`,
          ],
        ]) {
          const result = await runProgram('kubectl', ['config', ...args, '--kubeconfig', file], {
            env: isolatedEnv,
          })
          assert.equal(result.code, 0, result.stderr)
        }
      }
      await runProgram('kubectl', ['config', 'use-context', 'no', '--kubeconfig', file], {env: isolatedEnv})
      return {file, before: await kubectlView(file)}
    }

    /** `cpcred kubeconfig NS/target --merge --output-file FILE`, the merge these cases make. */
    const mergeTarget = (file: string) =>
      run([
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--merge',
        '--output-file',
        file,
      ])

    /** Every entry kubectl read before is still there, exactly. */
    const assertKept = (
      before: Record<string, {name: string}[]>,
      after: Record<string, {name: string}[]>,
    ) => {
      for (const kind of ['clusters', 'users', 'contexts']) {
        for (const entry of before[kind]!) {
          assert.deepEqual(
            after[kind]!.find((other) => other.name === entry.name),
            entry,
            `${kind} ${entry.name} survives`,
          )
        }
      }
    }

    const profile = async (name: string, cluster: Record<string, unknown>, providerName = 'fake') => {
      const {hub: hubConnection} = await testEnv()
      await applyProfile(hubConnection, {
        metadata: {name, namespace: fixture.namespace, labels: {odd: name}},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {accessProviders: [{name: providerName, cluster: cluster as unknown as ProfileCluster}]},
      })
      return `${fixture.namespace}/${name}`
    }

    const expectNoPassword = (result: RunResult) => {
      assert.ok(!`${result.stdout}${result.stderr}`.includes(PASSWORD), 'the password is never printed')
      assert.ok(!`${result.stdout}${result.stderr}`.includes('ada:'), 'the user information is never printed')
    }

    let userinfo: string
    before(async () => {
      const {env} = await testEnv()
      spokeCa = env.spoke.caData
      userinfo = await profile('userinfo', {
        server: spoke.replace('https://', `https://ada:${PASSWORD}@`),
        'certificate-authority-data': spokeCa,
      })
    })

    describe('kubeconfigs kubectl can always load', () => {
      it('merges into a kubectl-written kubeconfig with ambiguous names; kubectl loads it, every entry kept', async () => {
        const {file, before} = await kubectlWrittenKubeconfig()
        const result = await mergeTarget(file)
        assert.equal(result.code, 0, result.stderr)
        const after = await kubectlView(file)
        assertKept(before, after)
        assert.ok(after.contexts!.some((context) => context.name === `${fixture.namespace}/target`))
        assert.equal(after['current-context'] as unknown, 'no', 'the current context stays')
      })

      it('writes a context named "yes" to stdout so that kubectl reads the string, not a bool', async () => {
        const name = await profile(
          'ambiguous-provider',
          {server: spoke, 'certificate-authority-data': spokeCa},
          'yes',
        )
        const providers = JSON.parse(await readFile(fixture.providerFile, 'utf8')) as {providers: object[]}
        const file = await writeProviderFile(await tempDir(), [{...providers.providers[0], name: 'yes'}])
        const result = await run([
          'kubeconfig',
          name,
          '--provider-file',
          file,
          '--context-name',
          '{provider}',
        ])
        assert.equal(result.code, 0, result.stderr)
        const out = path.join(await tempDir(), 'stdout.yaml')
        await writeFile(out, result.stdout)
        const read = await kubectlView(out)
        assert.deepEqual(
          read.contexts!.map((context) => context.name),
          ['yes'],
        )
      })

      it('syncs into a kubectl-written kubeconfig with ambiguous names; kubectl loads it, every entry kept', async () => {
        const {file, before} = await kubectlWrittenKubeconfig()
        const result = await run([
          'sync',
          '-n',
          fixture.namespace,
          '-l',
          'odd=ambiguous-provider',
          '--provider-file',
          fixture.providerFile,
          '--output-file',
          file,
        ])
        assert.equal(result.code, 0, result.stderr)
        assertKept(before, await kubectlView(file))
      })
    })

    describe('a cluster entry is judged where it enters', () => {
      it('list -o wide shows an entry with user information as invalid, never the password', async () => {
        const result = await run([
          'list',
          '-n',
          fixture.namespace,
          '-l',
          'odd=userinfo',
          '-o',
          'wide',
          '--provider-file',
          fixture.providerFile,
        ])
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stdout, /<invalid: user information in the server URL>/)
        expectNoPassword(result)
      })

      it('describe shows the entry as invalid with the reason, never the password', async () => {
        const result = await run(['describe', userinfo, '--provider-file', fixture.providerFile])
        assert.equal(result.code, 0, result.stderr)
        assert.match(
          result.stdout,
          /Server:\s+<invalid: user information in the server URL> \(this entry cannot be used\)/,
        )
        assert.match(result.stdout, /is refused: user information in the server URL/)
        expectNoPassword(result)
      })

      it('describe -o json marks the entry invalid and redacts the user information', async () => {
        const result = await run([
          'describe',
          userinfo,
          '--provider-file',
          fixture.providerFile,
          '-o',
          'json',
        ])
        assert.equal(result.code, 0, result.stderr)
        const data = JSON.parse(result.stdout)
        assert.equal(data.offeredProviders[0].invalid, 'user information in the server URL')
        assert.equal(data.offeredProviders[0].server, null)
        expectNoPassword(result)
      })

      it('kubeconfig refuses it (exit 1) naming profile, provider and problem, and writes nothing', async () => {
        const file = path.join(await tempDir(), 'config')
        const result = await run([
          'kubeconfig',
          userinfo,
          '--provider-file',
          fixture.providerFile,
          '--output-file',
          file,
        ])
        expectFailure(
          result,
          1,
          /ClusterProfile .*\/userinfo: its accessProviders entry "fake" is refused: user information in the server URL/,
        )
        expectNoPassword(result)
        assert.ok(!existsSync(file))
      })

      it('exec refuses it (exit 1) and never starts the command', async () => {
        const marker = path.join(await tempDir(), 'ran')
        const result = await run([
          'exec',
          userinfo,
          '--provider-file',
          fixture.providerFile,
          '--',
          'touch',
          marker,
        ])
        expectFailure(result, 1, /user information in the server URL/)
        expectNoPassword(result)
        assert.ok(!existsSync(marker))
      })

      it('credential refuses it (exit 1) without running the plugin', async () => {
        const before = (await pluginRecords(fixture)).length
        const result = await run([
          'credential',
          userinfo,
          '--provider-file',
          fixture.providerFile,
          '--no-cache',
        ])
        expectFailure(result, 1, /user information in the server URL/)
        expectNoPassword(result)
        assert.equal((await pluginRecords(fixture)).length, before)
      })

      it('doctor fails the resolution with the reason, never the password', async () => {
        const result = await run(['doctor', userinfo, '--provider-file', fixture.providerFile])
        assert.notEqual(result.code, 0)
        assert.match(result.stdout, /user information in the server URL/)
        assert.doesNotMatch(`${result.stdout}${result.stderr}`, STACK_TRACE)
        expectNoPassword(result)
      })

      it('sync skips it with the reason, and the file stays loadable', async () => {
        const {file, before} = await kubectlWrittenKubeconfig()
        const result = await run([
          'sync',
          '-n',
          fixture.namespace,
          '-l',
          'odd=userinfo',
          '--provider-file',
          fixture.providerFile,
          '--output-file',
          file,
        ])
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /user information in the server URL/)
        expectNoPassword(result)
        assertKept(before, await kubectlView(file))
      })

      const refused: Array<[string, string, RegExp]> = [
        ['a control character', 'ctl-server', /control characters or whitespace in the server URL/],
        ['no scheme', 'no-scheme', /the server URL is not (an absolute URL|http or https)/],
        ['a relative URL', 'relative-url', /the server URL is not an absolute URL/],
      ]
      for (const [what, name, message] of refused) {
        it(`kubeconfig refuses a server URL with ${what} (exit 1)`, async () => {
          const server = {
            'ctl-server': `${spoke}/\u0007x`,
            'no-scheme': spoke.replace('https://', ''),
            'relative-url': '/api',
          }[name]!
          const ref = await profile(name, {server, 'certificate-authority-data': spokeCa})
          const result = await run(['kubeconfig', ref, '--provider-file', fixture.providerFile])
          expectFailure(result, 1, message)
          assert.match(
            result.stderr,
            new RegExp(`ClusterProfile .*/${name}: its accessProviders entry "fake" is refused`),
          )
          assert.equal(result.stdout, '')
        })
      }

      it('refuses a proxy-url that is not a URL (exit 1)', async () => {
        const ref = await profile('bad-proxy', {
          server: spoke,
          'certificate-authority-data': spokeCa,
          'proxy-url': 'ftp://proxy',
        })
        const result = await run(['kubeconfig', ref, '--provider-file', fixture.providerFile])
        expectFailure(
          result,
          1,
          /bad-proxy: its accessProviders entry "fake" is refused: the proxy URL is not http, https or socks5/,
        )
      })

      it('ignores a local certificate-authority file with a warning; kubectl loads the result', async () => {
        const ref = await profile('ca-file', {
          server: spoke,
          'certificate-authority-data': spokeCa,
          'certificate-authority': '/etc/passwd',
        })
        const file = path.join(await tempDir(), 'config')
        const result = await run([
          'kubeconfig',
          ref,
          '--provider-file',
          fixture.providerFile,
          '--output-file',
          file,
        ])
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /^warning: .*names a certificate-authority file; .* it is ignored/m)
        const read = await kubectlView(file)
        const cluster = (read.clusters![0] as unknown as {cluster: Record<string, unknown>}).cluster
        assert.equal(cluster['certificate-authority'], undefined)
      })
    })

    describe('operating-system limits', () => {
      let big: string
      before(async () => {
        // Far past Linux's 128 KiB limit for one environment variable: KUBERNETES_EXEC_INFO carries it.
        big = await profile('big-exec', {
          server: spoke,
          'certificate-authority-data': spokeCa,
          extensions: [{name: 'client.authentication.k8s.io/exec', extension: {blob: 'a'.repeat(300_000)}}],
        })
      })

      it('credential names profile, provider and sizes for E2BIG (exit 5), never "report it"', async () => {
        const result = await run(['credential', big, '--provider-file', fixture.providerFile, '--no-cache'])
        expectFailure(
          result,
          5,
          /provider "fake" .* for ClusterProfile .*\/big-exec could not be started: its arguments and environment \(\d+ bytes, KUBERNETES_EXEC_INFO \d+ bytes\) exceed the operating system's limit \(E2BIG\)/,
        )
        assert.doesNotMatch(result.stderr, /report it/)
      })

      it('exec stops at E2BIG (exit 5) and never starts the command', async () => {
        const marker = path.join(await tempDir(), 'ran')
        const result = await run([
          'exec',
          big,
          '--provider-file',
          fixture.providerFile,
          '--no-cache',
          '--',
          'touch',
          marker,
        ])
        expectFailure(result, 5, /E2BIG/)
        assert.doesNotMatch(result.stderr, /report it/)
        assert.ok(!existsSync(marker))
      })
    })

    describe('files read back and files made new', () => {
      /** A cached credential for the target, and the cache entry's path. */
      const cached = async () => {
        const home = await tempDir()
        const first = await run(
          ['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile],
          {XDG_CACHE_HOME: home},
        )
        assert.equal(first.code, 0, first.stderr)
        const dir = path.join(home, 'cpcred', 'credentials')
        const entries = (await readdir(dir)).filter((name) => name.endsWith('.json'))
        assert.equal(entries.length, 1)
        return {home, entry: path.join(dir, entries[0]!)}
      }
      const again = (home: string) =>
        run(['credential', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '-v'], {
          XDG_CACHE_HOME: home,
        })

      it('never writes a credential through a cache entry replaced by a symlink', async () => {
        const {home, entry} = await cached()
        const victim = path.join(await tempDir(), 'victim')
        await writeFile(victim, 'precious\n')
        await rm(entry)
        await symlink(victim, entry)
        const before = (await pluginRecords(fixture)).length
        const result = await again(home)
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /it is a symbolic link/)
        assert.equal((await pluginRecords(fixture)).length - before, 1, 'the plugin ran instead')
        assert.equal(await readFile(victim, 'utf8'), 'precious\n', 'the link target is untouched')
        assert.ok((await lstat(entry)).isFile())
        assert.equal((await stat(entry)).mode & 0o777, 0o600)
        assertNoSecret({...result, stdout: ''})
      })

      it('does not serve a cache entry others may read, and replaces it with a private one', async () => {
        const {home, entry} = await cached()
        await chmod(entry, 0o644)
        const before = (await pluginRecords(fixture)).length
        const result = await again(home)
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /others may read or write it \(mode 0644\)/)
        assert.equal((await pluginRecords(fixture)).length - before, 1)
        assert.equal((await stat(entry)).mode & 0o777, 0o600)
      })

      for (const kind of ['junit', 'json']) {
        it(`refuses a ${kind} report path that is a symlink, and leaves its target as it was`, async () => {
          const dir = await tempDir()
          const victim = path.join(dir, 'victim')
          await writeFile(victim, 'precious\n')
          const report = path.join(dir, `report.${kind}`)
          await symlink(victim, report)
          const result = await run([
            'exec',
            `${fixture.namespace}/target`,
            '--provider-file',
            fixture.providerFile,
            '--report',
            `${kind}=${report}`,
            '--',
            'true',
          ])
          assert.notEqual(result.code, 0)
          assert.match(result.stderr, /report\.\w+ is a symbolic link; cpcred does not write through it/)
          assert.doesNotMatch(result.stderr, STACK_TRACE)
          assert.equal(await readFile(victim, 'utf8'), 'precious\n')
          assert.ok((await lstat(report)).isSymbolicLink())
        })
      }
    })

    describe('relative plugin commands', () => {
      /** A directory with bin/plugin, a wrapper around the fake plugin with the fixture's token. */
      const pluginDir = async () => {
        const dir = await tempDir()
        await mkdir(path.join(dir, 'bin'))
        const plugin = path.join(dir, 'bin', 'plugin')
        await writeFile(
          plugin,
          `#!/bin/sh\nPLUGIN_TOKEN_FILE='${fixture.tokenFile}' PLUGIN_RECORD='${fixture.recordFile}' exec '${process.execPath}' '${fakePlugin}'\n`,
        )
        await chmod(plugin, 0o755)
        return dir
      }

      it('resolves ./bin/plugin against the provider file; the kubeconfig works from anywhere', async () => {
        const dir = await pluginDir()
        const file = await writeProviderFile(dir, [
          {
            name: 'fake',
            execConfig: {
              apiVersion: 'client.authentication.k8s.io/v1',
              command: './bin/plugin',
              provideClusterInfo: true,
            },
          },
        ])
        const kubeconfig = path.join(await tempDir(), 'elsewhere', 'config')
        const result = await run([
          'kubeconfig',
          `${fixture.namespace}/target`,
          '--provider-file',
          file,
          '--output-file',
          kubeconfig,
          '--no-pin-hub',
        ])
        assert.equal(result.code, 0, result.stderr)
        const read = await kubectlView(kubeconfig)
        const exec = (read.users![0] as unknown as {user: {exec: {command: string}}}).user.exec
        assert.equal(exec.command, path.join(dir, 'bin', 'plugin'))
        const whoami = await runProgram(
          'kubectl',
          ['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'json'],
          {env: isolatedEnv, cwd: os.tmpdir()},
        )
        assert.equal(whoami.code, 0, whoami.stderr)
        assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
      })

      it('resolves an inline --access-provider ./bin/plugin against the working directory', async () => {
        const dir = await pluginDir()
        const result = await runProgram(
          process.execPath,
          [
            cpcredBin,
            'credential',
            `${fixture.namespace}/target`,
            '--access-provider',
            'fake=./bin/plugin',
            '--no-cache',
          ],
          {env: {...isolatedEnv, KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome}, cwd: dir},
        )
        assert.equal(result.code, 0, result.stderr)
        assert.equal(JSON.parse(result.stdout).status.token, token)
      })
    })

    describe('selectors, checked before any request', () => {
      const hubKubectl = (args: string[]) =>
        runProgram(
          'kubectl',
          ['--kubeconfig', fixture.hubKubeconfig, 'get', 'clusterprofiles', '-n', fixture.namespace, ...args],
          {env: isolatedEnv},
        )

      for (const [selector, problem] of INVALID_SELECTORS) {
        it(`refuses -l ${JSON.stringify(selector)} (exit 2), as the API server does`, async () => {
          const result = await run(['list', '-n', fixture.namespace, '-l', selector])
          expectFailure(
            result,
            2,
            new RegExp(
              `-l ${JSON.stringify(selector).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} is not a label selector: `,
            ),
          )
          assert.match(result.stderr, problem)
          assert.equal(result.stdout, '')
          assert.notEqual((await hubKubectl(['-l', selector])).code, 0, 'the API server refuses it too')
        })
      }

      it('accepts every selector the API server accepts', async () => {
        for (const selector of VALID_SELECTORS) {
          assert.equal((await hubKubectl(['-l', selector])).code, 0, `the API server accepts ${selector}`)
          const result = await run(['list', '-n', fixture.namespace, '-l', selector, '-o', 'name'])
          assert.equal(result.code, 0, `${selector}: ${result.stderr}`)
        }
      })

      it('exec refuses a bad selector (exit 2) before running any plugin', async () => {
        const before = (await pluginRecords(fixture)).length
        const result = await run([
          'exec',
          '-l',
          'env in prod',
          '--provider-file',
          fixture.providerFile,
          '--',
          'true',
        ])
        expectFailure(result, 2, /-l "env in prod" is not a label selector/)
        assert.equal((await pluginRecords(fixture)).length, before)
      })
    })

    describe("kubectl's lock files", () => {
      it('names a stale kubectl lock, its age and the file to remove, within seconds; the kubeconfig stays', async () => {
        const {file} = await kubectlWrittenKubeconfig()
        const content = await readFile(file, 'utf8')
        await writeFile(`${file}.lock`, '')
        const old = new Date(Date.now() - 10 * 60_000)
        await utimes(`${file}.lock`, old, old)
        const started = Date.now()
        const result = await mergeTarget(file)
        assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`)
        expectFailure(result, 1, /config\.lock is a lock file left by kubectl 10m ago/)
        assert.match(result.stderr, new RegExp(`rm ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\.lock`))
        assert.doesNotMatch(result.stderr, /another cpcred|ENOTDIR|rmdir/)
        assert.equal(await readFile(file, 'utf8'), content)
      })

      it('waits out a kubectl lock that is released, then merges', async () => {
        const {file, before} = await kubectlWrittenKubeconfig()
        await writeFile(`${file}.lock`, '')
        setTimeout(() => void rm(`${file}.lock`, {force: true}), 700)
        const result = await mergeTarget(file)
        assert.equal(result.code, 0, result.stderr)
        assertKept(before, await kubectlView(file))
      })
    })

    describe("secrets in a plugin's stderr", () => {
      it("credential shows a successful plugin's stderr with the token it returned redacted", async () => {
        const file = await fakeMode('leaky')
        const result = await run([
          'credential',
          `${fixture.namespace}/target`,
          '--provider-file',
          file,
          '--no-cache',
        ])
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /fake-plugin: got token <redacted> from the identity provider/)
        assert.ok(!result.stderr.includes(token), 'the token is not on stderr')
      })

      it('exec shows it redacted too, and the command still gets the credential', async () => {
        const file = await fakeMode('leaky')
        const result = await run([
          'exec',
          `${fixture.namespace}/target`,
          '--provider-file',
          file,
          '--no-cache',
          '--',
          ...KUBECTL_WHOAMI,
        ])
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stderr, /got token <redacted>/)
        assertNoSecret(result)
        assert.equal(JSON.parse(result.stdout).status.userInfo.username, fixture.username)
      })
    })

    it('doctor takes --no-cache and leaves the cache unread', async () => {
      const result = await run([
        'doctor',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--no-cache',
      ])
      assert.equal(result.code, 0, `${result.stdout}${result.stderr}`)
      assert.match(result.stdout, /not read \(--no-cache\)/)
      assertNoSecret(result)
    })
  })
})
