// npm run test:release, the platforms: each standalone archive carries the official Node of its
// platform byte for byte (a Mach-O of the right CPU for macOS, an ELF of the right machine for
// Linux, the file of the pinned npm package: Apple's signature intact); the launcher finds its Node
// under every POSIX shell Debian has, with only what macOS has on PATH (no `readlink -f`, a BSD
// stat); and the real krew picks each platform's archive from the manifest. macOS itself cannot run
// here: the launcher runs with the Linux Node in the same layout.
import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {mkdir, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {
  NODE_PACKAGES,
  NODE_VERSION,
  nodeTarball,
  PLATFORMS,
  type Platform,
} from '../../scripts/node-runtime.js'
import {archiveName, KREW_MANIFEST, LAUNCHERS} from '../../scripts/release.js'
import {repoRoot, runProgram, tempDir} from '../helpers/env.js'
import {ensureKrew} from '../testenv/binaries.js'

const releaseDir = process.env.CPCRED_RELEASE_DIR ?? path.join(repoRoot, 'release')
const {version} = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string}
const archive = (platform: Platform) => path.join(releaseDir, archiveName(version, platform))
const escaped = (text: string) => text.replaceAll('.', '\\.')

/** The first bytes of a file in a tar.gz (or, with `sha256`, the file's digest). */
async function member(tarball: string, name: string, what: 'head' | 'sha256'): Promise<string> {
  const filter = what === 'head' ? 'head -c 32 | od -An -tx1 -v' : 'sha256sum'
  // head stops reading early (tar then dies of SIGPIPE): only the digest's pipe must all succeed.
  const {code, stdout, stderr} = await runProgram('bash', [
    '-o',
    what === 'head' ? 'errexit' : 'pipefail',
    '-c',
    `tar -xzOf "$0" "$1" | ${filter}`,
    tarball,
    name,
  ])
  assert.equal(code, 0, stderr)
  const bytes = stdout.replace(/\s+/g, '')
  if (what === 'head') assert.equal(bytes.length, 64, `${name} of ${tarball}: ${stdout}`)
  return what === 'head' ? bytes : stdout.split(' ')[0]!
}

const le32 = (hex: string, offset: number) => Buffer.from(hex, 'hex').readUInt32LE(offset)
const le16 = (hex: string, offset: number) => Buffer.from(hex, 'hex').readUInt16LE(offset)

/** What each platform's lib/node must be. */
const EXPECTED: Record<Platform, {format: 'ELF' | 'Mach-O'; machine: number}> = {
  'linux-amd64': {format: 'ELF', machine: 62}, // EM_X86_64
  'linux-arm64': {format: 'ELF', machine: 183}, // EM_AARCH64
  'darwin-amd64': {format: 'Mach-O', machine: 0x01000007}, // CPU_TYPE_X86_64
  'darwin-arm64': {format: 'Mach-O', machine: 0x0100000c}, // CPU_TYPE_ARM64
}

/** A Node 20 on this machine (its line ended on 2026-04-30), or undefined. */
async function machineNode20(): Promise<string | undefined> {
  for (const node of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue
    if ((await runProgram(node, ['--version'])).stdout.startsWith('v20.')) return node
  }
  return undefined
}

