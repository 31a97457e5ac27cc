// npm run test:release: what scripts/release.ts wrote into release/, used the way a user would. The
// README's Install lines are run as written (in the release folder, into a private home); the krew
// archive is installed by the real krew and run with the machine's Node hidden, against the real hub
// and spoke; every docs/ reference in the installed package's hints must name a file it ships; a
// second build must give the same digests. Run through test/run.ts, which starts the hub and spoke.
import assert from 'node:assert/strict'
import {createReadStream, existsSync, realpathSync} from 'node:fs'
import {copyFile, mkdir, readdir, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import YAML from 'yaml'
import {repoRoot, runProgram, tempDir, testEnv, type RunResult} from '../helpers/env.js'
import {
  documentedProviderFile,
  spokeFixture,
  tokenRequestProfile,
  type SpokeFixture,
} from '../helpers/fixtures.js'
import {ensureKrew} from '../testenv/binaries.js'
import {
  archiveName,
  buildRelease,
  CHECKSUMS,
  IMAGE_INDEX,
  IMAGE_LAYOUT,
  KREW_INDEX,
  KREW_INDEX_MANIFEST,
  KREW_MANIFEST,
  sha256,
  tarballName,
  type Release,
} from '../../scripts/release.js'
import {NODE_VERSION, PLATFORMS, type Platform} from '../../scripts/node-runtime.js'
import {ENTRYPOINT, IMAGE_ARCHES} from '../../scripts/release-image.js'
import {unsummed} from '../../scripts/release-sign.js'
import {provenanceName} from '../../scripts/provenance.js'
import {imageSbomSubject, sbomName} from '../../scripts/sbom.js'

const releaseDir = process.env.CPCRED_RELEASE_DIR ?? path.join(repoRoot, 'release')
const {version} = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string}

/** A block of the README: the lines of the sh block after `<!-- NAME`, comments cut. */
async function readmeLines(name: string): Promise<string[]> {
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8')
  const marker = readme.indexOf(`<!-- ${name}`)
  assert.notEqual(marker, -1, `README.md has no ${name} marker`)
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker))
  assert.ok(block, `no sh block after the ${name} marker`)
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/\s+# .*$/, '').trim())
    .filter(Boolean)
}

/** The install lines, as `npm run test:release` runs them in the release folder. */
const readmeInstallLines = () => readmeLines('install-lines')

/** The version the upgrade test releases: the next patch of package.json's. */
const nextVersion = version.replace(/\d+$/, (patch) => String(Number(patch) + 1))

/** The words of kubectl's completion of `kubectl cpcred ` (cobra's answer: a word a line, then `:N`). */
function completionWords(result: RunResult): string[] {
  assert.equal(result.code, 0, result.stdout + result.stderr)
  return result.stdout
    .split('\n')
    .filter((line) => line && !line.startsWith(':'))
    .map((line) => line.split('\t')[0]!)
}

/** Each `node` the PATH could find, by its real path: what the hidden-Node runs cover. */
function nodesOnPath(): string[] {
  const found = new Set<string>()
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'node')
    if (dir && existsSync(candidate)) found.add(realpathSync(candidate))
  }
  found.add(realpathSync(process.execPath))
  return [...found]
}

