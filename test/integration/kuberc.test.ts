// kubectl's credential-plugin policy (kuberc, kubectl ≥ 1.35) with real kuberc files and the real
// kubectl: for each policy, the kubeconfig cpcred writes in each mode, whether kubectl runs it
// (`kubectl auth whoami`), and cpcred's word on it, which must agree: refused ⇔ warned, and doctor's
// kuberc line ok, warn or fail as both, one or neither mode works. Where cpcred gives a
// `kubectl kuberc set` command, running it makes kubectl run the refused command.
import assert from 'node:assert/strict'
import {realpathSync} from 'node:fs'
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {cpcred, cpcredBin, isolatedEnv, runProgram, tempDir, testEnv} from '../helpers/env.js'
import {fakePlugin, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

const REFUSAL = 'kubectl will refuse'
/** What `cpcred kubeconfig --mode cpcred` writes as the command (the real path of bin/run.js). */
const CPCRED_COMMAND = realpathSync(cpcredBin)

interface Case {
  name: string
  /** The kuberc's text, or undefined for none. */
  kuberc?: (plugin: string) => string
  /** Where it is written: ~/.kube/kuberc of a private HOME, or a file named by KUBERC. */
  at: 'home' | 'KUBERC'
  env?: Record<string, string>
  /** Whether kubectl runs the plugin (plugin mode) and cpcred (cpcred mode). */
  plugin: boolean
  cpcred: boolean
}

const preference = (body: string) => `apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n${body}`
const allowlist = (...commands: string[]) =>
  preference(
    `credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n${commands.map((command) => `- command: ${command}\n`).join('')}`,
  )

const CASES: Case[] = [
  {name: 'no kuberc', at: 'home', plugin: true, cpcred: true},
  {
    name: 'AllowAll',
    kuberc: () => preference('credentialPluginPolicy: AllowAll\n'),
    at: 'KUBERC',
    plugin: true,
    cpcred: true,
  },
  {
    name: 'DenyAll',
    kuberc: () => preference('credentialPluginPolicy: DenyAll\n'),
    at: 'home',
    plugin: false,
    cpcred: false,
  },
  {
    name: 'Allowlist naming only the plugin',
    kuberc: (plugin) => allowlist(plugin),
    at: 'KUBERC',
    plugin: true,
    cpcred: false,
  },
  {
    name: 'Allowlist naming the plugin and cpcred (the deprecated `name`)',
    kuberc: (plugin) => `${allowlist(plugin)}- name: ${CPCRED_COMMAND}\n`,
    at: 'home',
    plugin: true,
    cpcred: true,
  },
  {
    name: "Allowlist naming the plugin's base name, which kubectl cannot find in PATH",
    kuberc: (plugin) => allowlist(path.basename(plugin)),
    at: 'home',
    plugin: false,
    cpcred: false,
  },
  {
    name: 'DenyAll in ~/.kube/kuberc, turned off by KUBERC=off',
    kuberc: () => preference('credentialPluginPolicy: DenyAll\n'),
    at: 'home',
    env: {KUBERC: 'off'},
    plugin: true,
    cpcred: true,
  },
  {
    name: 'DenyAll in ~/.kube/kuberc, turned off by KUBECTL_KUBERC=false',
    kuberc: () => preference('credentialPluginPolicy: DenyAll\n'),
    at: 'home',
    env: {KUBECTL_KUBERC: 'false'},
    plugin: true,
    cpcred: true,
  },
  {
    name: 'an unknown policy',
    kuberc: () => preference('credentialPluginPolicy: Sometimes\n'),
    at: 'home',
    plugin: false,
    cpcred: false,
  },
  {name: 'KUBERC naming a file that does not exist', at: 'KUBERC', plugin: false, cpcred: false},
]

describe("kubectl's credential-plugin policy: what kubectl v1.37 does, and what cpcred says", () => {
  let fixture: SpokeFixture

  before(async () => {
    const {env} = await testEnv()
    // kuberc's credential-plugin policy exists from kubectl 1.35 on.
    const version = await runProgram('kubectl', ['version', '--client', '-o', 'json'])
    assert.ok(Number(JSON.parse(version.stdout).clientVersion.minor) >= 35, version.stdout)
    assert.ok(env.kubernetesVersion)
    fixture = await spokeFixture({prefix: 'kuberc'})
  })

  /** A private HOME with the case's kuberc; the env both cpcred and kubectl run with. */
  async function caseEnv(test: Case): Promise<NodeJS.ProcessEnv> {
    const home = await tempDir('cpcred-kuberc-home-')
    const env: NodeJS.ProcessEnv = {
      ...isolatedEnv,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      KUBECONFIG: fixture.hubKubeconfig,
    }
    const file = test.at === 'home' ? path.join(home, '.kube', 'kuberc') : path.join(home, 'kuberc.yaml')
    if (test.at === 'KUBERC') env.KUBERC = file
    if (test.kuberc) {
      await mkdir(path.dirname(file), {recursive: true})
      await writeFile(file, test.kuberc(fakePlugin))
    }
    return {...env, ...test.env}
  }

  async function writeAndRun(env: NodeJS.ProcessEnv, mode: 'plugin' | 'cpcred') {
    const kubeconfig = path.join(env.HOME!, `${mode}.yaml`)
    const written = await cpcred(
      [
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--mode',
        mode,
        '--output-file',
        kubeconfig,
        '--overwrite',
      ],
      env,
    )
    // Written all the same: the user may fix the kuberc afterwards.
    assert.equal(written.code, 0, written.stderr)
    const whoami = await runProgram('kubectl', ['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'json'], {
      env,
    })
    return {kubeconfig, written, whoami}
  }

  for (const test of CASES) {
    it(`${test.name}: kubectl ${test.plugin ? 'runs' : 'refuses'} the plugin, ${test.cpcred ? 'runs' : 'refuses'} cpcred; cpcred warns exactly then`, async () => {
      const env = await caseEnv(test)
      for (const mode of ['plugin', 'cpcred'] as const) {
        const {written, whoami} = await writeAndRun(env, mode)
        const runs = test[mode]
        assert.equal(whoami.code === 0, runs, `${mode} mode: kubectl said ${whoami.stderr}`)
        if (runs) assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
        assert.equal(written.stderr.includes(REFUSAL), !runs, `${mode} mode: cpcred said ${written.stderr}`)
        if (!runs && test.kuberc?.(fakePlugin).includes('Allowlist')) {
          // kubectl names the path it refused; so does cpcred.
          const command = mode === 'plugin' ? fakePlugin : CPCRED_COMMAND
          assert.match(whoami.stderr, /not permitted by the credential plugin allowlist/)
          assert.ok(written.stderr.includes(`${REFUSAL} to run ${command}`), written.stderr)
        }
      }
      const doctor = await cpcred(
        ['doctor', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '-o', 'json'],
        env,
      )
      const check = JSON.parse(doctor.stdout).profiles[0].checks.find(
        (result: {id: string}) => result.id === 'kuberc',
      )
      const expected = test.plugin && test.cpcred ? 'ok' : test.plugin || test.cpcred ? 'warn' : 'fail'
      assert.equal(check.status, expected, JSON.stringify(check))
      if (expected === 'ok') assert.equal(doctor.code, 0, doctor.stdout)
      else assert.ok(check.hint, JSON.stringify(check))
    })
  }

  it('the `kubectl kuberc set` command cpcred gives makes kubectl run cpcred, keeping the plugin', async () => {
    const env = await caseEnv(CASES.find((test) => test.name === 'Allowlist naming only the plugin')!)
    const refused = await writeAndRun(env, 'cpcred')
    assert.notEqual(refused.whoami.code, 0)
    const advice = /or run \(it rewrites the list with every entry\): (kubectl kuberc set .*)$/m.exec(
      refused.written.stderr,
    )
    assert.ok(advice, refused.written.stderr)
    const set = await runProgram('sh', ['-c', advice[1]!], {env})
    assert.equal(set.code, 0, set.stderr)
    const now = await writeAndRun(env, 'cpcred')
    assert.equal(now.whoami.code, 0, now.whoami.stderr)
    assert.ok(!now.written.stderr.includes(REFUSAL), now.written.stderr)
    assert.equal((await writeAndRun(env, 'plugin')).whoami.code, 0)
  })

  it('sync warns as kubeconfig does, and --kuberc names the file as kubectl --kuberc does', async () => {
    const env = await caseEnv({name: 'none', at: 'home', plugin: true, cpcred: true})
    const kuberc = path.join(env.HOME!, 'elsewhere.yaml')
    await writeFile(kuberc, allowlist(fakePlugin))
    const file = path.join(env.HOME!, 'synced.yaml')
    const args = [
      'sync',
      '-n',
      fixture.namespace,
      '--all',
      '--set-current',
      '--provider-file',
      fixture.providerFile,
    ]
    const synced = await cpcred([...args, '--mode', 'cpcred', '--output-file', file, '--kuberc', kuberc], env)
    assert.equal(synced.code, 0, synced.stderr)
    assert.ok(synced.stderr.includes(`${REFUSAL} to run ${CPCRED_COMMAND}`), synced.stderr)
    assert.ok(synced.stderr.includes(`credentialPluginAllowlist in ${kuberc}`), synced.stderr)
    const refused = await runProgram(
      'kubectl',
      ['--kuberc', kuberc, '--kubeconfig', file, 'auth', 'whoami'],
      {env},
    )
    assert.match(refused.stderr, /not permitted by the credential plugin allowlist/)
    const allowed = await runProgram('kubectl', ['--kubeconfig', file, 'auth', 'whoami'], {env})
    assert.equal(allowed.code, 0, allowed.stderr)
    const plain = await cpcred([...args, '--mode', 'cpcred', '--output-file', file], env)
    assert.ok(!plain.stderr.includes(REFUSAL), plain.stderr)
  })
})
