import assert from 'node:assert/strict'
import {copyFile, readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {cpcred, runProgram, serviceAccountToken, tempDir, testEnv, tokenKubeconfig} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

// cpcred's hub is chosen apart from kubectl's current context: switching kubectl to a target
// (kubectl config use-context, cpcred kubeconfig --set-current) leaves it alone.
describe('the hub cpcred chooses', () => {
  let fixture: SpokeFixture
  let hubServer: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'hubchoice'})
    hubServer = (await testEnv()).env.hub.server
  })

  /** A private kubeconfig (a copy of the hub's) and a private config directory. */
  async function home() {
    const dir = await tempDir('cpcred-hubchoice-')
    const kubeconfig = path.join(dir, 'config')
    await copyFile(fixture.hubKubeconfig, kubeconfig)
    const env = {KUBECONFIG: kubeconfig, XDG_CONFIG_HOME: path.join(dir, 'xdg')}
    const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => cpcred(args, {...env, ...extra})
    const kubectl = (...args: string[]) =>
      runProgram('kubectl', args, {env: {PATH: process.env.PATH, ...env}})
    const target = `${fixture.namespace}/target`
    const list = (extra: NodeJS.ProcessEnv = {}) =>
      run(['list', '-n', fixture.namespace, '-o', 'name'], extra)
    return {dir, kubeconfig, env, run, kubectl, target, list}
  }

  it('kubeconfig --merge --set-current, then list still reads the hub its context names', async () => {
    const {kubeconfig, run, kubectl, target, list} = await home()
    const merged = await run([
      'kubeconfig',
      target,
      '--provider-file',
      fixture.providerFile,
      '--merge',
      '--set-current',
      '--output-file',
      kubeconfig,
    ])
    assert.equal(merged.code, 0, merged.stderr)
    assert.equal(YAML.parse(await readFile(kubeconfig, 'utf8'))['current-context'], target)
    // kubectl itself now talks to the target.
    const current = await kubectl('config', 'current-context')
    assert.equal(current.stdout.trim(), target)

    const listed = await list()
    assert.equal(listed.code, 0, listed.stderr)
    assert.match(listed.stdout, /target/)
    const shown = await run(['hub'])
    assert.equal(shown.code, 0, shown.stderr)
    assert.match(shown.stdout, new RegExp(`context "hub" of ${kubeconfig}, server ${hubServer}`))
    assert.match(shown.stdout, new RegExp(`chosen by the hub named by cpcred's context "${target}"`))
    assert.ok(shown.stdout.endsWith('\n'), 'cpcred hub ends its output with a newline')
  })

  it('kubectl config use-context TARGET, then list works; the message of a failure names the source', async () => {
    const {dir, run, kubectl, target, list} = await home()
    const merged = await run(['kubeconfig', target, '--provider-file', fixture.providerFile, '--merge'])
    assert.equal(merged.code, 0, merged.stderr)
    const switched = await kubectl('config', 'use-context', target)
    assert.equal(switched.code, 0, switched.stderr)

    const listed = await list()
    assert.equal(listed.code, 0, listed.stderr)
    assert.match(listed.stdout, /target/)
    // A hub user without RBAC: the denial names the hub and what chose it.
    const {env: testenv, hub} = await testEnv()
    const token = await serviceAccountToken(hub, fixture.namespace, 'deployer')
    const reader = await tokenKubeconfig(dir, 'hub', testenv.hub.server, testenv.hub.caData, token)
    const readerMerged = await run([
      'kubeconfig',
      target,
      '--provider-file',
      fixture.providerFile,
      '--merge',
      '--set-current',
      '--output-file',
      reader,
    ])
    assert.equal(readerMerged.code, 0, readerMerged.stderr)
    const denied = await list({KUBECONFIG: reader})
    assert.equal(denied.code, 4, denied.stderr)
    assert.match(
      denied.stderr,
      new RegExp(
        `the hub \\(context "hub" from the hub named by cpcred's context "${target}", ${hubServer}\\)`,
      ),
    )
  })

  it('hub use keeps the hub (0600, absolute kubeconfig); flags and CPCRED_HUB_CONTEXT win over it', async () => {
    const {dir, kubeconfig, env, run, list} = await home()
    // The kept hub's file, named with --kubeconfig; KUBECONFIG names a file without the hub.
    const elsewhere = path.join(dir, 'elsewhere.yaml')
    await copyFile(kubeconfig, elsewhere)
    const empty = path.join(dir, 'empty.yaml')
    await copyFile(kubeconfig, empty)
    const strip = await runProgram('kubectl', ['--kubeconfig', empty, 'config', 'delete-context', 'hub'])
    assert.equal(strip.code, 0, strip.stderr)

    const missing = await run(['hub', 'use', 'nosuch'])
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /context "nosuch" \(from cpcred hub use\) not found/)

    const used = await run(['hub', 'use', '--kubeconfig', elsewhere, 'hub'], {KUBECONFIG: empty})
    assert.equal(used.code, 0, used.stderr)
    const file = path.join(env.XDG_CONFIG_HOME, 'cpcred', 'hub.json')
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), {context: 'hub', kubeconfig: elsewhere})
    assert.equal((await stat(file)).mode & 0o777, 0o600)
    // What is kept is the choice, not the kubeconfig files: they stay where they are.
    assert.match(
      used.stderr,
      /keeps this choice \(the context's name and the files' paths; the files stay where they are\)/,
    )

    const listed = await list({KUBECONFIG: empty})
    assert.equal(listed.code, 0, listed.stderr)
    assert.match(listed.stdout, /target/)
    const shown = await run(['hub'], {KUBECONFIG: empty})
    assert.equal(shown.code, 0, shown.stderr)
    assert.match(shown.stdout, new RegExp(`context "hub" of ${elsewhere}`))
    assert.match(shown.stdout, /chosen by cpcred hub use/)

    const byFlag = await run(['list', '--context', 'nosuch'])
    assert.equal(byFlag.code, 2)
    assert.match(byFlag.stderr, /context "nosuch" \(from --context\) not found/)
    const byEnv = await list({CPCRED_HUB_CONTEXT: 'nosuch'})
    assert.equal(byEnv.code, 2)
    assert.match(byEnv.stderr, /context "nosuch" \(from CPCRED_HUB_CONTEXT\) not found/)
    const warned = await run(['hub', 'use', 'hub'], {CPCRED_HUB_CONTEXT: 'hub'})
    assert.equal(warned.code, 0, warned.stderr)
    assert.match(warned.stderr, /CPCRED_HUB_CONTEXT is set in this environment and wins over the kept hub/)

    const unset = await run(['hub', 'use', '--unset'])
    assert.equal(unset.code, 0, unset.stderr)
    await assert.rejects(stat(file), {code: 'ENOENT'})
  })

  it('doctor names what chose the hub and shows the chain', async () => {
    const {run} = await home()
    const used = await run(['hub', 'use', 'hub'])
    assert.equal(used.code, 0, used.stderr)
    const doctor = await run(['doctor', '-n', fixture.namespace])
    assert.match(doctor.stdout + doctor.stderr, /context "hub" \(from cpcred hub use\) of /)
    assert.match(
      doctor.stdout + doctor.stderr,
      /chosen by the first of: --kubeconfig not set, --context not set; CPCRED_HUB_KUBECONFIG not set, CPCRED_HUB_CONTEXT not set; cpcred hub use \(.*hub\.json\): context "hub"/,
    )
  })
})
