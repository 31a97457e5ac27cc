// A hub outage on a hub and spoke of their own: the hub's kube-apiserver is stopped while the spoke
// runs, and `--mode cpcred` kubeconfigs and `cpcred exec` keep working from the last profile read
// and the cached credential, within --profile-max-stale, and say so; past it they fail clearly; a
// credential the target rejects is not made to look good by the stale path.
import assert from 'node:assert/strict'
import {readFile, writeFile} from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import YAML from 'yaml'
import {kubeCall, type Connection} from '../testenv/http.js'
import {
  adminConnection,
  down,
  requestServiceAccountToken,
  startApiserverAgain,
  stopApiserver,
  up,
  type TestEnv,
} from '../testenv/testenv.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createServiceAccount,
  repoRoot,
  runProgram,
  isolatedEnv,
  tempDir,
  writeProviderFile,
} from '../helpers/env.js'
import {fakePlugin, tokenRequestProfileOf} from '../helpers/fixtures.js'
import {eventually, follow} from '../helpers/following.js'
import {runOnTty} from '../helpers/tty.js'
import {spawn} from 'node:child_process'

const namespace = 'fleet'

describe('a hub outage: --mode cpcred kubeconfigs and exec carry on within --profile-max-stale', () => {
  let env: TestEnv
  let hub: Connection
  let dir: string
  let providerFile: string
  let cacheHome: string
  let kubeconfig: string
  let username: string

  before(async () => {
    dir = await tempDir('cpcred-outage-')
    env = await up(path.join(dir, 'env'))
    hub = await adminConnection(env.hub)
    await kubeCall(hub, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {name: namespace},
    })
    await createServiceAccount(hub, namespace, 'deployer')
    username = `hub:system:serviceaccount:${namespace}:deployer`
    const goodToken = path.join(dir, 'good-token')
    await writeFile(
      goodToken,
      await requestServiceAccountToken(hub, namespace, 'deployer', [env.spoke.server], 3600),
      {mode: 0o600},
    )
    // A credential the target no longer accepts (revoked, or its signing key rotated).
    const revokedToken = path.join(dir, 'revoked-token')
    await writeFile(revokedToken, 'revoked-0123456789', {mode: 0o600})
    const plugin = (name: string, tokenFile: string) => ({
      name,
      execConfig: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: fakePlugin,
        env: [{name: 'PLUGIN_TOKEN_FILE', value: tokenFile}],
      },
    })
    providerFile = await writeProviderFile(dir, [plugin('fake', goodToken), plugin('revoked', revokedToken)])
    for (const [name, provider] of [
      ['eu', 'fake'],
      ['revoked', 'revoked'],
    ] as const) {
      await applyProfile(hub, {
        metadata: {name, namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: provider,
              cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData},
            },
          ],
        },
      })
    }
    cacheHome = await tempDir('cpcred-cache-')
  })
  after(() => down(path.join(dir, 'env')))

  const run = (args: string[]) => cpcred(args, {KUBECONFIG: env.hub.kubeconfig, XDG_CACHE_HOME: cacheHome})
  // A profile read more than a second ago is read again, so the test need not wait out 30 s.
  const exec = (profile: string, ...args: string[]) =>
    run([
      'exec',
      `${namespace}/${profile}`,
      '--provider-file',
      providerFile,
      '--profile-max-age',
      '1s',
      ...args,
      '--',
      'kubectl',
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    ])
  const kubectl = () =>
    runProgram(
      'kubectl',
      ['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'],
      {
        env: {...isolatedEnv, XDG_CACHE_HOME: cacheHome},
      },
    )
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const warnings = (stderr: string) =>
    stderr.split('\n').filter((line) => /unreachable|cannot reach/.test(line))

  it('serves kubectl and exec from the last profile and the cached credential while the hub is down', async () => {
    const written = await run([
      'kubeconfig',
      `${namespace}/eu`,
      '--mode',
      'cpcred',
      '--provider-file',
      providerFile,
    ])
    assert.equal(written.code, 0, written.stderr)
    const document = YAML.parse(written.stdout) as {users: {user: {exec: {args: string[]}}}[]}
    document.users[0]!.user.exec.args.push('--profile-max-age=1s')
    kubeconfig = path.join(dir, 'cpcred-mode.kubeconfig')
    await writeFile(kubeconfig, YAML.stringify(document), {mode: 0o600})

    // With the hub up: profiles read, credentials cached (and the revoked one too: the plugin gave it).
    const before = await kubectl()
    assert.equal(before.code, 0, before.stderr)
    assert.equal(before.stdout, username)
    assert.equal((await exec('eu')).code, 0)
    const revokedBefore = await exec('revoked')
    assert.notEqual(revokedBefore.code, 0, 'the target rejects the revoked credential')

    await stopApiserver(env, 'hub')
    try {
      await pause(1200)
      const viaKubectl = await kubectl()
      assert.equal(viaKubectl.code, 0, viaKubectl.stderr)
      assert.equal(viaKubectl.stdout, username)
      assert.match(viaKubectl.stderr, /cannot reach the hub .*connection refused/)
      assert.match(viaKubectl.stderr, /as read \d+s ago \(--profile-max-stale 24h0m0s\)/)

      const viaExec = await exec('eu')
      assert.equal(viaExec.code, 0, viaExec.stderr)
      assert.equal(viaExec.stdout, username)
      assert.equal(warnings(viaExec.stderr).length, 1, `one warning, not one per step:\n${viaExec.stderr}`)

      // doctor names the outage and what credential and exec do meanwhile.
      const doctor = await run(['doctor', `${namespace}/eu`, '--provider-file', providerFile])
      assert.equal(doctor.code, 3, doctor.stderr)
      assert.match(doctor.stdout, /FAIL\s+hub-tls\s+cannot connect to .*connection refused/)
      assert.match(
        doctor.stdout,
        /meanwhile cpcred credential and exec use fleet\/eu as read \d+s ago \(--profile-max-stale 24h0m0s: \d+h\d*m? more\)/,
      )

      // The revoked credential is not masked: the target's 401 is what the user sees.
      const revoked = await exec('revoked')
      assert.notEqual(revoked.code, 0, revoked.stderr)
      assert.match(revoked.stderr, /Unauthorized|must be logged in/)

      // Past --profile-max-stale: a clear failure, exit code 3, the flag named.
      await pause(1100)
      const tooOld = await exec('eu', '--profile-max-stale', '1s')
      assert.equal(tooOld.code, 3, tooOld.stderr)
      assert.match(
        tooOld.stderr,
        /cannot reach the hub .*read \d+s ago, longer than --profile-max-stale 1s allows/,
      )
      const never = await run([
        'credential',
        `${namespace}/eu`,
        '--provider-file',
        providerFile,
        '--profile-max-age',
        '1s',
        '--profile-max-stale',
        '0s',
      ])
      assert.equal(never.code, 3, never.stderr)
      assert.doesNotMatch(never.stdout, /token/)
    } finally {
      await startApiserverAgain(env, 'hub')
    }

    // The hub is back: the profile is read from it again, and nothing is said.
    await pause(1100)
    const after = await exec('eu')
    assert.equal(after.code, 0, after.stderr)
    assert.deepEqual(warnings(after.stderr), [])
  })

  it("--mode plugin: a provider's own plugin never reads the hub; the built-in ones read it on every call and fail while it is down, as the README says", async () => {
    const pluginDir = await tempDir('cpcred-outage-plugin-')
    const providers = await writeProviderFile(pluginDir, [
      {
        name: 'fake',
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: fakePlugin,
          env: [{name: 'PLUGIN_TOKEN_FILE', value: path.join(dir, 'good-token')}],
        },
      },
      {
        name: 'token-request',
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [cpcredBin, 'plugin', 'token-request'],
          provideClusterInfo: true,
          interactiveMode: 'Never',
        },
      },
    ])
    await applyProfile(
      hub,
      tokenRequestProfileOf(
        env.spoke,
        {namespace, name: 'built-in'},
        {serviceAccount: 'deployer', namespace},
      ),
    )
    const pluginKubeconfig = async (profile: string) => {
      const written = await run([
        'kubeconfig',
        `${namespace}/${profile}`,
        '--mode',
        'plugin',
        '--provider-file',
        providers,
      ])
      assert.equal(written.code, 0, written.stderr)
      const file = path.join(pluginDir, `${profile}.kubeconfig`)
      await writeFile(file, written.stdout, {mode: 0o600})
      return file
    }
    const whoami = (file: string) =>
      runProgram(
        'kubectl',
        ['--kubeconfig', file, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'],
        {
          env: {...isolatedEnv, XDG_CACHE_HOME: cacheHome},
        },
      )
    const own = await pluginKubeconfig('eu')
    const builtIn = await pluginKubeconfig('built-in')
    for (const file of [own, builtIn]) {
      const before = await whoami(file)
      assert.equal(before.code, 0, before.stderr)
      assert.equal(before.stdout, username)
    }

    await stopApiserver(env, 'hub')
    try {
      const viaOwn = await whoami(own)
      assert.equal(viaOwn.code, 0, viaOwn.stderr)
      assert.equal(viaOwn.stdout, username)
      const viaBuiltIn = await whoami(builtIn)
      assert.notEqual(viaBuiltIn.code, 0, viaBuiltIn.stdout)
      assert.match(viaBuiltIn.stderr, /cannot reach the hub .*connection refused/)
    } finally {
      await startApiserverAgain(env, 'hub')
    }

    // The README's outage paragraph says the same, for each kind of kubeconfig and plugin.
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('**A hub outage does not stop the fleet.**'))
    const outage = section.slice(0, section.indexOf('\n## ')).replace(/\s+/g, ' ')
    assert.doesNotMatch(outage, /never read the hub and are not affected/)
    assert.match(
      outage,
      /`--mode plugin` kubeconfigs .* With a plugin of the provider's own that does not read the hub .* an outage does not touch them/,
    )
    assert.match(
      outage,
      /the built-in plugins \(`cpcred plugin token-request`, `cpcred plugin secretreader`\) read the hub on every kubectl call .* fail while it is down/,
    )
  })

  it('never uses the stale copy without a cached credential, nor for another hub identity', async () => {
    // A profile read once but whose credential was never cached: it was read with --no-cache.
    const fresh = await tempDir('cpcred-cache-')
    const read = await cpcred(
      ['credential', `${namespace}/eu`, '--provider-file', providerFile, '--cache-ttl', '0s'],
      {KUBECONFIG: env.hub.kubeconfig, XDG_CACHE_HOME: fresh},
    )
    assert.equal(read.code, 0, read.stderr)
    // The same hub under another user is another identity, with snapshots of its own.
    const otherUser = path.join(dir, 'other-user.kubeconfig')
    const hubConfig = YAML.parse(await readFile(env.hub.kubeconfig, 'utf8')) as {
      users: {name: string; user: Record<string, unknown>}[]
    }
    hubConfig.users[0]!.user = {token: 'someone-else'}
    await writeFile(otherUser, YAML.stringify(hubConfig), {mode: 0o600})

    await stopApiserver(env, 'hub')
    try {
      const args = [
        'credential',
        `${namespace}/eu`,
        '--provider-file',
        providerFile,
        '--profile-max-age',
        '0s',
      ]
      const noCredential = await cpcred(args, {KUBECONFIG: env.hub.kubeconfig, XDG_CACHE_HOME: fresh})
      assert.equal(noCredential.code, 3, noCredential.stderr)
      assert.match(noCredential.stderr, /no credential for fleet\/eu is left in the cache/)
      const otherIdentity = await cpcred(args, {KUBECONFIG: otherUser, XDG_CACHE_HOME: cacheHome})
      assert.equal(otherIdentity.code, 3, otherIdentity.stderr)
      assert.match(otherIdentity.stderr, /cannot reach the hub/)
      assert.doesNotMatch(otherIdentity.stderr, /as read/)
    } finally {
      await startApiserverAgain(env, 'hub')
    }
  })

  it('list -w is not cut by --request-timeout: the watch only has to start within it', async () => {
    const watching = follow(['list', '-w', '-n', namespace, '--request-timeout', '1s'], {
      KUBECONFIG: env.hub.kubeconfig,
      XDG_CACHE_HOME: cacheHome,
    })
    try {
      await eventually('the first table', async () => (watching.stdout().includes('eu') ? true : undefined))
      // Well past the request timeout, the watch still runs and shows a new profile.
      await pause(3000)
      await applyProfile(hub, {
        metadata: {name: 'late', namespace},
        spec: {clusterManager: {name: 'test-manager'}},
      })
      await eventually('the new profile', async () =>
        /^.*\blate\b/m.test(watching.stdout()) ? true : undefined,
      )
      assert.equal(watching.child.exitCode, null, watching.stderr())
      assert.doesNotMatch(watching.stderr(), /request-timeout|cannot reach/)
    } finally {
      await watching.stop()
      await kubeCall(
        hub,
        'DELETE',
        `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles/late`,
      )
    }
  })

  it('falls back on a hub that stops answering (a timeout), and never on one that answers 403', async () => {
    // A reader of the fleet's profiles, reaching the hub through a proxy that can go silent.
    await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {name: 'reader'},
    })
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`
    await kubeCall(hub, 'POST', `${rbac}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {name: 'profile-reader'},
      rules: [{apiGroups: ['multicluster.x-k8s.io'], resources: ['clusterprofiles'], verbs: ['get', 'list']}],
    })
    await kubeCall(hub, 'POST', `${rbac}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {name: 'profile-reader'},
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'profile-reader'},
      subjects: [{kind: 'ServiceAccount', name: 'reader', namespace}],
    })
    const readerToken = await requestServiceAccountToken(hub, namespace, 'reader', [], 3600)
    let silent = false
    const held: net.Socket[] = []
    const proxy = net.createServer((socket) => {
      held.push(socket)
      if (silent) return
      const upstream = net.connect(Number(new URL(env.hub.server).port), '127.0.0.1')
      held.push(upstream)
      socket.pipe(upstream).pipe(socket)
      upstream.on('error', () => socket.destroy())
      socket.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const proxyPort = (proxy.address() as net.AddressInfo).port
    const readerKubeconfig = path.join(dir, 'reader.kubeconfig')
    await writeFile(
      readerKubeconfig,
      YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'hub',
            cluster: {server: `https://127.0.0.1:${proxyPort}`, 'certificate-authority-data': env.hub.caData},
          },
        ],
        users: [{name: 'reader', user: {token: readerToken}}],
        contexts: [{name: 'hub', context: {cluster: 'hub', user: 'reader', namespace}}],
        'current-context': 'hub',
      }),
      {mode: 0o600},
    )
    const readerCache = await tempDir('cpcred-cache-')
    const credential = () =>
      cpcred(['credential', `${namespace}/eu`, '--provider-file', providerFile, '--profile-max-age', '0s'], {
        KUBECONFIG: readerKubeconfig,
        XDG_CACHE_HOME: readerCache,
      })
    try {
      const first = await credential()
      assert.equal(first.code, 0, first.stderr)
      assert.deepEqual(warnings(first.stderr), [])

      silent = true
      for (const socket of held.splice(0)) socket.destroy()
      const timedOut = await credential()
      assert.equal(timedOut.code, 0, timedOut.stderr)
      assert.match(
        timedOut.stderr,
        /cannot reach the hub .*timed out; using ClusterProfile fleet\/eu as read/,
      )
      assert.equal(JSON.parse(timedOut.stdout).kind, 'ExecCredential')

      // The hub answers again, and refuses: that is not an outage, and the copy is not used.
      silent = false
      await kubeCall(hub, 'DELETE', `${rbac}/rolebindings/profile-reader`)
      let denied = await credential()
      for (let tries = 0; denied.code === 0 && tries < 20; tries++) {
        await pause(250)
        denied = await credential()
      }
      assert.equal(denied.code, 4, denied.stderr)
      assert.match(denied.stderr, /forbidden|cannot get/)
      assert.doesNotMatch(denied.stderr, /as read/)
      assert.equal(denied.stdout, '')
    } finally {
      for (const socket of held) socket.destroy()
      proxy.close()
    }
  })
})

