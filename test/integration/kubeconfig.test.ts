import assert from 'node:assert/strict'
import {mkdir, readFile, realpath, stat, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {cpcred, cpcredBin, isolatedEnv, runProgram, tempDir, testEnv} from '../helpers/env.js'
import {fakePlugin, pluginRecords, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

const kubectl = (kubeconfig: string, ...args: string[]) =>
  runProgram('kubectl', ['--kubeconfig', kubeconfig, ...args])

describe('cpcred kubeconfig consumed by the real kubectl', () => {
  let fixture: SpokeFixture
  let dir: string

  before(async () => {
    fixture = await spokeFixture({
      prefix: 'kubeconfig',
      extensions: [
        {name: 'client.authentication.k8s.io/exec', extension: {clusterName: 'target', audience: 'spoke'}},
        {
          name: 'clusterprofiles.multicluster.x-k8s.io/exec/additional-envs',
          extension: {FAKE_REGION: 'eu-west-1', PLUGIN_MODE: 'exit1'},
        },
      ],
      execConfig: {args: ['--from-provider-file']},
      provider: {profileSourcedEnvVarsPolicy: 'AppendIfNotExists'},
      pluginEnv: {PLUGIN_MODE: 'ok'},
    })
    dir = await tempDir('cpcred-kubeconfig-')
  })

  it('--mode plugin: kubectl runs exactly the resolved plugin, args, env and cluster config', async () => {
    const {env} = await testEnv()
    const kubeconfig = path.join(dir, 'plugin.yaml')
    const written = await cpcred(
      [
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--output-file',
        kubeconfig,
      ],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(written.code, 0, written.stderr)
    assert.equal((await stat(kubeconfig)).mode & 0o777, 0o600)

    const version = await kubectl(kubeconfig, 'get', '--raw', '/version')
    assert.equal(version.code, 0, version.stderr)
    assert.equal(JSON.parse(version.stdout).gitVersion, env.kubernetesVersion)
    const whoami = await kubectl(kubeconfig, 'auth', 'whoami', '-o', 'json')
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)

    const record = (await pluginRecords(fixture)).at(-1)!
    assert.deepEqual(record.argv, ['--from-provider-file'])
    // The provider's PLUGIN_MODE wins over the profile's (AppendIfNotExists); the profile adds
    // FAKE_REGION; the hub is pinned last.
    assert.equal(record.env.FAKE_REGION, 'eu-west-1')
    assert.equal(record.env.KUBECONFIG, fixture.hubKubeconfig)
    assert.equal(record.env.CPCRED_HUB_CONTEXT, 'hub')
    assert.deepEqual(record.info, {
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      spec: {
        cluster: {
          server: env.spoke.server,
          'certificate-authority-data': env.spoke.caData,
          config: {clusterName: 'target', audience: 'spoke'},
        },
        interactive: false,
      },
    })
    const document = YAML.parse(await readFile(kubeconfig, 'utf8'))
    assert.deepEqual(
      document.users[0].user.exec.env.map((variable: {name: string}) => variable.name),
      [
        'PLUGIN_TOKEN_FILE',
        'PLUGIN_RECORD',
        'PLUGIN_MODE',
        'FAKE_REGION',
        'KUBECONFIG',
        'CPCRED_HUB_CONTEXT',
      ],
    )
  })

  it('--mode cpcred names cpcred as PATH finds it, else by the link it was started through, never its real path', async () => {
    // An installation as npm makes one: a bin directory with a link to the package's bin/run.js.
    const bin = path.join(dir, 'bin')
    await mkdir(bin)
    const link = path.join(bin, 'cpcred')
    await symlink(cpcredBin, link)
    const commandWritten = async (PATH: string) => {
      const written = await runProgram(
        process.execPath,
        [
          link,
          'kubeconfig',
          `${fixture.namespace}/target`,
          '--provider-file',
          fixture.providerFile,
          '--mode',
          'cpcred',
        ],
        {env: {...isolatedEnv, PATH, KUBECONFIG: fixture.hubKubeconfig}},
      )
      assert.equal(written.code, 0, written.stderr)
      return {kubeconfig: written.stdout, command: YAML.parse(written.stdout).users[0].user.exec.command}
    }
    const onPath = `${bin}${path.delimiter}${process.env.PATH}`
    const found = await commandWritten(onPath)
    assert.equal(found.command, 'cpcred')
    // kubectl finds it there and runs it.
    const file = path.join(dir, 'on-path.yaml')
    await writeFile(file, found.kubeconfig, {mode: 0o600})
    const version = await runProgram('kubectl', ['--kubeconfig', file, 'get', '--raw', '/version'], {
      env: {...isolatedEnv, PATH: onPath},
    })
    assert.equal(version.code, 0, version.stderr)
    // Not on PATH (or another installation there): the link, which a Node upgrade leaves in place.
    const elsewhere = await commandWritten(path.dirname(process.execPath))
    assert.equal(elsewhere.command, link)
    assert.notEqual(elsewhere.command, await realpath(link))
  })

  it('--mode cpcred: kubectl runs cpcred credential, which serves the cache on the next call', async () => {
    const kubeconfig = path.join(dir, 'cpcred.yaml')
    const cacheHome = await tempDir('cpcred-cache-')
    const written = await cpcred(
      [
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--mode',
        'cpcred',
        '--output-file',
        kubeconfig,
      ],
      {KUBECONFIG: fixture.hubKubeconfig},
    )
    assert.equal(written.code, 0, written.stderr)
    const exec = YAML.parse(await readFile(kubeconfig, 'utf8')).users[0].user.exec
    assert.equal(exec.command, cpcredBin)
    assert.deepEqual(exec.args, [
      'credential',
      `${fixture.namespace}/target`,
      `--kubeconfig=${fixture.hubKubeconfig}`,
      '--context=hub',
      `--provider-file=${fixture.providerFile}`,
    ])

    const before = (await pluginRecords(fixture)).length
    const env = {...process.env, XDG_CACHE_HOME: cacheHome, KUBECONFIG: ''}
    for (let call = 0; call < 2; call++) {
      const whoami = await runProgram(
        'kubectl',
        ['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'json'],
        {env},
      )
      assert.equal(whoami.code, 0, whoami.stderr)
      assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
    }
    assert.equal(
      (await pluginRecords(fixture)).length - before,
      1,
      'the second kubectl call is served from the cache',
    )
  })

  it('--merge keeps every other context and user unchanged, updates its own entries, and refuses others without --overwrite', async () => {
    const target = path.join(dir, 'merged.yaml')
    const existing = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {name: 'prod', cluster: {server: 'https://prod.example:6443', 'certificate-authority-data': 'Y2EK'}},
      ],
      users: [{name: 'ada', user: {token: 'not-a-real-token'}}],
      contexts: [{name: 'prod', context: {cluster: 'prod', user: 'ada', namespace: 'apps'}}],
      'current-context': 'prod',
      preferences: {},
    }
    await writeFile(target, YAML.stringify(existing), {mode: 0o600})
    const merge = (...extra: string[]) =>
      cpcred(
        [
          'kubeconfig',
          `${fixture.namespace}/target`,
          '--provider-file',
          fixture.providerFile,
          '--merge',
          '--output-file',
          target,
          ...extra,
        ],
        {
          KUBECONFIG: fixture.hubKubeconfig,
        },
      )
    const first = await merge()
    assert.equal(first.code, 0, first.stderr)
    assert.match(
      first.stderr,
      new RegExp(
        `Added to ${target}: cluster ${fixture.namespace}/target, user ${fixture.namespace}/target, context ${fixture.namespace}/target`,
      ),
    )
    const merged = YAML.parse(await readFile(target, 'utf8'))
    assert.deepEqual(merged.clusters[0], existing.clusters[0])
    assert.deepEqual(merged.users[0], existing.users[0])
    assert.deepEqual(merged.contexts[0], existing.contexts[0])
    assert.equal(merged['current-context'], 'prod')
    assert.deepEqual(
      merged.contexts.map((c: {name: string}) => c.name),
      ['prod', `${fixture.namespace}/target`],
    )

    // Run again, it updates the entries it wrote for this profile and hub, as aws eks update-kubeconfig does.
    const again = await merge()
    assert.equal(again.code, 0, again.stderr)
    assert.match(
      again.stderr,
      new RegExp(
        `Updated in ${target}: cluster ${fixture.namespace}/target, user ${fixture.namespace}/target, context ${fixture.namespace}/target`,
      ),
    )
    assert.deepEqual(YAML.parse(await readFile(target, 'utf8')), merged)

    // Entries cpcred did not write (the user's "prod") are refused, naming the flag that replaces them.
    const clash = await merge('--context-name', 'prod')
    assert.equal(clash.code, 2)
    assert.match(
      clash.stderr,
      /already has cluster "prod", context "prod", which cpcred did not write for the same profile and hub; refusing to replace them\nPass --overwrite/,
    )
    assert.deepEqual(YAML.parse(await readFile(target, 'utf8')), merged)

    const replaced = await merge('--overwrite', '--set-current')
    assert.equal(replaced.code, 0, replaced.stderr)
    const after = YAML.parse(await readFile(target, 'utf8'))
    assert.equal(after['current-context'], `${fixture.namespace}/target`)
    assert.equal(after.contexts.length, 2)
    // kubectl can use both contexts of the merged file.
    const listed = await kubectl(target, 'config', 'get-contexts', '-o', 'name')
    assert.deepEqual(listed.stdout.trim().split('\n').sort(), [`${fixture.namespace}/target`, 'prod'].sort())
    const whoami = await kubectl(target, 'auth', 'whoami', '-o', 'json')
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
  })

  it('--as impersonates on the target (the spoke refuses, proving the header is sent)', async () => {
    const kubeconfig = path.join(dir, 'as.yaml')
    const written = await cpcred(
      [
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--as',
        'jane',
        '--as-group',
        'devs',
        '--output-file',
        kubeconfig,
      ],
      {KUBECONFIG: fixture.hubKubeconfig},
    )
    assert.equal(written.code, 0, written.stderr)
    const user = YAML.parse(await readFile(kubeconfig, 'utf8')).users[0].user
    assert.equal(user.as, 'jane')
    assert.deepEqual(user['as-groups'], ['devs'])
    const namespaces = await kubectl(kubeconfig, 'get', '--raw', '/api/v1/namespaces')
    assert.notEqual(namespaces.code, 0)
    // Before 1.37: `cannot impersonate resource "users"`; 1.37's constrained impersonation asks
    // first whether this user may impersonate for this request (`cannot impersonate-on:user-info:list`).
    assert.match(namespaces.stderr, /cannot impersonate(-on:user-info:list)? resource "(users|namespaces)"/)
  })

  it('selects many profiles with -l and names them by template; a clash of names is a usage error', async () => {
    const {hub} = await testEnv()
    const {applyProfile} = await import('../helpers/env.js')
    await applyProfile(hub, {
      metadata: {name: 'second', namespace: fixture.namespace, labels: {fleet: 'yes'}},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {accessProviders: [{name: 'fake', cluster: {server: (await testEnv()).env.spoke.server}}]},
    })
    const result = await cpcred(
      [
        'kubeconfig',
        '--all',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
        '--context-name',
        'lab-{name}',
      ],
      {KUBECONFIG: fixture.hubKubeconfig},
    )
    assert.equal(result.code, 0, result.stderr)
    const document = YAML.parse(result.stdout)
    assert.deepEqual(
      document.contexts.map((c: {name: string}) => c.name),
      ['lab-second', 'lab-target'],
    )
    const clash = await cpcred(
      [
        'kubeconfig',
        '--all',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
        '--context-name',
        'lab',
      ],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(clash.code, 2)
    assert.match(clash.stderr, /^error: .*lab/)
  })

  it('explains a profile that no provider can reach, naming both sides', async () => {
    const result = await cpcred(
      [
        'kubeconfig',
        `${fixture.namespace}/target`,
        '--access-provider',
        `other='${fakePlugin}'`,
        '--provider-file',
        path.join(dir, 'none.json'),
      ],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(result.code, 2)
    assert.match(result.stderr, /^error: cannot read the provider file .*none\.json: no such file/)
    const unmatched = await cpcred(
      ['kubeconfig', `${fixture.namespace}/target`, '--access-provider', `other='${fakePlugin}'`],
      {
        KUBECONFIG: fixture.hubKubeconfig,
      },
    )
    assert.equal(unmatched.code, 1)
    assert.match(
      unmatched.stderr,
      /^error: no provider in common for ClusterProfile .*\/target: it offers "fake"; the provider file supports "other"/,
    )
  })
})
