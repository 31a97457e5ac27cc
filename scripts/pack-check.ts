// npm run test:pack: what a user gets from the registry. Clones the committed tree, packs it the way
// `npm publish` would (prepack builds dist/, the manifest and the docs), installs the tarball into an
// empty prefix, and runs the installed binaries: `cpcred --version`, `cpcred list --help`, the
// kubectl plugin name, and a real `cpcred list` against a fresh test hub, as a plain user and as a
// legacy auth-provider user (the bundled part of client-node, which is not installed). CI runs it
// after npm test.
import {execFile as execFileCallback} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp, readdir, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {kubeCall} from '../test/testenv/http.js'
import {
  adminConnection,
  down,
  oneUserKubeconfig,
  requestServiceAccountToken,
  serviceAccountWithRole,
  up,
} from '../test/testenv/testenv.js'

const execFile = promisify(execFileCallback)
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

async function run(file: string, args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}) {
  const started = Date.now()
  try {
    const {stdout} = await execFile(file, args, {
      cwd: options.cwd,
      env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...options.env},
      maxBuffer: 64 * 1024 * 1024,
    })
    console.error(`pack-check: ${file} ${args.join(' ')} (${((Date.now() - started) / 1000).toFixed(1)}s)`)
    return stdout
  } catch (error) {
    const {stdout = '', stderr = ''} = error as {stdout?: string; stderr?: string}
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}${stderr}`)
  }
}

/**
 * What `npm install -g cpcred` may take on disk, in MiB: about a tenth above what it measured once
 * client-node was bundled, 11.6 (69.9 before).
 */
export const NPM_INSTALL_BUDGET_MIB = 13

function expect(what: string, text: string, pattern: RegExp): void {
  if (!pattern.test(text)) throw new Error(`${what}: expected ${pattern}, got:\n${text}`)
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'cpcred-pack-'))
  const envDir = path.join(work, 'testenv')
  let envStarted = false
  try {
    const clone = path.join(work, 'clone')
    await run('git', ['clone', '--quiet', '--no-hardlinks', root, clone])
    await run('npm', ['ci', '--no-audit', '--no-fund'], {cwd: clone})
    await run('npm', ['pack', '--pack-destination', work], {cwd: clone})
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'))
    if (!tarball) throw new Error('npm pack made no tarball')

    const prefix = path.join(work, 'prefix')
    await run('npm', [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--no-audit',
      '--no-fund',
      path.join(work, tarball),
    ])
    // What the install took on disk, cpcred and its dependencies, held to its budget.
    const installed = Number(
      (await run('du', ['-sb', path.join(prefix, 'lib', 'node_modules', 'cpcred')])).split(/\s/)[0],
    )
    const mib = installed / 2 ** 20
    console.error(`SIZE npm install mib=${mib.toFixed(1)} budget=${NPM_INSTALL_BUDGET_MIB}`)
    if (!(mib <= NPM_INSTALL_BUDGET_MIB))
      throw new Error(
        `the npm install is ${mib.toFixed(1)} MiB, over its budget of ${NPM_INSTALL_BUDGET_MIB} MiB`,
      )
    // Only the installed package on PATH (and kubectl): nothing from the clone or this checkout.
    const env = {
      PATH: [
        path.join(prefix, 'bin'),
        path.dirname(process.execPath),
        '/usr/local/bin',
        '/usr/bin',
        '/bin',
      ].join(path.delimiter),
      HOME: work,
      XDG_CONFIG_HOME: path.join(work, 'config'),
      XDG_CACHE_HOME: path.join(work, 'cache'),
      NO_COLOR: '1',
    }
    expect('cpcred --version', await run('cpcred', ['--version'], {env}), /^cpcred +\d+\.\d+\.\d+\n/)
    expect(
      'cpcred list --help',
      await run('cpcred', ['list', '--help'], {env}),
      /List the ClusterProfiles on the hub/,
    )
    expect('kubectl cpcred --version', await run('kubectl', ['cpcred', '--version'], {env}), /^cpcred +\d/)
    expect('kubectl cpcred list --help', await run('kubectl', ['cpcred', 'list', '--help'], {env}), /USAGE/)

    const testenv = await up(envDir, (line) => console.error(`testenv: ${line}`))
    envStarted = true
    const hub = await adminConnection(testenv.hub)
    await kubeCall(hub, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {name: 'packed'},
    })
    await kubeCall(hub, 'POST', '/apis/multicluster.x-k8s.io/v1alpha1/namespaces/packed/clusterprofiles', {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ClusterProfile',
      metadata: {name: 'from-the-tarball', namespace: 'packed'},
      spec: {clusterManager: {name: 'pack-check'}},
    })
    const listed = await run('cpcred', ['list', '-A', '--kubeconfig', testenv.hub.kubeconfig], {env})
    expect('cpcred list -A against the test hub', listed, /^packed\s+from-the-tarball\s+pack-check\s/m)

    // A legacy auth-provider user (gcp, holding a token that has not expired) runs the bundle in
    // dist/vendor: the package it came from is not in the install.
    const installedTree = path.join(prefix, 'lib', 'node_modules', 'cpcred')
    if (existsSync(path.join(installedTree, 'node_modules', '@kubernetes', 'client-node')))
      throw new Error('the npm install holds @kubernetes/client-node, which the build bundles')
    await serviceAccountWithRole(
      hub,
      'packed',
      'legacy',
      [{apiGroups: ['multicluster.x-k8s.io'], resources: ['clusterprofiles'], verbs: ['get', 'list']}],
      {verb: 'list', group: 'multicluster.x-k8s.io', resource: 'clusterprofiles', name: ''},
    )
    const token = await requestServiceAccountToken(hub, 'packed', 'legacy', [], 3600)
    const legacyKubeconfig = path.join(work, 'legacy.kubeconfig')
    await writeFile(
      legacyKubeconfig,
      oneUserKubeconfig(
        testenv.hub,
        {
          'auth-provider': {
            name: 'gcp',
            config: {'access-token': token, expiry: new Date(Date.now() + 3_600_000).toISOString()},
          },
        },
        'packed',
      ),
      {mode: 0o600},
    )
    expect(
      'cpcred list as a gcp auth-provider user',
      await run('cpcred', ['list', '--kubeconfig', legacyKubeconfig], {env}),
      /^from-the-tarball\s+pack-check\s/m,
    )
    console.error(`pack-check: ${tarball} installs and runs`)
  } finally {
    if (envStarted) await down(envDir)
    await rm(work, {recursive: true, force: true})
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`pack-check failed: ${error.message}`)
    process.exit(1)
  },
)