/** Runs a command in a mount namespace where every Node binary is /dev/null (needs root). */
function withoutNode(command: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<RunResult> {
  const script = 'for f in $CPCRED_TEST_HIDE; do mount --bind /dev/null "$f" || exit 99; done; exec "$@"'
  return runProgram('unshare', ['-m', 'sh', '-c', script, 'sh', ...command], {
    env: {...env, CPCRED_TEST_HIDE: nodesOnPath().join(' ')},
    cwd,
  })
}

describe(`the release artifacts of cpcred ${version}`, () => {
  let home: string
  let env: NodeJS.ProcessEnv
  let fixture: SpokeFixture
  /** PATH with krew's bin/ and kubectl only: the npm install's and the archive's cpcred left out. */
  let krewOnlyPath: string
  /** PATH with the standalone archive's links (~/.local/bin) and kubectl only. */
  let archiveOnlyPath: string
  /** krew (as kubectl-krew) and the test run's kubectl. */
  let toolDirs: string[]
  const installed: {line: string; result: RunResult}[] = []

  before(async () => {
    home = await tempDir('cpcred-release-home-')
    const tools = path.join(home, 'tools')
    await mkdir(tools)
    await symlink(await ensureKrew(), path.join(tools, 'kubectl-krew'))
    // The test run's kubectl (the clusters' release) is the first kubectl on PATH.
    const kubectlDir = (process.env.PATH ?? '')
      .split(path.delimiter)
      .find((dir) => dir && existsSync(path.join(dir, 'kubectl')))!
    // The machine's settings for reaching the registry (its CA, the npm config and cache) stay;
    // everything cpcred reads is private to this home.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(KUBECONFIG|CPCRED_|XDG_|KREW_)/.test(name)),
    )
    toolDirs = [tools, kubectlDir]
    krewOnlyPath = [path.join(home, '.krew', 'bin'), ...toolDirs, '/usr/bin', '/bin'].join(path.delimiter)
    archiveOnlyPath = [path.join(home, '.local', 'bin'), ...toolDirs, '/usr/bin', '/bin'].join(path.delimiter)
    env = {
      ...inherited,
      npm_config_cache: path.join(os.homedir(), '.npm'),
      NPM_CONFIG_USERCONFIG: path.join(os.homedir(), '.npmrc'),
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      KREW_ROOT: path.join(home, '.krew'),
      NPM_CONFIG_PREFIX: path.join(home, 'npm-global'),
      NO_COLOR: '1',
      PATH: [
        path.join(home, '.krew', 'bin'),
        path.join(home, '.local', 'bin'),
        path.join(home, 'npm-global', 'bin'),
        tools,
        kubectlDir,
        '/usr/local/bin',
        '/usr/bin',
        '/bin',
      ].join(path.delimiter),
    }
    // The README's lines as written; only the registry name becomes the release's own tarball.
    for (const line of await readmeInstallLines()) {
      const command = line.replaceAll(`cpcred@${version}`, `./${tarballName(version)}`)
      installed.push({line, result: await runProgram('sh', ['-c', command], {env, cwd: releaseDir})})
    }
    // A plugin that needs no Node: it hands the spoke the hub ServiceAccount token from its file.
    fixture = await spokeFixture({prefix: 'release', execConfig: {command: path.join(home, 'plugin.sh')}})
    await writeFile(
      path.join(home, 'plugin.sh'),
      '#!/bin/sh\nprintf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\' "$(cat "$PLUGIN_TOKEN_FILE")"\n',
      {mode: 0o755},
    )
  })

  // Three installs of cpcred with two copies of Node: hundreds of megabytes not to leave behind.
  after(() => rm(home, {recursive: true, force: true}))

  it("each of the README's Install lines works, and pins this version", () => {
    assert.equal(installed.length, 3, installed.map(({line}) => line).join('\n'))
    for (const {line, result} of installed)
      assert.equal(result.code, 0, `${line}\n${result.stdout}${result.stderr}`)
    assert.match(installed[0]!.line, new RegExp(`cpcred@${version.replaceAll('.', '\\.')}\\b`))
    assert.ok(existsSync(path.join(home, 'npm-global', 'bin', 'cpcred')), 'npm installed no cpcred')
    assert.ok(
      existsSync(path.join(home, '.krew', 'bin', 'kubectl-cpcred')),
      'krew installed no kubectl-cpcred',
    )
    assert.ok(existsSync(path.join(home, '.local', 'bin', 'cpcred')), 'the standalone archive gave no cpcred')
  })

  it('every recipe in the docs that installs from npm pins this version', async () => {
    const files = [
      'README.md',
      ...(await readdir(path.join(repoRoot, 'docs'), {recursive: true})).map((f) => `docs/${f}`),
    ]
    for (const file of files.filter((name) => /\.(md|ya?ml)$/.test(name))) {
      const text = await readFile(path.join(repoRoot, file), 'utf8')
      for (const match of text.matchAll(/npm (?:install|i) (?:-g|--global) (\S+)/g))
        assert.ok(
          [`cpcred@${version}`, `./${tarballName(version)}`].includes(match[1]!.replace(/[`)]+$/, '')),
          `${file}: ${match[0]}`,
        )
    }
  })

  it(`${CHECKSUMS} verifies and covers every artifact; the krew manifest carries the archives' digests`, async () => {
    const check = await runProgram('sha256sum', ['--check', '--strict', CHECKSUMS], {cwd: releaseDir})
    assert.equal(check.code, 0, check.stdout + check.stderr)
    const listed = (await readFile(path.join(releaseDir, CHECKSUMS), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => line.split('  ')[1])
    // The image's layout is a folder whose blobs are named by their digests: its index stands for it.
    const files = (await readdir(releaseDir))
      .filter((name) => name !== CHECKSUMS && !unsummed(version).includes(name))
      .map((name) => (name === IMAGE_LAYOUT ? IMAGE_INDEX : name === KREW_INDEX ? KREW_INDEX_MANIFEST : name))
    assert.deepEqual(listed.sort(), files.sort())
    for (const name of [
      tarballName(version),
      ...PLATFORMS.map((platform) => archiveName(version, platform)),
      KREW_MANIFEST,
      IMAGE_INDEX,
    ])
      assert.ok(files.includes(name), `${name} missing from ${releaseDir}`)

    const manifest = YAML.parse(await readFile(path.join(releaseDir, KREW_MANIFEST), 'utf8'))
    assert.equal(manifest.apiVersion, 'krew.googlecontainertools.github.com/v1alpha2')
    assert.equal(manifest.kind, 'Plugin')
    assert.equal(manifest.spec.version, `v${version}`)
    const platforms = manifest.spec.platforms as {
      selector: {matchLabels: {os: string; arch: string}}
      uri: string
      sha256: string
      bin: string
    }[]
    assert.deepEqual(
      platforms.map((p) => p.selector.matchLabels),
      [
        {os: 'linux', arch: 'amd64'},
        {os: 'linux', arch: 'arm64'},
        {os: 'darwin', arch: 'amd64'},
        {os: 'darwin', arch: 'arm64'},
      ],
    )
    for (const platform of platforms) {
      const {os: system, arch} = platform.selector.matchLabels
      const archive = archiveName(version, `${system}-${arch}` as Platform)
      assert.ok(platform.uri.endsWith(archive), platform.uri)
      assert.equal(platform.sha256, await sha256(path.join(releaseDir, archive)))
      assert.equal(platform.bin, 'kubectl-cpcred')
    }
  })

  it('each archive holds only plain files and folders owned by 0/0', async () => {
    for (const platform of PLATFORMS) {
      const listing = await runProgram('tar', [
        '-tvzf',
        path.join(releaseDir, archiveName(version, platform)),
      ])
      assert.equal(listing.code, 0, listing.stderr)
      for (const entry of listing.stdout.trim().split('\n')) {
        assert.match(
          entry,
          /^[-d]\S+ 0\/0 /,
          `${platform}: not a plain file or directory owned by 0/0: ${entry}`,
        )
      }
    }
  })

  it('the npm package ships what runs, the LICENSE, the changelog and the docs, and nothing else', async () => {
    const listing = await runProgram('tar', ['-tzf', path.join(releaseDir, tarballName(version))])
    const files = listing.stdout
      .trim()
      .split('\n')
      .map((name) => name.replace(/^package\//, ''))
    for (const name of [
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
      'bin/run.js',
      'bin/kubectl_complete-cpcred',
      'oclif.manifest.json',
      'dist/build-info.json',
      'docs/providers.md',
    ])
      assert.ok(files.includes(name), `${name} is not in the package`)
    const unexpected = files.filter(
      (name) =>
        !/^(dist|docs)\//.test(name) &&
        ![
          'LICENSE',
          'CHANGELOG.md',
          'README.md',
          'package.json',
          'bin/run.js',
          'bin/package.json',
          'bin/kubectl_complete-cpcred',
          'oclif.manifest.json',
        ].includes(name),
    )
    assert.deepEqual(unexpected, [])
    const dryRun = await runProgram(
      'npm',
      ['publish', '--dry-run', path.join(releaseDir, tarballName(version))],
      {env},
    )
    assert.equal(dryRun.code, 0, dryRun.stderr)
    // Publishing needs a login; a dry run says so, and must say nothing else.
    const complaints = dryRun.stderr
      .split('\n')
      .filter((line) => /npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line))
    assert.deepEqual(complaints, [])
  })

  it("every docs/ reference in the installed package's hints and help names a file it ships", async () => {
    const versionRun = await runProgram(
      path.join(home, 'npm-global', 'bin', 'cpcred'),
      ['version', '-o', 'json'],
      {env},
    )
    assert.equal(versionRun.code, 0, versionRun.stderr)
    const info = JSON.parse(versionRun.stdout) as {
      version: string
      commit: string
      docs: string
      packageDir: string
    }
    assert.equal(info.version, version)
    assert.equal(info.docs, path.join(info.packageDir, 'docs'))
    const head = (await runProgram('git', ['rev-parse', 'HEAD'], {cwd: repoRoot})).stdout.trim()
    assert.ok(info.commit.startsWith(head), `${info.commit} is not ${head}`)

    const {stdout} = await runProgram('grep', [
      '-rhoE',
      'docs/[A-Za-z0-9_./#-]+',
      path.join(info.packageDir, 'dist'),
      path.join(info.packageDir, 'oclif.manifest.json'),
    ])
    const references = new Set(
      stdout
        .split('\n')
        .filter(Boolean)
        .map((ref) => ref.replace(/#.*$/, '').replace(/[.)]+$/, '')),
    )
    assert.ok(
      references.has('docs/providers.md') && references.has('docs/plugins.md'),
      [...references].join(' '),
    )
    // doctor's RBAC hint picks its example by a condition (core/doctor/hub.ts): both files.
    for (const example of ['in-cluster-rbac.yaml', 'hub-consumer.yaml'])
      references.add(`docs/examples/${example}`)
    for (const reference of references)
      assert.ok(
        existsSync(path.join(info.packageDir, reference)),
        `${reference} is cited but not installed in ${info.packageDir}`,
      )
    const {stdout: size} = await runProgram('du', ['-sb', info.packageDir])
    console.error(`release: installed npm package: ${size.split('\t')[0]} bytes`)
  })

  it('kubectl cpcred from krew runs list, exec and a --mode cpcred kubeconfig with no Node on the machine', async () => {
    const noNode = await withoutNode(['sh', '-c', 'node --version'], env)
    assert.notEqual(noNode.code, 0, 'node still runs inside the namespace')
    assert.notEqual(noNode.code, 99, noNode.stderr)

    const hub = ['--kubeconfig', fixture.hubKubeconfig]
    const list = await withoutNode(['kubectl', 'cpcred', 'list', '-n', fixture.namespace, ...hub], env)
    assert.equal(list.code, 0, list.stderr)
    assert.match(list.stdout, /^target\s/m)

    const version = await withoutNode(['kubectl', 'cpcred', 'version', '-o', 'json'], env)
    assert.equal(version.code, 0, version.stderr)
    assert.equal(JSON.parse(version.stdout).node, `v${NODE_VERSION}`)

    const provider = ['--provider-file', fixture.providerFile]
    const whoami = ['kubectl', 'auth', 'whoami', '-o', 'json']
    const exec = await withoutNode(
      ['kubectl', 'cpcred', 'exec', `${fixture.namespace}/target`, ...hub, ...provider, '--', ...whoami],
      env,
    )
    assert.equal(exec.code, 0, exec.stderr)
    assert.equal(JSON.parse(exec.stdout).status.userInfo.username, fixture.username)

    const kubeconfig = path.join(home, 'target.yaml')
    const written = await withoutNode(
      [
        'kubectl',
        'cpcred',
        'kubeconfig',
        `${fixture.namespace}/target`,
        ...hub,
        ...provider,
        '--mode',
        'cpcred',
        '--output-file',
        kubeconfig,
      ],
      env,
    )
    assert.equal(written.code, 0, written.stderr)
    const user = YAML.parse(await readFile(kubeconfig, 'utf8')).users[0].user.exec
    // The launcher krew links into its bin/, which stays put across upgrades; never the store path.
    assert.equal(user.command, path.join(home, '.krew', 'bin', 'kubectl-cpcred'))
    const viaKubeconfig = await withoutNode([...whoami, '--kubeconfig', kubeconfig], env)
    assert.equal(viaKubeconfig.code, 0, viaKubeconfig.stderr)
    assert.equal(JSON.parse(viaKubeconfig.stdout).status.userInfo.username, fixture.username)

    const help = await withoutNode(['kubectl', 'cpcred', 'list', '--help'], env)
    assert.match(help.stdout, /\$ kubectl cpcred list/)
  })

  it('kubectl cpcred from krew alone runs the documented provider file, as is, with no Node on the machine', async () => {
    const krewOnly = {...env, PATH: krewOnlyPath}
    const found = await withoutNode(['sh', '-c', 'command -v cpcred node'], krewOnly)
    assert.equal(found.stdout, '', 'the PATH of a krew install has a cpcred or a Node')
    const {env: clusters} = await testEnv()
    const {namespace, username} = await tokenRequestProfile('release-krew')
    const selection = [
      `${namespace}/target`,
      '--kubeconfig',
      clusters.hub.kubeconfig,
      '--provider-file',
      documentedProviderFile,
    ]
    const whoami = ['kubectl', 'auth', 'whoami', '-o', 'json']
    const identity = (result: RunResult) => {
      assert.equal(result.code, 0, result.stderr)
      return JSON.parse(result.stdout).status.userInfo.username as string
    }
    assert.equal(
      identity(await withoutNode(['kubectl', 'cpcred', 'exec', ...selection, '--', ...whoami], krewOnly)),
      username,
    )
    assert.equal(
      identity(await withoutNode(['kubectl', 'cpcred', 'whoami', ...selection, '-o', 'json'], krewOnly)),
      username,
    )
    const doctor = await withoutNode(['kubectl', 'cpcred', 'doctor', ...selection], krewOnly)
    assert.equal(doctor.code, 0, `${doctor.stdout}${doctor.stderr}`)
    assert.match(doctor.stdout, /^ok +plugin-run /m)

    // --mode plugin and sync: kubectl runs the entries itself, through krew's link to the launcher.
    for (const mode of ['plugin', 'cpcred']) {
      const kubeconfig = path.join(home, `krew-${mode}.yaml`)
      const written = await withoutNode(
        ['kubectl', 'cpcred', 'kubeconfig', ...selection, '--mode', mode, '--output-file', kubeconfig],
        krewOnly,
      )
      assert.equal(written.code, 0, written.stderr)
      const user = YAML.parse(await readFile(kubeconfig, 'utf8')).users[0].user.exec
      assert.equal(user.command, path.join(home, '.krew', 'bin', 'kubectl-cpcred'))
      assert.equal(identity(await withoutNode([...whoami, '--kubeconfig', kubeconfig], krewOnly)), username)
    }
    const synced = path.join(home, 'krew-sync.yaml')
    const sync = await withoutNode(
      ['kubectl', 'cpcred', 'sync', '-n', namespace, '--all', ...selection.slice(1), '--output-file', synced],
      krewOnly,
    )
    assert.equal(sync.code, 0, sync.stderr)
    const context = (YAML.parse(await readFile(synced, 'utf8')).contexts as {name: string}[])[0]!.name
    const viaSync = await withoutNode([...whoami, '--kubeconfig', synced, '--context', context], krewOnly)
    assert.equal(identity(viaSync), username)
  })

  it('the standalone cpcred runs its own Node with none on the machine, by a link or in its folder', async () => {
    const inFolder = await withoutNode(
      [path.join(home, '.local', 'lib', 'cpcred', 'kubectl-cpcred'), 'version'],
      env,
    )
    assert.equal(inFolder.code, 0, inFolder.stderr)
    assert.match(inFolder.stdout, new RegExp(`^cpcred +${version.replaceAll('.', '\\.')}$`, 'm'))
    const run = await withoutNode(['cpcred', 'version'], env)
    assert.equal(run.code, 0, run.stderr)
    assert.match(
      run.stdout,
      new RegExp(`^node +v${NODE_VERSION.replaceAll('.', '\\.')} \\(LTS, end of life `, 'm'),
    )
    assert.doesNotMatch(run.stderr, /warning/)
    assert.match(
      run.stdout,
      new RegExp(`^docs +${path.join(home, '.local', 'lib', 'cpcred', 'lib', 'cpcred', 'docs')}$`, 'm'),
    )
  })

  it('the packed manifest lists the commands in one order, not the order a directory crawl found them', async () => {
    // oclif's crawl order changes from run to run; a build that kept it packed different bytes.
    const {stdout} = await runProgram('tar', [
      '-xzOf',
      path.join(releaseDir, tarballName(version)),
      'package/oclif.manifest.json',
    ])
    const ids = Object.keys((JSON.parse(stdout) as {commands: Record<string, unknown>}).commands)
    assert.ok(ids.includes('whoami') && ids.includes('autocomplete'), ids.join(' '))
    assert.deepEqual(ids, [...ids].sort())
  })

  it('kubectl cpcred <TAB> completes from krew, after the README line, and from the archive, with no Node', async () => {
    const [line, ...more] = await readmeLines('completion-lines')
    assert.deepEqual(more, [])
    const linked = await runProgram('bash', ['-c', line!], {env, cwd: releaseDir})
    assert.equal(linked.code, 0, linked.stderr)
    // kubectl's own completion (what `source <(kubectl completion bash)` calls), in bash.
    const complete = ['bash', '-c', 'kubectl __complete cpcred ""']
    for (const PATH of [krewOnlyPath, archiveOnlyPath]) {
      const words = completionWords(await withoutNode(complete, {...env, PATH}))
      for (const word of ['list', 'exec', 'kubeconfig', 'doctor', 'hub'])
        assert.ok(words.includes(word), `${PATH}: ${word} not in ${words.join(' ')}`)
    }
    const flags = completionWords(
      await withoutNode(['bash', '-c', 'kubectl __complete cpcred list -o ""'], {
        ...env,
        PATH: krewOnlyPath,
      }),
    )
    assert.ok(
      flags.some((word) => /json/.test(word)),
      flags.join(' '),
    )
  })

  it("docs/ci.md's umoci line unpacks the image's platform tag as written", async () => {
    const doc = await readFile(path.join(repoRoot, 'docs', 'ci.md'), 'utf8')
    const line = doc.split('\n').find((text) => text.startsWith('umoci unpack'))
    assert.ok(line, 'docs/ci.md has no umoci line')
    // As from the checkout: release/ is where the line reads the layout.
    const where = await tempDir('cpcred-release-umoci-')
    try {
      await symlink(releaseDir, path.join(where, 'release'))
      const unpacked = await runProgram('sh', ['-c', line], {cwd: where})
      assert.equal(unpacked.code, 0, `${line}\n${unpacked.stdout}${unpacked.stderr}`)
      const bundle = path.join(where, line.split(/\s+/).at(-1)!)
      assert.ok(existsSync(path.join(bundle, 'rootfs', 'opt', 'cpcred', 'bin', 'run.js')))
      assert.ok(existsSync(path.join(bundle, 'rootfs', 'usr', 'local', 'bin', 'kubectl')))
      const spec = JSON.parse(await readFile(path.join(bundle, 'config.json'), 'utf8'))
      assert.deepEqual(spec.process.args, ENTRYPOINT)
    } finally {
      await rm(where, {recursive: true, force: true})
    }
  })

  it("the release leaves the checkout's oclif.manifest.json, the packed one, so its completion works", async () => {
    const {stdout: packed} = await runProgram('tar', [
      '-xzOf',
      path.join(releaseDir, tarballName(version)),
      'package/oclif.manifest.json',
    ])
    const manifest = path.join(repoRoot, 'oclif.manifest.json')
    assert.ok(existsSync(manifest), 'npm run release removed oclif.manifest.json')
    assert.equal(await readFile(manifest, 'utf8'), packed)
    const words = completionWords(
      await runProgram(process.execPath, [path.join(repoRoot, 'bin', 'kubectl_complete-cpcred'), ''], {env}),
    )
    assert.ok(words.includes('list') && words.includes('exec'), words.join(' '))
  })

  it(`upgrades to ${nextVersion}: krew from a custom index, the archive by its line; the hub choice and cached credentials stay`, async () => {
    // The next version is a second release of this tree (a copy, bumped by `npm version`), its
    // standalone archive for amd64 and its krew index built by release.ts with
    // CPCRED_RELEASE_BASE_URL. This version's manifest is release/'s with only its archives' uri
    // set to where the test serves them (their sha256 as built). Both are served from 127.0.0.1.
    const work = await tempDir('cpcred-release-upgrade-')
    const folders: Record<string, string> = {[version]: releaseDir}
    const served: string[] = []
    const server = http.createServer((request, response) => {
      served.push(request.url ?? '')
      const [, folder = '', file = ''] = /^\/([^/]+)\/([^/]+)$/.exec(request.url ?? '') ?? []
      const dir = folders[folder]
      if (!dir || !existsSync(path.join(dir, file))) return void response.writeHead(404).end()
      response.writeHead(200, {'content-type': 'application/octet-stream'})
      createReadStream(path.join(dir, file)).pipe(response)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const next = path.join(work, 'next')
      const home2 = path.join(work, 'home')
      await mkdir(home2)
      const proxyFree = Object.fromEntries(Object.entries(env).filter(([name]) => !/_proxy$/i.test(name)))
      const env2: NodeJS.ProcessEnv = {
        ...proxyFree,
        NO_PROXY: '127.0.0.1',
        HOME: home2,
        XDG_CONFIG_HOME: path.join(home2, '.config'),
        XDG_CACHE_HOME: path.join(home2, '.cache'),
        KREW_ROOT: path.join(home2, '.krew'),
        PATH: [
          path.join(home2, '.krew', 'bin'),
          path.join(home2, '.local', 'bin'),
          ...toolDirs,
          '/usr/bin',
          '/bin',
        ].join(path.delimiter),
      }
      const sh = async (line: string, cwd = releaseDir) => {
        const result = await runProgram('sh', ['-c', line], {env: env2, cwd})
        assert.equal(result.code, 0, `${line}\n${result.stdout}${result.stderr}`)
        return result
      }
      const git = (args: string[], cwd: string) =>
        sh(`git -c user.name=cpcred-test -c user.email=test@example.invalid ${args.join(' ')}`, cwd)

      // The index: a git repository with plugins/cpcred.yaml.
      const index = path.join(work, 'index')
      await mkdir(path.join(index, 'plugins'), {recursive: true})
      const manifest = YAML.parse(await readFile(path.join(releaseDir, KREW_MANIFEST), 'utf8'))
      for (const platform of manifest.spec.platforms as {uri: string}[])
        platform.uri = `${base}/${version}/${path.basename(platform.uri)}`
      await writeFile(path.join(index, 'plugins', 'cpcred.yaml'), YAML.stringify(manifest, {lineWidth: 0}))
      await git(['init', '-q'], index)
      await git(['add', '.'], index)
      await git(['commit', '-qm', `cpcred-${version}`], index)

      // This version as the README installs it: krew from --manifest, then the upgrade lines'
      // switch to the index; the completion link; the standalone archive.
      const [krewLine, archiveLine] = [installed[1]!.line, installed[2]!.line]
      await sh(krewLine)
      const [addIndex, fromIndex, upgrade, ...rest] = await readmeLines('upgrade-lines')
      assert.deepEqual(rest, [])
      assert.match(addIndex!, /INDEX_URL/)
      await sh(addIndex!.replace('INDEX_URL', index))
      await sh(fromIndex!)
      await sh((await readmeLines('completion-lines'))[0]!)
      await sh(archiveLine)

      // The hub choice and a cached credential, before the upgrade: the plugin's token, for an hour
      // (a credential without an expiry is not kept).
      const pluginScript = path.join(work, 'plugin.sh')
      await writeFile(
        pluginScript,
        '#!/bin/sh\nprintf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\' "$(cat "$PLUGIN_TOKEN_FILE")" "$(date -u -d "+1 hour" +%Y-%m-%dT%H:%M:%SZ)"\n',
        {mode: 0o755},
      )
      const providerFile = path.join(work, 'providers.json')
      const providers = await readFile(fixture.providerFile, 'utf8')
      const fromFixture = JSON.stringify(path.join(home, 'plugin.sh'))
      assert.ok(providers.includes(fromFixture), providers)
      await writeFile(providerFile, providers.replaceAll(fromFixture, JSON.stringify(pluginScript)))
      const hubContext = (
        await runProgram('kubectl', ['config', 'current-context', '--kubeconfig', fixture.hubKubeconfig], {
          env: env2,
        })
      ).stdout.trim()
      const chosen = await withoutNode(
        ['kubectl', 'cpcred', 'hub', 'use', '--kubeconfig', fixture.hubKubeconfig, hubContext],
        env2,
      )
      assert.equal(chosen.code, 0, chosen.stderr)
      const credential = [
        'credential',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
      ]
      const first = await withoutNode(['kubectl', 'cpcred', ...credential], env2)
      assert.equal(first.code, 0, first.stderr)
      const token = JSON.parse(first.stdout).status.token as string
      const versionOf = async (command: string[]) => {
        const result = await withoutNode([...command, 'version', '-o', 'json'], env2)
        assert.equal(result.code, 0, result.stderr)
        return (JSON.parse(result.stdout) as {version: string}).version
      }
      assert.equal(await versionOf(['kubectl', 'cpcred']), version)
      assert.equal(await versionOf(['cpcred']), version)

      // The next release, published in the index.
      const tree = path.join(work, 'tree')
      await mkdir(tree)
      // The checkout's files as they are (committed or not, ignored ones left out).
      await sh(
        `git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C '${tree}'`,
        repoRoot,
      )
      await symlink(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'))
      await sh(`npm version ${nextVersion} --no-git-tag-version`, tree)
      const epoch = (await runProgram('git', ['log', '-1', '--format=%ct'], {cwd: repoRoot})).stdout.trim()
      const built = await runProgram(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          "const {buildStandalone} = await import('./scripts/release.ts'); await buildStandalone('linux-amd64', {out: process.argv[1]})",
          next,
        ],
        {
          cwd: tree,
          env: {...process.env, CPCRED_RELEASE_BASE_URL: `${base}/${nextVersion}/`, SOURCE_DATE_EPOCH: epoch},
        },
      )
      assert.equal(built.code, 0, built.stderr)
      folders[nextVersion] = next
      await copyFile(path.join(next, KREW_INDEX_MANIFEST), path.join(index, 'plugins', 'cpcred.yaml'))
      await git(['commit', '-qam', `cpcred-${nextVersion}`], index)

      // The upgrade: krew's, and the archive's line again with the new archive over a folder that
      // holds a file the new version does not have.
      await sh(upgrade!)
      const stale = path.join(home2, '.local', 'lib', 'cpcred', 'lib', 'cpcred', 'dist', 'stale.js')
      await writeFile(stale, '// from an older version\n')
      await sh(archiveLine.replaceAll(version, nextVersion), next)
      assert.ok(!existsSync(stale), 'the archive line left a file of the old version')

      assert.equal(await versionOf(['kubectl', 'cpcred']), nextVersion)
      assert.equal(await versionOf(['cpcred']), nextVersion)
      assert.deepEqual(await readdir(path.join(home2, '.krew', 'store', 'cpcred')), [`v${nextVersion}`])
      for (const release of [version, nextVersion])
        assert.ok(served.includes(`/${release}/${archiveName(release, 'linux-amd64')}`), served.join(' '))

      // The hub chosen before, read after (from the config, not a flag).
      for (const command of [['kubectl', 'cpcred'], ['cpcred']]) {
        const hub = await withoutNode([...command, 'hub'], env2)
        assert.equal(hub.code, 0, hub.stderr)
        assert.match(hub.stdout + hub.stderr, /cpcred hub use/)
        assert.match(hub.stdout + hub.stderr, new RegExp(hubContext))
      }
      // The credential cached before answers after, with the plugin now failing.
      await writeFile(pluginScript, '#!/bin/sh\necho the plugin ran >&2\nexit 1\n', {mode: 0o755})
      const after = await withoutNode(['kubectl', 'cpcred', ...credential], env2)
      assert.equal(after.code, 0, after.stderr)
      assert.equal(JSON.parse(after.stdout).status.token, token)
      // The completion link, made before, follows krew's link to the new version.
      const words = completionWords(
        await withoutNode(['bash', '-c', 'kubectl __complete cpcred ""'], {
          ...env2,
          PATH: [path.join(home2, '.krew', 'bin'), ...toolDirs, '/usr/bin', '/bin'].join(path.delimiter),
        }),
      )
      assert.ok(words.includes('list'), words.join(' '))
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await rm(work, {recursive: true, force: true})
    }
  })

  /** The second build, in this process: what it recorded of the image's .debs. */
  let rebuilt: Release | undefined
  it(
    'a second build of the same commit gives the same digests',
    {skip: process.env.CPCRED_RELEASE_SKIP_REBUILD === '1'},
    async () => {
      const again = await tempDir('cpcred-release-again-')
      rebuilt = await buildRelease({out: again, log: () => {}})
      const first = await readFile(path.join(releaseDir, CHECKSUMS), 'utf8')
      const second = await readFile(path.join(again, CHECKSUMS), 'utf8')
      console.error(`release: SHA256SUMS of two builds:\n${first}${second}`)
      await rm(again, {recursive: true, force: true})
      assert.equal(second, first)
    },
  )

  it(
    "every Debian package in the provenance and the image's SBOMs is pinned by the sha256 Debian's Packages index gives its .deb",
    {skip: process.env.CPCRED_RELEASE_SKIP_REBUILD === '1'},
    async () => {
      // The index's stanzas as the build's mmdebstrap hook saw them in apt's lists (the second build's).
      const record = rebuilt?.debian
      assert.ok(record, "the build kept no record of the image's .debs and Debian's Packages index")
      const indexed = (name: string, pkgVersion: string, arch: string) =>
        IMAGE_ARCHES.flatMap((platform) =>
          record[platform].index.filter(
            (entry) => entry.name === name && entry.version === pkgVersion && entry.arch === arch,
          ),
        )
      const statement = JSON.parse(
        await readFile(path.join(releaseDir, provenanceName(version)), 'utf8'),
      ) as {
        predicate: {
          buildDefinition: {resolvedDependencies: {name: string; uri?: string; digest?: {sha256?: string}}[]}
        }
      }
      const debian = statement.predicate.buildDefinition.resolvedDependencies.filter((item) =>
        item.uri?.startsWith('pkg:deb/'),
      )
      assert.ok(
        debian.length >= 6 * IMAGE_ARCHES.length,
        `${debian.length} Debian packages in the provenance`,
      )
      const checked: string[] = []
      for (const item of debian) {
        const purl = /^pkg:deb\/debian\/([^@]+)@([^?]+)\?arch=([^&]+)&/.exec(item.uri!)
        assert.ok(purl, item.uri)
        const entries = indexed(purl[1]!, purl[2]!, purl[3]!)
        assert.ok(entries.length > 0, `${item.uri}: not in the Packages index the build saw`)
        assert.match(item.digest?.sha256 ?? '', /^[0-9a-f]{64}$/, `${item.uri}: no sha256 digest`)
        for (const entry of entries)
          assert.equal(item.digest!.sha256, entry.sha256, `${item.uri}: not ${entry.filename}'s sha256`)
        checked.push(`${purl[1]}@${purl[2]} ${purl[3]} sha256:${item.digest!.sha256}`)
      }
      // The image's SBOMs: SPDX checksums and CycloneDX hashes, the same digests.
      for (const arch of IMAGE_ARCHES) {
        const subject = imageSbomSubject(version, `linux/${arch}`)
        const spdx = JSON.parse(await readFile(path.join(releaseDir, sbomName(subject, 'spdx')), 'utf8')) as {
          packages: {
            name: string
            versionInfo?: string
            externalRefs?: {referenceLocator: string}[]
            checksums?: {algorithm: string; checksumValue: string}[]
          }[]
        }
        const cdx = JSON.parse(await readFile(path.join(releaseDir, sbomName(subject, 'cdx')), 'utf8')) as {
          components: {
            name: string
            version?: string
            purl?: string
            hashes?: {alg: string; content: string}[]
          }[]
        }
        const spdxDebs = spdx.packages.flatMap((pkg) => {
          const purl = pkg.externalRefs?.find((ref) => ref.referenceLocator.startsWith('pkg:deb/'))
          return purl ? [{pkg, arch: /[?&]arch=([^&]+)/.exec(purl.referenceLocator)![1]!}] : []
        })
        assert.ok(spdxDebs.length >= 6, `${subject}: ${spdxDebs.length} Debian packages`)
        for (const {pkg, arch: debArch} of spdxDebs) {
          const [entry] = indexed(pkg.name, pkg.versionInfo!, debArch)
          assert.ok(entry, `${subject}: ${pkg.name} ${pkg.versionInfo} not in the Packages index`)
          assert.deepEqual(
            pkg.checksums?.filter((item) => item.algorithm === 'SHA256'),
            [{algorithm: 'SHA256', checksumValue: entry.sha256}],
            `${subject}: ${pkg.name}`,
          )
        }
        const cdxDebs = cdx.components.filter((item) => item.purl?.startsWith('pkg:deb/'))
        assert.equal(cdxDebs.length, spdxDebs.length, `${subject}: CycloneDX and SPDX Debian packages`)
        for (const component of cdxDebs) {
          const [entry] = indexed(
            component.name,
            component.version!,
            /[?&]arch=([^&]+)/.exec(component.purl!)![1]!,
          )
          assert.ok(entry, `${subject}: ${component.name} ${component.version} not in the Packages index`)
          assert.deepEqual(
            component.hashes?.filter((item) => item.alg === 'SHA-256'),
            [{alg: 'SHA-256', content: entry.sha256}],
            `${subject}: ${component.name}`,
          )
        }
      }
      console.error(`release: Debian packages pinned:\n${checked.join('\n')}`)
    },
  )
})
