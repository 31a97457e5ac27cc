// Workload-identity federation (a provider's serviceAccountToken block) with the real hub and spoke.
// A test plugin stands in for a cloud CLI such as `aws eks get-token`: it reads the file named by the
// configured variable, checks the token's audience and subject, looks for the token in every
// process's argv and environment while it runs, and returns the token itself as its credential.
// With the spoke's URL as the audience, which the spoke trusts (the hub's issuer), kubectl on the
// spoke then sees the hub ServiceAccount.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {readFile, readdir, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {applyObject, loadExample} from '../../scripts/manifests.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createNamespace,
  createServiceAccount,
  isolatedEnv,
  runProgram,
  tempDir,
  testEnv,
  writeProviderFile,
  type RunResult,
} from '../helpers/env.js'
import {hubConsumer} from '../helpers/hub-consumer.js'
import {makePod, podsUnavailable} from '../helpers/pods.js'
import {waitForPids} from '../helpers/processes.js'
import {filesHolding, PLUGIN, reports, type Report} from '../helpers/cloud-cli.js'
import {KUBECTL_WHOAMI} from '../helpers/fixtures.js'

const V1 = 'client.authentication.k8s.io/v1'
const JWT = /eyJ[A-Za-z0-9_-]{10,}/
const FILE_ENV = 'AWS_WEB_IDENTITY_TOKEN_FILE'

const usernameOf = (result: RunResult) =>
  (JSON.parse(result.stdout) as {status: {userInfo: {username: string}}}).status.userInfo.username
const tokenOf = (result: RunResult) => (JSON.parse(result.stdout) as {status: {token: string}}).status.token
/** `cpcred exec NS/spoke -- kubectl auth whoami -o json`: who the spoke says the federated caller is. */
const kubectlWhoami = (namespace: string, providers: string) => [
  'exec',
  `${namespace}/spoke`,
  '--provider-file',
  providers,
  '-v',
  '--',
  ...KUBECTL_WHOAMI,
]