describe('a hub that accepts connections and never answers: --request-timeout', () => {
  let hung: net.Server
  const held: net.Socket[] = []
  let dir: string
  let kubeconfig: string
  let server: string

  before(async () => {
    // The hub of this test: a TCP server that takes every connection and never says a word (no
    // TLS handshake, no HTTP answer), as a hub stuck behind a load balancer does.
    hung = net.createServer((socket) => void held.push(socket))
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
    server = `https://127.0.0.1:${(hung.address() as net.AddressInfo).port}`
    dir = await tempDir('cpcred-hung-hub-')
    kubeconfig = path.join(dir, 'hub.kubeconfig')
    await writeFile(
      kubeconfig,
      YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{name: 'hung', cluster: {server, 'insecure-skip-tls-verify': true}}],
        users: [{name: 'ci', user: {token: 'not-a-secret-0123456789'}}],
        contexts: [{name: 'hung-hub', context: {cluster: 'hung', user: 'ci', namespace}}],
        'current-context': 'hung-hub',
      }),
      {mode: 0o600},
    )
  })
  after(async () => {
    for (const socket of held) socket.destroy()
    await new Promise((resolve) => hung.close(resolve))
  })

  /** cpcred against the hung hub, stopped (SIGKILL) if it outlives `killAfterMs`: code, stderr, time taken. */
  const timed = (args: string[], killAfterMs: number) =>
    new Promise<{code: number | null; stdout: string; stderr: string; ms: number}>((resolve) => {
      const started = Date.now()
      const child = spawn(process.execPath, [cpcredBin, ...args], {
        env: {...isolatedEnv, KUBECONFIG: kubeconfig},
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
      child.on('close', (code) => {
        clearTimeout(killer)
        resolve({code, stdout, stderr, ms: Date.now() - started})
      })
    })
  const hubNamed = (timeout: string) =>
    new RegExp(
      `^error: cannot reach the hub \\(context "hung-hub" from kubectl's current context, ${server.replace(/\./g, '\\.')}\\): no answer within ${timeout} \\(--request-timeout\\)\n.*--request-timeout`,
    )

  it('list, a fan-out and exec --no-cache give up after --request-timeout: exit 3, naming the hub, what chose it, the timeout and the flag', async () => {
    const commands = [
      ['list', '--request-timeout', '2s'],
      ['exec', '-A', '--all', '--request-timeout=2s', '--', 'true'],
      ['exec', '--no-cache', `${namespace}/eu`, '--request-timeout', '2', '--', 'true'],
    ]
    const runs = await Promise.all(commands.map((args) => timed(args, 20_000)))
    for (const [index, run] of runs.entries()) {
      const what = commands[index]!.join(' ')
      assert.equal(run.code, 3, `${what}: ${run.stderr}`)
      assert.match(run.stderr, hubNamed('2s'), what)
      assert.equal(run.stdout, '', what)
      assert.ok(run.ms >= 2000 && run.ms < 10_000, `${what} took ${run.ms} ms`)
      // No terminal: no status line in the log.
      assert.doesNotMatch(run.stderr, /waiting for/, what)
    }
  })

  it('without the flag, gives up after the documented default of 30s', async () => {
    const run = await timed(['list'], 60_000)
    assert.equal(run.code, 3, run.stderr)
    assert.match(run.stderr, hubNamed('30s'))
    assert.ok(run.ms >= 30_000 && run.ms < 40_000, `took ${run.ms} ms`)
    const commands = await readFile(path.join(repoRoot, 'docs', 'commands.md'), 'utf8')
    assert.match(commands, /--request-timeout=<value>\s+\[default: 30s\]/)
  })

  it("refuses what kubectl's --request-timeout grammar does not read, as usage errors", async () => {
    for (const value of ['abc', '-1s', '1.5', '5 s']) {
      const run = await timed(['list', `--request-timeout=${value}`], 20_000)
      assert.equal(run.code, 2, `${value}: ${run.stderr}`)
      assert.match(
        run.stderr,
        new RegExp(
          `--request-timeout "${value.replace('.', '\\.')}" is (not a timeout|negative): write a whole number of seconds, or a number with a unit \\(e\\.g\\. 1s, 2m, 3h\\); 0 means no timeout`,
        ),
      )
      assert.ok(run.ms < 10_000, `${value} took ${run.ms} ms`)
    }
  })

  it('says on a terminal what it is waiting for, after a few seconds', async () => {
    const tty = runOnTty([process.execPath, cpcredBin, 'list', '--request-timeout', '8s'], {
      ...isolatedEnv,
      KUBECONFIG: kubeconfig,
    })
    const started = Date.now()
    await tty.waitFor(`waiting for the hub (context "hung-hub" from kubectl's current context, ${server})`)
    const shownAfter = Date.now() - started
    assert.ok(shownAfter >= 2500 && shownAfter < 7500, `shown after ${shownAfter} ms`)
    const {code, output} = await tty.exited
    assert.equal(code, 3, output)
    assert.match(output, /no answer within 8s \(--request-timeout\)/)
  })
})