describe(`the platforms of cpcred ${version}`, () => {
  it(`each archive's lib/node is the official Node ${NODE_VERSION} of its platform, as its npm package has it`, async () => {
    for (const platform of PLATFORMS) {
      const head = await member(archive(platform), 'lib/node', 'head')
      const {format, machine} = EXPECTED[platform]
      if (format === 'ELF') {
        assert.equal(head.slice(0, 8), '7f454c46', `${platform}: not an ELF file`)
        assert.equal(le16(head, 18), machine, `${platform}: e_machine`)
      } else {
        assert.equal(le32(head, 0), 0xfeedfacf, `${platform}: not a 64-bit Mach-O file`)
        assert.equal(le32(head, 4), machine, `${platform}: cputype`)
      }
      const shipped = await member(archive(platform), 'lib/node', 'sha256')
      const official = await member(await nodeTarball(NODE_PACKAGES[platform]), 'package/bin/node', 'sha256')
      assert.equal(shipped, official, `${platform}: lib/node differs from ${NODE_PACKAGES[platform].pkg}'s`)
    }
  })

  describe('the launcher, with only what macOS has on PATH', () => {
    let work: string
    /** The Linux archive of this machine, unpacked where krew keeps a version. */
    let store: string
    let fakes: string
    const shells: {name: string; argv: string[]}[] = []

    before(async () => {
      work = await tempDir('cpcred-release-shells-')
      store = path.join(work, 'krew', 'store', 'cpcred', `v${version}`)
      await mkdir(store, {recursive: true})
      const linux: Platform = process.arch === 'arm64' ? 'linux-arm64' : 'linux-amd64'
      const unpacked = await runProgram('tar', ['-xzf', archive(linux), '-C', store])
      assert.equal(unpacked.code, 0, unpacked.stderr)
      // krew's bin/: an absolute link to the store, and the completion link the README adds.
      await mkdir(path.join(work, 'krew', 'bin'))
      await symlink(path.join(store, 'kubectl-cpcred'), path.join(work, 'krew', 'bin', 'kubectl-cpcred'))
      await symlink('kubectl-cpcred', path.join(work, 'krew', 'bin', 'kubectl_complete-cpcred'))
      // A user's links: absolute, and a relative chain of two.
      await mkdir(path.join(work, 'bin'))
      await mkdir(path.join(work, 'links'))
      await symlink(path.join(store, 'cpcred'), path.join(work, 'bin', 'cpcred'))
      await symlink(
        path.relative(path.join(work, 'links'), path.join(store, 'cpcred')),
        path.join(work, 'links', 'cpcred'),
      )
      await symlink('../links/cpcred', path.join(work, 'bin', 'cpcred-chain'))
      // macOS before 12.3: readlink without -f; a BSD stat, which has no -c and no long options.
      fakes = path.join(work, 'fakes')
      await mkdir(fakes)
      await writeFile(
        path.join(fakes, 'readlink'),
        '#!/bin/sh\nfor a; do case $a in -n) ;; -*) echo "readlink: illegal option -- ${a#-}" >&2; echo "usage: readlink [-n] [file ...]" >&2; exit 1 ;; esac; done\nexec /usr/bin/readlink "$@"\n',
        {mode: 0o755},
      )
      await writeFile(
        path.join(fakes, 'stat'),
        '#!/bin/sh\nfor a; do case $a in -c*|--*) echo "stat: illegal option -- ${a#-}" >&2; exit 1 ;; esac; done\nexec /usr/bin/stat "$@"\n',
        {mode: 0o755},
      )
      // zsh emulates sh when called by that name.
      await mkdir(path.join(work, 'zsh-as-sh'))
      for (const [name, argv] of [
        ['dash', ['dash']],
        ['bash --posix', ['bash', '--posix']],
        ['busybox sh', ['busybox', 'sh']],
        ['zsh as sh', [path.join(work, 'zsh-as-sh', 'sh')]],
      ] as const) {
        const program = name === 'zsh as sh' ? 'zsh' : argv[0]
        const found = await runProgram('sh', ['-c', 'command -v "$0"', program])
        if (found.code !== 0) {
          console.error(`release: the launcher is not run under ${name}: ${program} is not installed`)
          continue
        }
        // By its path: the PATH the launcher gets has only the fakes.
        if (name === 'zsh as sh') await symlink(found.stdout.trim(), argv[0])
        shells.push({name, argv: name === 'zsh as sh' ? [...argv] : [found.stdout.trim(), ...argv.slice(1)]})
      }
    })

    after(() => rm(work, {recursive: true, force: true}))

    it('the fakes refuse what macOS refuses', async () => {
      assert.notEqual((await runProgram(path.join(fakes, 'readlink'), ['-f', '/'])).code, 0)
      assert.notEqual((await runProgram(path.join(fakes, 'stat'), ['-c', '%n', '/'])).code, 0)
      assert.ok(shells.length >= 3, shells.map(({name}) => name).join(', '))
    })

    it("finds and runs its Node directly, through krew's link and through a user's links, under each shell", async () => {
      const env = {PATH: fakes, HOME: work, NO_COLOR: '1'}
      const ways: {how: string; file: string; cwd?: string}[] = [
        {how: 'in its folder', file: path.join(store, 'cpcred')},
        {how: 'by a relative path', file: './kubectl-cpcred', cwd: store},
        {how: "through krew's bin/ link", file: path.join(work, 'krew', 'bin', 'kubectl-cpcred')},
        {how: 'through an absolute link', file: path.join(work, 'bin', 'cpcred')},
        {how: 'through a chain of relative links', file: path.join(work, 'bin', 'cpcred-chain')},
      ]
      for (const shell of shells) {
        for (const {how, file, cwd} of ways) {
          const run = await runProgram(
            shell.argv[0]!,
            [...shell.argv.slice(1), file, 'version', '-o', 'json'],
            {
              env,
              cwd,
            },
          )
          const where = `${shell.name}, ${how}`
          assert.equal(run.code, 0, `${where}: ${run.stdout}${run.stderr}`)
          const info = JSON.parse(run.stdout) as {node: string; nodeEndOfLife: string; version: string}
          assert.equal(info.node, `v${NODE_VERSION}`, where)
          assert.equal(info.version, version, where)
          assert.equal(run.stderr, '', `${where}: ${run.stderr}`)
        }
        const complete = await runProgram(
          shell.argv[0]!,
          [...shell.argv.slice(1), path.join(work, 'krew', 'bin', 'kubectl_complete-cpcred'), ''],
          {env},
        )
        assert.equal(complete.code, 0, `${shell.name}: ${complete.stderr}`)
        assert.match(complete.stdout, /^list\b/m, shell.name)
      }
      assert.deepEqual(
        LAUNCHERS.filter((name) => !existsSync(path.join(store, name))),
        [],
      )
    })

    it(`the archive's cpcred version shows Node ${NODE_VERSION} and its end of life with no warning; Node 20 warns`, async () => {
      const run = await runProgram(path.join(store, 'cpcred'), ['version'], {env: {PATH: fakes, HOME: work}})
      assert.equal(run.code, 0, run.stderr)
      assert.match(
        run.stdout,
        new RegExp(`^node +v${escaped(NODE_VERSION)} \\(LTS, end of life 2029-04-30\\)$`, 'm'),
      )
      assert.equal(run.stderr, '')
      const node20 = await machineNode20()
      if (!node20) return void console.error('release: no Node 20 on this machine to check the warning with')
      const ended = await runProgram(
        node20,
        [path.join(store, 'lib', 'cpcred', 'bin', 'run.js'), 'version'],
        {
          env: {PATH: fakes, HOME: work},
        },
      )
      assert.equal(ended.code, 0, ended.stderr)
      assert.match(ended.stderr, /^warning: Node v20\.\d+\.\d+ reached its end of life on 2026-04-30/m)
    })
  })

  it('the real krew picks the archive of each platform (KREW_OS, KREW_ARCH) from the manifest', async () => {
    const krew = await ensureKrew()
    const work = await tempDir('cpcred-release-krew-')
    try {
      for (const [index, platform] of PLATFORMS.entries()) {
        const [os, arch] = platform.split('-') as [string, string]
        const env = {
          PATH: '/usr/bin:/bin',
          HOME: work,
          KREW_ROOT: path.join(work, platform),
          KREW_OS: os,
          KREW_ARCH: arch,
        }
        const install = (file: string) =>
          runProgram(
            krew,
            ['install', `--manifest=${path.join(releaseDir, KREW_MANIFEST)}`, `--archive=${file}`],
            {
              env,
            },
          )
        // Another platform's archive: krew checks it against the sha256 of the platform it chose.
        const other = PLATFORMS[(index + 1) % PLATFORMS.length]!
        const wrong = await install(archive(other))
        assert.notEqual(wrong.code, 0, `${platform} took ${other}'s archive`)
        assert.match(wrong.stdout + wrong.stderr, /checksum does not match/, wrong.stdout + wrong.stderr)
        const right = await install(archive(platform))
        assert.equal(right.code, 0, `${platform}: ${right.stdout}${right.stderr}`)
        const node = path.join(env.KREW_ROOT, 'store', 'cpcred', `v${version}`, 'lib', 'node')
        const head = (
          await runProgram('sh', ['-c', 'head -c 32 "$0" | od -An -tx1 -v', node])
        ).stdout.replace(/\s+/g, '')
        const {format, machine} = EXPECTED[platform]
        assert.equal(format === 'ELF' ? le16(head, 18) : le32(head, 4), machine, platform)
        assert.ok(existsSync(path.join(env.KREW_ROOT, 'bin', 'kubectl-cpcred')), platform)
        await rm(env.KREW_ROOT, {recursive: true, force: true})
      }
    } finally {
      await rm(work, {recursive: true, force: true})
    }
  })
})