describe('a provider with a serviceAccountToken block (workload-identity federation)', () => {
  let namespace: string
  let dir: string
  let plugin: string
  let spoke: {server: string; caData: string}

  /** A provider of the stand-in plugin federating as ServiceAccount `account` (none: the pod's own). */
  function federated(name: string, account: string | undefined, expectedSub: string, extraEnv = {}) {
    return {
      name,
      execConfig: {
        apiVersion: V1,
        command: process.execPath,
        args: [plugin],
        interactiveMode: 'Never',
        env: Object.entries({
          REPORT: path.join(dir, `${name}.report`),
          PIDS: path.join(dir, `${name}.pids`),
          FILE_ENV,
          EXPECTED_AUD: spoke.server,
          EXPECTED_SUB: expectedSub,
          ...extraEnv,
        }).map(([variable, value]) => ({name: variable, value})),
      },
      serviceAccountToken: {
        audience: spoke.server,
        fileEnv: FILE_ENV,
        ...(account ? {serviceAccount: account} : {}),
        expirationSeconds: 1800,
      },
    }
  }

  /** A profile of the spoke offering these provider names. */
  async function spokeProfile(name: string, providers: string[]) {
    const {hub} = await testEnv()
    await applyProfile(hub, {
      metadata: {name, namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: providers.map((provider) => ({
          name: provider,
          cluster: {server: spoke.server, 'certificate-authority-data': spoke.caData},
        })),
      },
    })
  }

  /** Private homes and runtime directory of one user of cpcred, the hub admin's kubeconfig. */
  async function user(): Promise<NodeJS.ProcessEnv & {runtime: string; home: string}> {
    const {env} = await testEnv()
    const home = await tempDir('cpcred-sa-home-')
    const runtime = await tempDir('cpcred-sa-run-')
    return {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_RUNTIME_DIR: runtime,
      KUBECONFIG: env.hub.kubeconfig,
      home,
      runtime,
    }
  }

  before(async () => {
    const {env, hub} = await testEnv()
    spoke = {server: env.spoke.server, caData: env.spoke.caData}
    namespace = await createNamespace(hub, 'sa-token')
    await createServiceAccount(hub, namespace, 'alpha')
    await createServiceAccount(hub, namespace, 'beta')
    dir = await tempDir('cpcred-sa-token-')
    plugin = path.join(dir, 'cloud-cli.cjs')
    await writeFile(plugin, PLUGIN, {mode: 0o700})
    await spokeProfile('spoke', ['fed'])
  })

  it('exec: kubectl auth whoami on the spoke shows the hub ServiceAccount; the token was in a private file only', async () => {
    const me = await user()
    const providers = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`),
    ])
    const whoami = await cpcred(kubectlWhoami(namespace, providers), me)
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(usernameOf(whoami), `hub:system:serviceaccount:${namespace}:alpha`)
    // --verbose says which ServiceAccount and audience, and until when, never the token.
    assert.match(
      whoami.stderr,
      new RegExp(
        `federated: token of ServiceAccount ${namespace}/alpha, audience "${spoke.server.replace(/[.]/g, '\\.')}", ` +
          `in the file named by ${FILE_ENV}, expires \\d{4}-`,
      ),
    )
    assert.doesNotMatch(whoami.stderr, JWT)

    const [seen, ...more] = await reports(path.join(dir, 'fed.report'))
    assert.equal(more.length, 0)
    assert.deepEqual(seen!.aud, [spoke.server])
    assert.equal(seen!.sub, `system:serviceaccount:${namespace}:alpha`)
    assert.equal(seen!.mode, 0o600)
    assert.equal(seen!.dirMode, 0o700)
    assert.ok(seen!.file.startsWith(path.join(me.runtime, `cpcred-${process.getuid!()}`)), seen!.file)
    assert.deepEqual(seen!.inCmdline, [], 'the token is in no process argv')
    assert.deepEqual(seen!.inEnviron, [], 'the token is in no process environment')
    assert.equal(existsSync(seen!.file), false, 'the token file is removed after the run')
    assert.deepEqual(await readdir(path.join(me.runtime, `cpcred-${process.getuid!()}`)), [])
  })

  it('credential: the token is in no file others may read; two ServiceAccounts get two cache entries', async () => {
    const me = await user()
    const asAlpha = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`),
    ])
    const asBeta = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/beta`, `system:serviceaccount:${namespace}:beta`),
    ])
    const credential = (providers: string) =>
      cpcred(['credential', `${namespace}/spoke`, '--provider-file', providers], me)
    const alpha = await credential(asAlpha)
    assert.equal(alpha.code, 0, alpha.stderr)
    const beta = await credential(asBeta)
    assert.equal(beta.code, 0, beta.stderr)
    const token = tokenOf(alpha)
    assert.notEqual(tokenOf(beta), token)
    const cacheDir = path.join(me.home, '.cache', 'cpcred', 'credentials')
    const entries = (await readdir(cacheDir)).filter((name) => /^[0-9a-f]{64}\.json$/.test(name))
    assert.equal(entries.length, 2, `two cache entries: ${entries.join(', ')}`)
    // Asked again, each is served from its own entry, and is its own ServiceAccount's.
    const runs = (await reports(path.join(dir, 'fed.report'))).length
    const again = await credential(asAlpha)
    assert.equal(tokenOf(again), token)
    assert.equal(tokenOf(await credential(asBeta)), tokenOf(beta))
    assert.equal((await reports(path.join(dir, 'fed.report'))).length, runs, 'the plugin did not run again')

    // whoami federates the same way and is served the same entry; cache clear finds that entry.
    const whoami = await cpcred(
      ['whoami', `${namespace}/spoke`, '--provider-file', asAlpha, '-o', 'json'],
      me,
    )
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(usernameOf(whoami), `hub:system:serviceaccount:${namespace}:alpha`)
    assert.equal((await reports(path.join(dir, 'fed.report'))).length, runs, 'whoami used the cached entry')

    for (const holder of [
      ...(await filesHolding(me.home, token)),
      ...(await filesHolding(me.runtime, token)),
      ...(await filesHolding(dir, token)),
    ]) {
      assert.equal(holder.mode & 0o077, 0, `${holder.file} (mode ${holder.mode.toString(8)}) holds the token`)
    }
    const cleared = await cpcred(['cache', 'clear', `${namespace}/spoke`, '--provider-file', asBeta], me)
    assert.equal(cleared.code, 0, cleared.stderr)
    assert.match(cleared.stderr, /Removed the cached credential of/)
    assert.equal((await readdir(cacheDir)).filter((name) => /^[0-9a-f]{64}\.json$/.test(name)).length, 1)
  })

  it('kubeconfig and sync in plugin mode write its entry in cpcred mode, with a note; kubectl reaches the spoke as the ServiceAccount', async () => {
    const me = await user()
    const providers = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`, {
        REPORT: path.join(dir, 'kubeconfig.report'),
      }),
    ])
    const out = await tempDir('cpcred-sa-kubeconfig-')
    const note =
      /provider "fed" federates through serviceAccountToken, .* run 'cpcred credential' \(as with --mode cpcred\)/
    const written = path.join(out, 'written.yaml')
    const synced = path.join(out, 'synced.yaml')
    for (const [file, args] of [
      [written, ['kubeconfig', `${namespace}/spoke`, '--output-file', written]],
      [synced, ['sync', '-n', namespace, '--all', '--set-current', '--output-file', synced]],
    ] as const) {
      const result = await cpcred([...args, '--provider-file', providers], me)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stderr, note, args[0])
      const exec = YAML.parse(await readFile(file, 'utf8')).users[0].user.exec
      assert.equal(exec.command, cpcredBin, args[0])
      assert.deepEqual(exec.args, [
        'credential',
        `${namespace}/spoke`,
        `--kubeconfig=${me.KUBECONFIG}`,
        `--context=${YAML.parse(await readFile(me.KUBECONFIG!, 'utf8'))['current-context']}`,
        `--provider-file=${providers}`,
      ])

      // kubectl runs cpcred credential, which mints the token and hands it to the plugin in a file.
      const runs = (await reports(path.join(dir, 'kubeconfig.report'))).length
      const whoami = await runProgram('kubectl', ['--kubeconfig', file, ...KUBECTL_WHOAMI.slice(1)], {
        env: {...isolatedEnv, ...me, KUBECONFIG: '', XDG_CACHE_HOME: path.join(out, `${args[0]}-cache`)},
      })
      assert.equal(whoami.code, 0, whoami.stderr)
      assert.equal(usernameOf(whoami), `hub:system:serviceaccount:${namespace}:alpha`)
      assert.doesNotMatch(whoami.stderr, JWT)
      const seen = (await reports(path.join(dir, 'kubeconfig.report'))).slice(runs)
      assert.equal(seen.length, 1, 'the plugin ran once, with the token file')
      assert.equal(seen[0]!.sub, `system:serviceaccount:${namespace}:alpha`)
      assert.equal(existsSync(seen[0]!.file), false, 'the token file is removed after the run')
    }
    for (const holder of await filesHolding(out, 'eyJ')) {
      assert.equal(holder.mode & 0o077, 0, `${holder.file} (mode ${holder.mode.toString(8)}) holds a token`)
    }
  })

  it('a caller that may not create serviceaccounts/token gets exit 4 naming the ServiceAccount', async () => {
    const consumer = await hubConsumer(
      (await testEnv()).hub,
      namespace,
      'reader',
      [{apiGroups: ['multicluster.x-k8s.io'], resources: ['clusterprofiles'], verbs: ['get', 'list']}],
      namespace,
      {verb: 'get', group: 'multicluster.x-k8s.io', resource: 'clusterprofiles', name: 'spoke'},
    )
    const providers = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`, {
        REPORT: path.join(dir, 'forbidden.report'),
      }),
    ])
    const result = await cpcred(['credential', `${namespace}/spoke`, '--provider-file', providers], {
      ...(await user()),
      KUBECONFIG: consumer.kubeconfig,
    })
    assert.equal(result.code, 4, result.stderr)
    assert.equal(result.stdout, '')
    assert.match(result.stderr, new RegExp(`cannot create a token for ServiceAccount ${namespace}/alpha`))
    assert.match(result.stderr, /"create" on serviceaccounts\/token with resourceNames \["alpha"\]/)
    assert.doesNotMatch(result.stderr, JWT)
    assert.deepEqual(await reports(path.join(dir, 'forbidden.report')), [], 'the plugin never ran')
    const described = await cpcred(['describe', `${namespace}/spoke`, '--provider-file', providers], {
      ...(await user()),
      KUBECONFIG: consumer.kubeconfig,
    })
    assert.equal(described.code, 0, described.stderr)
    assert.match(described.stdout, /May Create Token:\s+no.*needs "create" on serviceaccounts\/token/)
    const doctor = await cpcred(['doctor', `${namespace}/spoke`, '--provider-file', providers], {
      ...(await user()),
      KUBECONFIG: consumer.kubeconfig,
    })
    assert.equal(doctor.code, 4, doctor.stdout + doctor.stderr)
    assert.match(doctor.stdout, new RegExp(`cannot create a token for ServiceAccount ${namespace}/alpha`))
    assert.doesNotMatch(doctor.stdout + doctor.stderr, JWT)
  })

  it('describe and doctor say which ServiceAccount and audience, and whether the caller may create its token', async () => {
    const me = await user()
    const providers = await writeProviderFile(await tempDir(), [
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`),
    ])
    const described = await cpcred(['describe', `${namespace}/spoke`, '--provider-file', providers], me)
    assert.equal(described.code, 0, described.stderr)
    assert.match(described.stdout, new RegExp(`Federates As:\\s+ServiceAccount ${namespace}/alpha\\n`))
    assert.match(described.stdout, new RegExp(`Token Audience:\\s+${spoke.server.replace(/[.]/g, '\\.')}\\n`))
    assert.match(described.stdout, new RegExp(`Token File In:\\s+\\$${FILE_ENV} \\(1800s`))
    assert.match(described.stdout, /May Create Token:\s+yes\n/)
    const doctor = await cpcred(['doctor', `${namespace}/spoke`, '--provider-file', providers], me)
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr)
    assert.match(
      doctor.stdout,
      new RegExp(
        `federated: token of ServiceAccount ${namespace}/alpha, audience "[^"]+", in the file named by ${FILE_ENV}, expires \\d{4}-`,
      ),
    )
    for (const output of [described.stdout, described.stderr, doctor.stdout, doctor.stderr]) {
      assert.doesNotMatch(output, JWT)
    }
  })

  it('outside a pod, a block without serviceAccount is a usage error naming the provider (exit 2)', async () => {
    const providers = await writeProviderFile(await tempDir(), [federated('fed', undefined, 'nobody')])
    const result = await cpcred(
      ['credential', `${namespace}/spoke`, '--provider-file', providers],
      await user(),
    )
    assert.equal(result.code, 2, result.stderr)
    assert.match(
      result.stderr,
      /provider "fed": serviceAccountToken names no serviceAccount, and cpcred is not in a pod/,
    )
  })

  it('a fileEnv that chooses code or the hub is refused with exit 2 before anything runs', async () => {
    for (const fileEnv of ['PATH', 'LD_PRELOAD', 'KUBECONFIG']) {
      const provider = federated('fed', `${namespace}/alpha`, 'nobody', {
        REPORT: path.join(dir, 'guarded.report'),
      })
      const providers = await writeProviderFile(await tempDir(), [
        {...provider, serviceAccountToken: {...provider.serviceAccountToken, fileEnv}},
      ])
      const result = await cpcred(
        ['credential', `${namespace}/spoke`, '--provider-file', providers],
        await user(),
      )
      assert.equal(result.code, 2, result.stderr)
      assert.match(
        result.stderr,
        new RegExp(
          `^error: ${providers.replace(/[.]/g, '\\.')}: providers\\[0\\] \\("fed"\\): serviceAccountToken\\.fileEnv cannot be ${fileEnv}`,
        ),
      )
    }
    assert.deepEqual(await reports(path.join(dir, 'guarded.report')), [], 'the plugin never ran')
  })

  it('a token file left by a run killed with SIGKILL is removed at the next start', async () => {
    const me = await user()
    const hang = federated('hang', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`, {
      HANG: '1',
    })
    await spokeProfile('hang', ['hang'])
    const providers = await writeProviderFile(await tempDir(), [
      hang,
      federated('fed', `${namespace}/alpha`, `system:serviceaccount:${namespace}:alpha`),
    ])
    const child = spawn(
      process.execPath,
      [cpcredBin, 'credential', `${namespace}/hang`, '--provider-file', providers],
      {
        env: {...isolatedEnv, ...me},
        stdio: 'ignore',
      },
    )
    const [pluginPid] = await waitForPids(path.join(dir, 'hang.pids'), 1, 30_000)
    // The plugin has read the file and reported; now cpcred dies without a chance to clean up.
    let left: Report | undefined
    for (let tries = 0; tries < 100 && !left; tries++) {
      left = (await reports(path.join(dir, 'hang.report'))).at(-1)
      if (!left) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    process.kill(pluginPid!, 'SIGKILL')
    assert.ok(left, 'the hanging plugin reported')
    assert.equal(existsSync(left.file), true, 'SIGKILL left the token file behind')
    assert.equal((await stat(left.file)).mode & 0o777, 0o600)

    const next = await cpcred(['credential', `${namespace}/spoke`, '--provider-file', providers], me)
    assert.equal(next.code, 0, next.stderr)
    assert.equal(existsSync(left.file), false, 'the next start removed it')
    assert.equal(existsSync(path.dirname(left.file)), false)
  })
})

const noPods = await podsUnavailable()
if (noPods) console.log(`# serviceAccountToken in a pod skipped: ${noPods}`)

describe("serviceAccountToken in a pod: the pod's own ServiceAccount by default", {skip: noPods}, () => {
  it("exec reaches the spoke as the pod's own ServiceAccount; the token file is gone after the run", async () => {
    const {env, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'sa-token-pod')
    const podAccount = 'runner'
    for (const object of await loadExample('in-cluster-rbac.yaml', {
      NAMESPACE: namespace,
      POD_SERVICE_ACCOUNT: podAccount,
    })) {
      await applyObject(hub, object)
    }
    const dir = await tempDir('cpcred-sa-pod-')
    const plugin = path.join(dir, 'cloud-cli.cjs')
    await writeFile(plugin, PLUGIN, {mode: 0o700})
    const report = path.join(dir, 'pod.report')
    const providers = await writeProviderFile(dir, [
      {
        name: 'fed',
        execConfig: {
          apiVersion: V1,
          command: process.execPath,
          args: [plugin],
          interactiveMode: 'Never',
          env: Object.entries({
            REPORT: report,
            PIDS: path.join(dir, 'pod.pids'),
            FILE_ENV,
            EXPECTED_AUD: env.spoke.server,
            EXPECTED_SUB: `system:serviceaccount:${namespace}:${podAccount}`,
          }).map(([name, value]) => ({name, value})),
        },
        serviceAccountToken: {audience: env.spoke.server, fileEnv: FILE_ENV},
      },
    ])
    await applyProfile(hub, {
      metadata: {name: 'spoke', namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: [
          {name: 'fed', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
        ],
      },
    })
    const pod = await makePod(namespace, podAccount)
    const runtime = await tempDir('cpcred-sa-pod-run-')
    const args = kubectlWhoami(namespace, providers)
    // RBAC may take a moment to see the binding the example made.
    let result: RunResult | undefined
    for (let tries = 0; tries < 30; tries++) {
      result = await pod.run(args, {XDG_RUNTIME_DIR: runtime})
      if (result.code !== 4) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.equal(result!.code, 0, result!.stderr)
    assert.equal(usernameOf(result!), `hub:system:serviceaccount:${namespace}:${podAccount}`)
    assert.match(
      result!.stderr,
      new RegExp(`token of the pod's own ServiceAccount ${namespace}/${podAccount}`),
    )
    assert.doesNotMatch(result!.stderr, JWT)
    const seen = (await reports(report)).at(-1)!
    assert.equal(seen.mode, 0o600)
    assert.deepEqual(seen.inCmdline, [])
    assert.deepEqual(seen.inEnviron, [])
    assert.equal(existsSync(seen.file), false)
  })
})
