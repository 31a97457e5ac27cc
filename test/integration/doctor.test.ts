// `cpcred doctor` against the real hub and spoke: a healthy profile passes every check, and each
// broken set-up as it happens in the field fails at the link that is broken, with the hint that fixes
// it and the exit code of its class. Nothing any check prints may contain a credential.
import assert from 'node:assert/strict'
import {chmod, readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import type {CheckJson, DoctorJson} from '../../src/core/doctor/report.js'
import {
  applyProfile,
  cpcred,
  createNamespace,
  createServiceAccount,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
  writeProviderFile,
  runProgram,
  type RunResult,
} from '../helpers/env.js'
import {fakePlugin, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {createPki} from '../testenv/pki.js'

/** Shorter than the tokens' hour, so that the expiry the plugin reports stays within the token's. */
const PLUGIN_TTL_SECONDS = 1800
const STACK_TRACE = /\n\s+at .+\(.*:\d+:\d+\)|\n\s+at file:|node:internal/
const HUB_IDS = [
  'hub-kubeconfig',
  'hub-tls',
  'hub-identity',
  'hub-rbac',
  'hub-api',
  'hub-clock',
  'provider-file',
  'provider-usage',
]
const PROFILE_IDS = [
  'profile',
  'resolution',
  'plugin-command',
  'kuberc',
  'plugin-run',
  'target-tls',
  'target-auth',
  'target-access',
  'target-clock',
  'cache',
]

describe('cpcred doctor against the real hub and spoke', () => {
  let fixture: SpokeFixture
  let dir: string
  let cacheHome: string
  let hubServer: string
  let spokeServer: string
  /** Every credential made for these tests: none may ever appear in what the doctor prints. */
  const secrets: string[] = []

  before(async () => {
    // The plugin's expirationTimestamp must not outlive the token it hands out (issued now for 1h), or
    // plugin-run rightly warns; a run later in the suite would otherwise see that.
    fixture = await spokeFixture({
      prefix: 'doctor',
      pluginEnv: {PLUGIN_TTL_SECONDS: String(PLUGIN_TTL_SECONDS)},
    })
    secrets.push((await readFile(fixture.tokenFile, 'utf8')).trim())
    dir = await tempDir('cpcred-doctor-')
    cacheHome = await tempDir('cpcred-doctor-cache-')
    const {env} = await testEnv()
    hubServer = env.hub.server
    spokeServer = env.spoke.server
    // On the spoke, the fixture's identity may read pods in namespace default, and nothing else.
    const role = `doctor-${fixture.namespace}`
    for (const args of [
      ['create', 'role', role, '-n', 'default', '--verb=get,list', '--resource=pods'],
      ['create', 'rolebinding', role, '-n', 'default', `--role=${role}`, `--user=${fixture.username}`],
    ]) {
      const created = await runProgram('kubectl', ['--kubeconfig', env.spoke.kubeconfig, ...args])
      assert.equal(created.code, 0, created.stderr)
    }
  })

  const target = () => `${fixture.namespace}/target`

  /** cpcred doctor with the fixture's hub and a private cache; never prints a secret or a stack trace. */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
    const result = await cpcred(['doctor', ...args], {
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: cacheHome,
      ...env,
    })
    for (const secret of secrets) {
      // The whole token, and each of its parts (a JWT's payload and signature) on their own.
      for (const part of [secret, ...secret.split('.').filter((piece) => piece.length > 20)]) {
        assert.ok(!result.stdout.includes(part) && !result.stderr.includes(part), 'a credential was printed')
      }
    }
    assert.doesNotMatch(result.stdout + result.stderr, STACK_TRACE, 'no stack trace')
    return result
  }

  /** The -o json report; its exitCode is the process's. */
  async function report(args: string[], env: NodeJS.ProcessEnv = {}): Promise<DoctorJson> {
    const result = await run([...args, '-o', 'json'], env)
    const parsed = JSON.parse(result.stdout) as DoctorJson
    assert.equal(result.code, parsed.exitCode, `exit code; stderr:\n${result.stderr}`)
    return parsed
  }

  const allChecks = (json: DoctorJson): CheckJson[] => [
    ...json.checks,
    ...json.profiles.flatMap((profile) => profile.checks),
  ]
  const check = (json: DoctorJson, id: string): CheckJson => allChecks(json).find((entry) => entry.id === id)!

  /** Every check before `id` passed, `id` failed with this detail and hint, and the run exits `code`. */
  function expectBrokenAt(json: DoctorJson, id: string, code: number, detail: RegExp, hint: RegExp): void {
    const checks = allChecks(json)
    const failed = checks.find((entry) => entry.status === 'fail')
    assert.equal(failed?.id, id, `first failure; checks:\n${JSON.stringify(checks, null, 2)}`)
    assert.match(failed!.detail, detail)
    assert.match(failed!.hint ?? '', hint)
    assert.equal(json.exitCode, code)
    for (const earlier of checks.slice(0, checks.indexOf(failed!))) {
      assert.ok(earlier.status === 'ok' || earlier.status === 'warn', `${earlier.id} before ${id} passed`)
    }
  }

  /** A provider file whose only provider, "fake", runs the fake plugin as the fixture's does, changed. */
  async function providerFile(
    execConfig: Record<string, unknown> = {},
    env: Record<string, string> = {},
    name = 'fake',
  ) {
    return writeProviderFile(await tempDir(), [
      {
        name,
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: fakePlugin,
          env: Object.entries({
            PLUGIN_TOKEN_FILE: fixture.tokenFile,
            PLUGIN_TTL_SECONDS: String(PLUGIN_TTL_SECONDS),
            ...env,
          }).map(([key, value]) => ({
            name: key,
            value,
          })),
          provideClusterInfo: true,
          ...execConfig,
        },
      },
    ])
  }

  describe('a healthy profile', () => {
    it('passes every check, from the hub kubeconfig to the cache', async () => {
      const json = await report([target(), '--provider-file', fixture.providerFile])
      assert.equal(json.exitCode, 0)
      assert.deepEqual(
        json.checks.map((entry) => [entry.id, entry.status]),
        HUB_IDS.map((id) => [id, 'ok']),
      )
      assert.equal(json.profiles.length, 1)
      assert.equal(json.profiles[0]!.profile, target())
      assert.equal(json.profiles[0]!.status, 'ok')
      assert.deepEqual(
        json.profiles[0]!.checks.map((entry) => [entry.id, entry.status]),
        PROFILE_IDS.map((id) => [id, 'ok']),
      )
      assert.match(check(json, 'hub-identity').detail, /^you are cpcred-admin \(groups system:masters/)
      const {kubernetesVersion} = (await testEnv()).env
      assert.match(
        check(json, 'hub-tls').detail,
        /^verified \(TLSv1\.3\) against the CA in the hub kubeconfig: /,
      )
      assert.ok(check(json, 'hub-tls').detail.endsWith(`; Kubernetes ${kubernetesVersion}`))
      assert.match(
        check(json, 'hub-rbac').detail,
        new RegExp(`may get, list, watch clusterprofiles in namespace "${fixture.namespace}"`),
      )
      assert.match(check(json, 'resolution').detail, /^Chose provider "fake" \(1st of 1 configured\)/)
      // The token is described by its claims: for the spoke, from the hub, for the deployer.
      const pluginRun = check(json, 'plugin-run').detail
      assert.match(pluginRun, /^bearer token \(JWT, \d+ characters: /)
      assert.ok(
        pluginRun.includes(
          `aud ${spokeServer}, iss ${hubServer}, sub system:serviceaccount:${fixture.namespace}:deployer`,
        ),
      )
      assert.match(
        check(json, 'target-tls').detail,
        /^verified \(TLSv1\.3\) against the CA in the profile's entry for provider "fake": certificate CN=localhost/,
      )
      assert.equal(
        check(json, 'target-auth').detail,
        `accepted: you are ${fixture.username} (groups system:authenticated)`,
      )
      assert.match(check(json, 'hub-clock').detail, /^this machine's clock is within \d+s of the hub's$/)
      assert.match(
        check(json, 'target-clock').detail,
        /^this machine's clock is within \d+s of the target's$/,
      )
      assert.ok(allChecks(json).every((entry) => entry.hint === null))
    })

    it('prints one plain line per check when piped, and says that all pass', async () => {
      const result = await run([target(), '--provider-file', fixture.providerFile])
      assert.equal(result.code, 0, result.stderr)
      const lines = result.stdout.trimEnd().split('\n')
      assert.deepEqual(
        lines.slice(0, -1).map((line) => line.split(/\s+/).slice(0, 2)),
        [...[...HUB_IDS, ...PROFILE_IDS].map((id) => ['ok', id]), ['skip', 'not']],
      )
      assert.equal(lines.at(-1), 'All 18 checks pass; not done: target-can.')
      // Under a Node past its end of life (a machine's Node 20) its one warning comes first.
      const progress = result.stderr.replace(/^warning: Node v[\d.]+ reached its end of life .*\n/, '')
      assert.equal(progress, '', 'no progress line without a terminal')
    })

    it('checks only the hub and the provider file without a profile', async () => {
      const json = await report(['-n', fixture.namespace, '--provider-file', fixture.providerFile])
      assert.deepEqual(
        json.checks.map((entry) => [entry.id, entry.status]),
        HUB_IDS.map((id) => [id, 'ok']),
      )
      assert.deepEqual(json.profiles, [])
      assert.equal(
        check(json, 'provider-usage').detail,
        `1 of 1 profile in namespace "${fixture.namespace}" can be reached with your providers`,
      )
    })

    it('finds the cached credential, checks that the target still accepts it, and fails a readable entry', async () => {
      const credential = await cpcred(['credential', target(), '--provider-file', fixture.providerFile], {
        KUBECONFIG: fixture.hubKubeconfig,
        XDG_CACHE_HOME: cacheHome,
      })
      assert.equal(credential.code, 0, credential.stderr)
      const json = await report([target(), '--provider-file', fixture.providerFile])
      assert.match(
        check(json, 'cache').detail,
        /credentials\/[0-9a-f]{64}\.json \(0600\): bearer token, expires \S+, served until \S+; the target accepts it$/,
      )
      const entries = path.join(cacheHome, 'cpcred', 'credentials')
      const entry = path.join(
        entries,
        (await readdir(entries)).find((name) => name.endsWith('.json'))!,
      )
      await chmod(entry, 0o644)
      try {
        expectBrokenAt(
          await report([target(), '--provider-file', fixture.providerFile]),
          'cache',
          1,
          /is mode 0644: other users may read the cached credential of/,
          new RegExp(`cpcred cache clear ${target()}`),
        )
      } finally {
        await chmod(entry, 0o600)
      }
    })

    it('fails a cached credential that the target no longer accepts, while the plugin is fine', async () => {
      const {hub} = await testEnv()
      const tokenFile = path.join(await tempDir(), 'token')
      const wrongAudience = await serviceAccountToken(hub, fixture.namespace, 'deployer', [
        'https://elsewhere.example',
      ])
      secrets.push(wrongAudience)
      await writeFile(tokenFile, wrongAudience, {mode: 0o600})
      const file = await providerFile({}, {PLUGIN_TOKEN_FILE: tokenFile})
      const cacheEnv = {
        KUBECONFIG: fixture.hubKubeconfig,
        XDG_CACHE_HOME: await tempDir('cpcred-doctor-cache-'),
      }
      // cpcred credential caches whatever the plugin returns; the plugin then starts returning good tokens.
      assert.equal((await cpcred(['credential', target(), '--provider-file', file], cacheEnv)).code, 0)
      await writeFile(tokenFile, secrets[0]!)
      const json = await report([target(), '--provider-file', file], cacheEnv)
      assert.equal(check(json, 'target-auth').status, 'ok')
      expectBrokenAt(
        json,
        'cache',
        4,
        /^the target rejects the cached credential \(bearer token, expires/,
        new RegExp(`^remove it with 'cpcred cache clear ${target()}'$`),
      )
    })
  })

  describe('the hub', () => {
    it('says the hub cannot be reached, and checks the provider file all the same (exit 3)', async () => {
      const kubeconfig = await tokenKubeconfig(dir, 'closed', 'https://127.0.0.1:1', '', 'x')
      const json = await report([
        target(),
        '--kubeconfig',
        kubeconfig,
        '--provider-file',
        fixture.providerFile,
      ])
      expectBrokenAt(
        json,
        'hub-tls',
        3,
        /^cannot connect to https:\/\/127\.0\.0\.1:1: connection refused$/,
        /check that the hub is running and reachable from here, and the server of cluster "closed"/,
      )
      assert.equal(check(json, 'hub-identity').status, 'skip')
      assert.equal(check(json, 'provider-file').status, 'ok')
      assert.ok(json.profiles[0]!.checks.every((entry) => entry.status === 'skip'))
    })

    it("names the hub's certificate and the other CA it is checked against (exit 3)", async () => {
      const other = await createPki(await tempDir('cpcred-other-ca-'))
      const kubeconfig = await tokenKubeconfig(
        dir,
        'wrong-ca',
        hubServer,
        Buffer.from(other.caPem).toString('base64'),
        'x',
      )
      expectBrokenAt(
        await report(['--kubeconfig', kubeconfig, '--provider-file', fixture.providerFile]),
        'hub-tls',
        3,
        /\(CN=localhost, issued by CN=cpcred-testenv-ca\) is not signed by the CA in the hub kubeconfig \(CN=cpcred-testenv-ca, another CA of the same name\)$/,
        /set certificate-authority-data of cluster "wrong-ca" in the hub kubeconfig/,
      )
    })

    it('names the host names of the certificate when tls-server-name does not match (exit 3)', async () => {
      const {env} = await testEnv()
      const kubeconfig = path.join(dir, 'wrong-name.kubeconfig')
      await writeFile(
        kubeconfig,
        YAML.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [
            {
              name: 'hub',
              cluster: {
                server: hubServer,
                'certificate-authority-data': env.hub.caData,
                'tls-server-name': 'hub.internal',
              },
            },
          ],
          users: [{name: 'u', user: {token: 'x'}}],
          contexts: [{name: 'hub', context: {cluster: 'hub', user: 'u'}}],
          'current-context': 'hub',
        }),
      )
      expectBrokenAt(
        await report(['--kubeconfig', kubeconfig, '--provider-file', fixture.providerFile]),
        'hub-tls',
        3,
        /is for 127\.0\.0\.1, localhost, not hub\.internal$/,
        /tls-server-name on cluster "hub"/,
      )
    })

    it('says the hub rejected the token of the kubeconfig user (exit 4)', async () => {
      const {env} = await testEnv()
      const kubeconfig = await tokenKubeconfig(
        dir,
        'bad-token',
        hubServer,
        env.hub.caData,
        'not-a-real-token',
      )
      expectBrokenAt(
        await report(['--kubeconfig', kubeconfig, '--provider-file', fixture.providerFile]),
        'hub-identity',
        4,
        /rejected the credentials of user "bad-token" \(401 Unauthorized\)/,
        /token of the hub kubeconfig user is not valid on the hub/,
      )
    })

    it('says which RBAC is missing, for whom, and where (exit 4)', async () => {
      const {env, hub} = await testEnv()
      await createServiceAccount(hub, fixture.namespace, 'no-rbac')
      const token = await serviceAccountToken(hub, fixture.namespace, 'no-rbac')
      secrets.push(token)
      const kubeconfig = await tokenKubeconfig(
        dir,
        'no-rbac',
        hubServer,
        env.hub.caData,
        token,
        fixture.namespace,
      )
      const user = `system:serviceaccount:${fixture.namespace}:no-rbac`
      const json = await report([
        target(),
        '--kubeconfig',
        kubeconfig,
        '--provider-file',
        fixture.providerFile,
      ])
      assert.match(check(json, 'hub-identity').detail, new RegExp(`^you are ${user} `))
      expectBrokenAt(
        json,
        'hub-rbac',
        4,
        new RegExp(
          `^${user} may not get clusterprofiles\\.multicluster\\.x-k8s\\.io in namespace "${fixture.namespace}"`,
        ),
        new RegExp(
          `ask the hub administrator to grant ${user} get and list .*docs/examples/hub-consumer\\.yaml`,
        ),
      )
      assert.equal(check(json, 'profile').status, 'skip')
    })

    it('says the ClusterProfile API is not served on a cluster without the CRD (exit 3)', async () => {
      const {env} = await testEnv()
      const json = await report([
        '--kubeconfig',
        env.spoke.kubeconfig,
        '--provider-file',
        fixture.providerFile,
      ])
      expectBrokenAt(
        json,
        'hub-api',
        3,
        /^the hub does not serve the multicluster\.x-k8s\.io API: the ClusterProfile CRD is not installed$/,
        /install the ClusterProfile CRD .* or choose the hub cluster: cpcred hub use CONTEXT \(or --context\)/,
      )
      assert.equal(check(json, 'provider-usage').status, 'skip')
    })
  })

  describe('what the credential may do on the target', () => {
    it('lists what it may do in the namespace, and says that one action was not asked', async () => {
      const json = await report([target(), '--provider-file', fixture.providerFile])
      assert.equal(check(json, 'target-access').status, 'ok')
      assert.equal(check(json, 'target-access').detail, 'in namespace default may get,list pods')
      assert.deepEqual(json.profiles[0]!.notDone, [
        {id: 'target-can', why: "ask about one action with --can 'VERB RESOURCE [-n NAMESPACE]'"},
      ])
      const text = await run([target(), '--provider-file', fixture.providerFile])
      assert.match(text.stdout, /^skip\s+not done: target-can \(ask about one action with --can/m)
    })

    it('--can answers for one action: allowed, or denied with exit code 4', async () => {
      const allowed = await report([target(), '--provider-file', fixture.providerFile, '--can', 'list pods'])
      assert.equal(allowed.exitCode, 0)
      assert.equal(check(allowed, 'target-can').status, 'ok')
      assert.match(check(allowed, 'target-can').detail, /^may list pods in namespace default/)
      assert.deepEqual(allowed.profiles[0]!.notDone, [])

      const args = [target(), '--provider-file', fixture.providerFile, '--can', 'get pods -n kube-system']
      const denied = await report(args)
      assert.equal(denied.exitCode, 4)
      assert.equal(check(denied, 'target-can').status, 'fail')
      assert.match(check(denied, 'target-can').detail, /^may not get pods in namespace kube-system/)
      assert.match(check(denied, 'target-can').hint!, /Role in kube-system .* allows get on pods/)
      // The rules are listed for the namespace --can asks about: nothing there.
      assert.equal(check(denied, 'target-access').status, 'warn')
      assert.match(
        check(denied, 'target-access').detail,
        /^may do nothing in namespace kube-system but ask who it is/,
      )
      const text = await run(args)
      assert.equal(text.code, 4)
      assert.match(text.stdout, /The chain breaks at target-can/)

      const bad = await run([target(), '--can', 'get'])
      assert.equal(bad.code, 2)
      assert.match(bad.stderr, /^error: --can "get" is not VERB RESOURCE \[-n NAMESPACE\]/)
    })

    it('refuses --can without a profile, which no check would answer (exit 2)', async () => {
      const hubOnly = await run(['--provider-file', fixture.providerFile, '--can', 'list pods'])
      assert.equal(hubOnly.code, 2, hubOnly.stdout)
      assert.equal(hubOnly.stdout, '')
      assert.match(hubOnly.stderr, /^error: --can asks a target cluster, and no profile was given/m)
      assert.match(hubOnly.stderr, /select profiles with -A, -l or --all/)
    })
  })

  describe('the provider file and the plugin', () => {
    it('says which provider the profile offers and the file lacks, and warns on the unused one (exit 1)', async () => {
      const file = await providerFile({}, {}, 'other')
      const json = await report([target(), '--provider-file', file])
      assert.equal(check(json, 'provider-usage').status, 'warn')
      assert.match(
        check(json, 'provider-usage').detail,
        new RegExp(
          `^0 of 1 profile in namespace "${fixture.namespace}" can be reached with your providers: they offer "fake", your provider file has "other"$`,
        ),
      )
      expectBrokenAt(
        json,
        'resolution',
        1,
        /no provider in common for ClusterProfile .*\/target: it offers "fake"; the provider file supports "other"/,
        /Add a provider named "fake" to the provider file/,
      )
    })

    it("names a plugin that is not installed, with the provider's install hint (exit 5)", async () => {
      const file = await providerFile({
        command: 'cpcred-no-such-plugin',
        installHint: 'get it from the platform team',
      })
      const json = await report([target(), '--provider-file', file])
      expectBrokenAt(
        json,
        'plugin-command',
        5,
        /^cpcred-no-such-plugin is not in PATH \(/,
        /^get it from the platform team$/,
      )
      assert.equal(check(json, 'plugin-run').status, 'skip')
      // The target's TLS needs no credential, so it is still checked.
      assert.equal(check(json, 'target-tls').status, 'ok')
    })

    it('names a plugin file that may not be executed (exit 5)', async () => {
      const script = path.join(await tempDir(), 'plugin.sh')
      await writeFile(script, '#!/bin/sh\n', {mode: 0o644})
      expectBrokenAt(
        await report([target(), '--provider-file', await providerFile({command: script})]),
        'plugin-command',
        5,
        /is not executable \(mode 0644\)$/,
        new RegExp(`^chmod \\+x ${script}$`),
      )
    })

    it("fails a plugin that prints junk, showing its complaint and not the junk's secrets (exit 5)", async () => {
      const json = await report([target(), '--provider-file', await providerFile({}, {PLUGIN_MODE: 'junk'})])
      expectBrokenAt(
        json,
        'plugin-run',
        5,
        /^provider "fake" \(.*fake-plugin\.mjs\) gave invalid output: stdout is not JSON/,
        /logs and prompts belong on stderr/,
      )
      assert.equal(check(json, 'target-auth').status, 'skip')
    })

    it('shows the end of the stderr of a plugin that exits 1, in text too (exit 5)', async () => {
      const result = await run([target(), '--provider-file', await providerFile({}, {PLUGIN_MODE: 'exit1'})])
      assert.equal(result.code, 5)
      assert.match(
        result.stdout,
        /\nFAIL +plugin-run +provider "fake" \(.*\) exited with code 1; its stderr:\n +fake-plugin: the identity provider said no\n +hint: run the plugin by hand to see what it says; 'cpcred describe .*\/target --show-env'/,
      )
      assert.match(
        result.stdout,
        /\nskip +not checked \(they need a link that broke\): target-auth, target-access\n/,
      )
      assert.match(
        result.stdout,
        /\nThe chain breaks at plugin-run: 1 failed, 0 with warnings, 2 not checked \(exit code 5\)\.\n$/,
      )
    })

    it('stops a plugin that hangs at --plugin-timeout (exit 5)', async () => {
      expectBrokenAt(
        await report([
          target(),
          '--provider-file',
          await providerFile({}, {PLUGIN_MODE: 'hang'}),
          '--plugin-timeout',
          '1s',
        ]),
        'plugin-run',
        5,
        /did not finish within 1s and was stopped/,
        /--plugin-timeout/,
      )
    })
  })

  describe('the target', () => {
    it("explains a 401 for a token whose audience is not the target's URL (exit 4)", async () => {
      const {hub} = await testEnv()
      const tokenFile = path.join(await tempDir(), 'token')
      const token = await serviceAccountToken(hub, fixture.namespace, 'deployer', [
        'https://elsewhere.example',
      ])
      secrets.push(token)
      await writeFile(tokenFile, token, {mode: 0o600})
      const json = await report([
        target(),
        '--provider-file',
        await providerFile({}, {PLUGIN_TOKEN_FILE: tokenFile}),
      ])
      assert.match(check(json, 'plugin-run').detail, /aud https:\/\/elsewhere\.example, iss /)
      expectBrokenAt(
        json,
        'target-auth',
        4,
        new RegExp(
          `^${spokeServer} rejected the token \\(401 Unauthorized\\): its audience is https://elsewhere\\.example, not the target's URL ${spokeServer}$`,
        ),
        new RegExp(`have the plugin ask for a token with audience ${spokeServer}`),
      )
    })

    it("names the target's certificate and the profile's CA that did not sign it (exit 3)", async () => {
      const {hub} = await testEnv()
      const other = await createPki(await tempDir('cpcred-foreign-ca-'))
      await applyProfile(hub, {
        metadata: {name: 'foreign-ca', namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {
                server: spokeServer,
                'certificate-authority-data': Buffer.from(other.caPem).toString('base64'),
              },
            },
          ],
        },
      })
      const json = await report([`${fixture.namespace}/foreign-ca`, '--provider-file', fixture.providerFile])
      expectBrokenAt(
        json,
        'target-tls',
        3,
        /^the certificate of https:\/\/127\.0\.0\.1:\d+ \(CN=localhost, issued by CN=cpcred-testenv-ca\) is not signed by the CA in the profile's entry for provider "fake" \(CN=cpcred-testenv-ca, another CA of the same name\)$/,
        /^the profile's certificate-authority-data \(provider "fake"\) is not this cluster's CA: ask the cluster manager "test-manager" to publish the CA that issued it/,
      )
      assert.equal(check(json, 'plugin-run').status, 'ok')
      assert.equal(check(json, 'target-auth').status, 'skip')
    })
  })

  describe('many profiles', () => {
    let namespace: string

    before(async () => {
      const {hub} = await testEnv()
      namespace = await createNamespace(hub, 'doctor-fleet')
      const cluster = fixture.profile.status!.accessProviders![0]!.cluster!
      for (const [name, server] of [
        ['good', cluster.server],
        ['down', 'https://127.0.0.1:1'],
      ] as const) {
        await applyProfile(hub, {
          metadata: {name, namespace, labels: {'doctor-fleet': namespace}},
          spec: {clusterManager: {name: 'test-manager'}},
          status: {accessProviders: [{name: 'fake', cluster: {...cluster, server}}]},
        })
      }
    })

    it('gives every selected profile one line, and exits with the first failure (exit 3)', async () => {
      const result = await run([
        '-A',
        '-l',
        `doctor-fleet=${namespace}`,
        '--provider-file',
        fixture.providerFile,
      ])
      assert.equal(result.code, 3, result.stdout)
      const lines = result.stdout.trimEnd().split('\n')
      const header = lines.findIndex((line) => /^\s+PROFILE\s+CHECK\s+DETAIL$/.test(line))
      assert.ok(header > 0, result.stdout)
      assert.match(
        lines[header - 2]!,
        new RegExp(`^ok +profiles +2 profiles matching -l doctor-fleet=${namespace} in all namespaces$`),
      )
      assert.match(
        lines[header + 1]!,
        new RegExp(
          `^FAIL +${namespace}/down +target-tls +cannot connect to https://127\\.0\\.0\\.1:1: connection refused$`,
        ),
      )
      assert.match(
        lines[header + 2]!,
        new RegExp(`^ok +${namespace}/good +accepted: you are ${fixture.username} `),
      )
      assert.match(
        lines.at(-1)!,
        /^2 profiles: 1 pass, 1 fail \(exit code 3\)\. For the whole chain of one: cpcred doctor NAMESPACE\/NAME$/,
      )
    })

    it('reports each profile with all its checks in -o json', async () => {
      const json = await report(['--all', '-n', namespace, '--provider-file', fixture.providerFile])
      assert.deepEqual(
        json.profiles.map((profile) => [profile.profile, profile.status]),
        [
          [`${namespace}/down`, 'fail'],
          [`${namespace}/good`, 'ok'],
        ],
      )
      for (const profile of json.profiles)
        assert.deepEqual(
          profile.checks.map((entry) => entry.id),
          PROFILE_IDS,
        )
      assert.equal(json.exitCode, 3)
    })
  })

  describe('usage', () => {
    it('refuses a malformed profile name and a profile together with -l (exit 2)', async () => {
      const bad = await run(['not/a/profile'])
      assert.equal(bad.code, 2)
      assert.match(bad.stderr, /^error: "not\/a\/profile" is not a profile name\n/)
      const both = await run([target(), '-l', 'a=b'])
      assert.equal(both.code, 2)
      assert.match(both.stderr, /^error: give a PROFILE or select profiles with -l\/--all, not both\n/)
      const timeout = await run([target(), '--plugin-timeout', 'soon'])
      assert.equal(timeout.code, 2)
      assert.match(timeout.stderr, /--plugin-timeout "soon" is not a duration/)
    })
  })
})
