// `cpcred exec` under kubectl's credential plugin policy (kuberc, kubectl.config.k8s.io/v1beta1
// Preference): the kubeconfig it hands the command must work when kubectl refuses every plugin
// (DenyAll) or all but the user's own (Allowlist). Real kubectl, real kuberc files, the real spoke.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {copyFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {
  cpcred,
  cpcredBin,
  createServiceAccount,
  isolatedEnv,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
} from '../helpers/env.js'
import {
  fakePlugin,
  KUBECTL_WHOAMI,
  pluginRecords,
  spokeFixture,
  type SpokeFixture,
} from '../helpers/fixtures.js'
import {createClientCertificate, type Pki} from '../testenv/pki.js'

async function writeKuberc(dir: string, name: string, policy: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `${name}.kuberc`)
  const preference = {apiVersion: 'kubectl.config.k8s.io/v1beta1', kind: 'Preference', ...policy}
  await writeFile(file, JSON.stringify(preference, null, 2), {mode: 0o600})
  return file
}

const username = (stdout: string) =>
  (JSON.parse(stdout) as {status: {userInfo: {username: string}}}).status.userInfo.username

describe('cpcred exec under kubectl credential plugin policies', () => {
  let fixture: SpokeFixture
  let kuberc: {denyAll: string; allowlist: string}

  before(async () => {
    fixture = await spokeFixture({prefix: 'kuberc'})
    const dir = await tempDir('cpcred-kuberc-')
    kuberc = {
      denyAll: await writeKuberc(dir, 'deny-all', {credentialPluginPolicy: 'DenyAll'}),
      // Only the plugin the user knows of: the provider's.
      allowlist: await writeKuberc(dir, 'allowlist', {
        credentialPluginPolicy: 'Allowlist',
        credentialPluginAllowlist: [{command: fakePlugin}],
      }),
    }
    // The kubectl under test enforces kuberc policies: it refuses an exec user under DenyAll.
    const refused = await runProgram(
      'kubectl',
      ['--kubeconfig', await execUserKubeconfig(dir), 'get', '--raw', '/readyz'],
      {
        env: {...isolatedEnv, KUBERC: kuberc.denyAll},
      },
    )
    assert.notEqual(refused.code, 0, 'kubectl refused an exec credential plugin under DenyAll')
    assert.match(refused.stderr, /not (allowed|permitted)/)
  })

  const whoami = (policy: string, extraEnv: NodeJS.ProcessEnv = {}, target = fixture) =>
    cpcred(
      ['exec', `${target.namespace}/target`, '--provider-file', target.providerFile, '--', ...KUBECTL_WHOAMI],
      {KUBECONFIG: target.hubKubeconfig, XDG_CACHE_HOME: extraEnv.XDG_CACHE_HOME, KUBERC: policy},
    )

  for (const policy of ['denyAll', 'allowlist'] as const) {
    it(`runs kubectl auth whoami as the plugin's identity under ${policy === 'denyAll' ? 'DenyAll' : 'an Allowlist of the provider plugin only'}`, async () => {
      const cacheHome = await tempDir('cpcred-cache-')
      // Twice: the plugin's answer, then the same exec given again from its answer.
      for (const run of [1, 2]) {
        const result = await whoami(kuberc[policy], {XDG_CACHE_HOME: cacheHome})
        assert.equal(result.code, 0, `run ${run}: ${result.stderr}`)
        assert.equal(username(result.stdout), fixture.username)
        assert.doesNotMatch(result.stderr, /not (allowed|permitted)/)
      }
    })
  }

  it('hands kubectl a client certificate under DenyAll', async () => {
    const certificate = await clientCertificate('cpcred-cert-user')
    const certFixture = await spokeFixture({
      prefix: 'kuberc-cert',
      pluginEnv: {PLUGIN_MODE: 'cert', PLUGIN_CERT_FILE: certificate.cert, PLUGIN_KEY_FILE: certificate.key},
    })
    const result = await whoami(kuberc.denyAll, {XDG_CACHE_HOME: await tempDir('cpcred-cache-')}, certFixture)
    assert.equal(result.code, 0, result.stderr)
    assert.equal(username(result.stdout), 'cpcred-cert-user')
  })

  // A plugin whose credentials last 20 s: cpcred renews while the command runs, and the renewed
  // credential is another identity's, so the command's kubectl calls show which one they were given.
  for (const kind of ['token', 'certificate'] as const) {
    it(`renews a ${kind} under DenyAll: kubectl calls after the first credential run as the renewed one`, async () => {
      const {env, hub} = await testEnv()
      let renewFixture: SpokeFixture
      let firstUser: string
      let renewedUser: string
      let renew: () => Promise<void>
      if (kind === 'token') {
        renewFixture = await spokeFixture({prefix: 'kuberc-renew', pluginEnv: {PLUGIN_TTL_SECONDS: '20'}})
        await createServiceAccount(hub, renewFixture.namespace, 'renewed')
        const renewedToken = await serviceAccountToken(
          hub,
          renewFixture.namespace,
          'renewed',
          [env.spoke.server],
          3600,
        )
        firstUser = renewFixture.username
        renewedUser = `hub:system:serviceaccount:${renewFixture.namespace}:renewed`
        renew = () => writeFile(renewFixture.tokenFile, renewedToken, {mode: 0o600})
      } else {
        const first = await clientCertificate('cpcred-first-cert')
        const renewed = await clientCertificate('cpcred-renewed-cert')
        renewFixture = await spokeFixture({
          prefix: 'kuberc-renew-cert',
          pluginEnv: {
            PLUGIN_MODE: 'cert',
            PLUGIN_TTL_SECONDS: '20',
            PLUGIN_CERT_FILE: first.cert,
            PLUGIN_KEY_FILE: first.key,
          },
        })
        firstUser = 'cpcred-first-cert'
        renewedUser = 'cpcred-renewed-cert'
        renew = async () => {
          await copyFile(renewed.cert, first.cert)
          await copyFile(renewed.key, first.key)
        }
      }
      const stop = path.join(await tempDir('cpcred-kuberc-stop-'), 'stop')
      const loop =
        `while [ ! -e '${stop}' ]; do ` +
        `kubectl auth whoami -o jsonpath='{.status.userInfo.username}' || exit 9; echo; sleep 1; done`
      const child = spawn(
        process.execPath,
        [
          cpcredBin,
          'exec',
          `${renewFixture.namespace}/target`,
          '--provider-file',
          renewFixture.providerFile,
          '--',
          'sh',
          '-c',
          loop,
        ],
        {
          env: {
            ...isolatedEnv,
            KUBECONFIG: env.hub.kubeconfig,
            XDG_CACHE_HOME: await tempDir('cpcred-cache-'),
            KUBERC: kuberc.denyAll,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      const lines = () => stdout.split('\n').filter(Boolean)
      const waitFor = async (what: string, done: () => boolean) => {
        const deadline = Date.now() + 45_000
        while (!done()) {
          assert.equal(child.exitCode, null, `the command ended before ${what}: ${stderr}`)
          assert.ok(Date.now() < deadline, `timed out waiting for ${what}: ${stdout} ${stderr}`)
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
      try {
        await waitFor('the first whoami', () => lines().length > 0)
        assert.equal(lines()[0], firstUser, stderr)
        // The plugin's next run hands out the other identity's credential.
        await renew()
        await waitFor('a whoami as the renewed credential', () => lines().includes(renewedUser))
      } finally {
        await writeFile(stop, '')
        const code = await exited
        assert.equal(code, 0, stderr)
      }
      for (const line of lines()) assert.ok([firstUser, renewedUser].includes(line), line)
      assert.ok((await pluginRecords(renewFixture)).length >= 2, 'the plugin ran again to renew')
      assert.doesNotMatch(stderr, /could not renew|not (allowed|permitted)/)
    })
  }
})

/** A client certificate the spoke accepts (signed by the test environment's CA). */
async function clientCertificate(user: string) {
  const {env} = await testEnv()
  const pki = {ca: {cert: path.join(env.dir, 'ca.crt'), key: path.join(env.dir, 'ca.key')}} as Pki
  return createClientCertificate(await tempDir('cpcred-kuberc-cert-'), pki, 'client', user, [])
}

/** A kubeconfig whose user is an exec plugin (the fake one), for checking kubectl enforces the policy. */
async function execUserKubeconfig(dir: string): Promise<string> {
  const {env} = await testEnv()
  const file = path.join(dir, 'exec-user.kubeconfig')
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {name: 'spoke', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
    ],
    users: [
      {
        name: 'plugin',
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: '/bin/true',
            interactiveMode: 'Never',
          },
        },
      },
    ],
    contexts: [{name: 'spoke', context: {cluster: 'spoke', user: 'plugin'}}],
    'current-context': 'spoke',
  }
  await writeFile(file, JSON.stringify(config), {mode: 0o600})
  return file
}
