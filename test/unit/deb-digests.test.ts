// The image's Debian packages pinned by their .deb's sha256 (scripts/deb-digests.ts): the record the
// mmdebstrap hook writes (run here on a root of hand-made .debs and Packages lists), checked against
// the Packages index's stanzas, and the digests the image's SBOMs get (scripts/sbom.ts).
import assert from 'node:assert/strict'
import {execFile as execFileCallback} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {promisify} from 'node:util'
import {
  DEB_DIGESTS_HOOK,
  DEB_RECORD_DIR,
  parsePackagesIndex,
  readDebDigests,
  readDebRecord,
  type DebDigest,
} from '../../scripts/deb-digests.js'
import {withDebDigests} from '../../scripts/sbom.js'

const execFile = promisify(execFileCallback)
const A = 'a'.repeat(64)
const B = 'b'.repeat(64)
const C = 'c'.repeat(64)

/** A Packages index as apt keeps it: whole stanzas, a multi-line description, several suites. */
const INDEX = `Package: libc6
Source: glibc
Version: 2.36-9+deb12u14
Installed-Size: 12986
Architecture: amd64
Description: GNU C Library: Shared libraries
 Contains the standard libraries that are used by nearly all programs on
 the system.
Filename: pool/main/g/glibc/libc6_2.36-9+deb12u14_amd64.deb
Size: 2758392
MD5sum: 0123456789abcdef0123456789abcdef
SHA256: ${A}

Package: libc6
Version: 2.36-9+deb12u10
Architecture: amd64
Filename: pool/main/g/glibc/libc6_2.36-9+deb12u10_amd64.deb
SHA256: ${C}

Package: ca-certificates
Version: 20250419~deb12u2
Architecture: all
Filename: pool/main/c/ca-certificates/ca-certificates_20250419~deb12u2_all.deb
SHA256: ${B}

Package: ca-certificates
Version: 20250419~deb12u2
Architecture: all
Filename: pool/main/c/ca-certificates/ca-certificates_20250419~deb12u2_all.deb
SHA256: ${B}
`

const debsRecord = (libc: string) => `Package: libc6
Version: 2.36-9+deb12u14
Architecture: amd64
SHA256: ${libc}

Package: ca-certificates
Version: 20250419~deb12u2
Architecture: all
SHA256: ${B}

`

describe("the .deb record checked against Debian's Packages index", () => {
  it("reads a Packages stanza's name, version, arch, pool file and SHA256 (continuation lines left out)", () => {
    const [libc] = parsePackagesIndex(INDEX)
    assert.deepEqual(libc, {
      name: 'libc6',
      version: '2.36-9+deb12u14',
      arch: 'amd64',
      filename: 'pool/main/g/glibc/libc6_2.36-9+deb12u14_amd64.deb',
      sha256: A,
    })
    assert.throws(() => parsePackagesIndex('Package: libc6\nVersion: 1\nArchitecture: amd64\n'), /SHA256/)
  })

  it('gives each .deb its sha256 and pool file when the index (every suite that lists it) agrees', () => {
    assert.deepEqual(readDebDigests(debsRecord(A), INDEX), [
      {
        name: 'ca-certificates',
        version: '20250419~deb12u2',
        arch: 'all',
        sha256: B,
        filename: 'pool/main/c/ca-certificates/ca-certificates_20250419~deb12u2_all.deb',
      },
      {
        name: 'libc6',
        version: '2.36-9+deb12u14',
        arch: 'amd64',
        sha256: A,
        filename: 'pool/main/g/glibc/libc6_2.36-9+deb12u14_amd64.deb',
      },
    ])
    // The index's stanzas kept are those of the .debs' versions only.
    assert.deepEqual(
      readDebRecord(debsRecord(A), INDEX).index.map((entry) => `${entry.name} ${entry.version}`),
      ['libc6 2.36-9+deb12u14', 'ca-certificates 20250419~deb12u2', 'ca-certificates 20250419~deb12u2'],
    )
  })

  it("fails on a .deb whose sha256 is not the index's, naming both and the pool file", () => {
    assert.throws(
      () => readDebDigests(debsRecord(C), INDEX),
      (error: Error) =>
        error.message.includes(`sha256 is ${C}`) &&
        error.message.includes(`gives ${A}`) &&
        error.message.includes('pool/main/g/glibc/libc6_2.36-9+deb12u14_amd64.deb'),
    )
  })

  it('fails on a .deb the index has no stanza of (another version or arch), and on an empty record', () => {
    assert.throws(
      () => readDebDigests(debsRecord(A).replace('Architecture: amd64', 'Architecture: arm64'), INDEX),
      /libc6 2\.36-9\+deb12u14 \(arm64\): no stanza/,
    )
    assert.throws(
      () => readDebDigests(debsRecord(A).replace('2.36-9+deb12u14', '2.36-9+deb12u99'), INDEX),
      /no stanza/,
    )
    assert.throws(() => readDebDigests('', INDEX), /lists no package/)
  })
})

describe(
  'DEB_DIGESTS_HOOK, as mmdebstrap runs it',
  {skip: !existsSync('/usr/bin/dpkg-deb') && 'no dpkg-deb'},
  () => {
    it("records each downloaded .deb's fields and sha256, and the lists' stanzas of those packages", async () => {
      const work = await mkdtemp(path.join(os.tmpdir(), 'cpcred-deb-hook-'))
      try {
        const root = path.join(work, 'root')
        const archives = path.join(root, 'var/cache/apt/archives')
        const lists = path.join(root, 'var/lib/apt/lists')
        await mkdir(archives, {recursive: true})
        await mkdir(lists, {recursive: true})
        const digests: Record<string, string> = {}
        for (const [name, version, arch] of [
          ['libfoo1', '1:2.0-1', 'amd64'],
          ['foo-data', '2.0-1', 'all'],
        ] as const) {
          const pkg = path.join(work, name)
          await mkdir(path.join(pkg, 'DEBIAN'), {recursive: true})
          await writeFile(
            path.join(pkg, 'DEBIAN/control'),
            `Package: ${name}\nVersion: ${version}\nArchitecture: ${arch}\nMaintainer: t <t@example.invalid>\nDescription: a test package\n`,
          )
          const deb = path.join(archives, `${name}_${version.replace(':', '%3a')}_${arch}.deb`)
          await execFile('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', pkg, deb])
          digests[name] = createHash('sha256')
            .update(await readFile(deb))
            .digest('hex')
        }
        const stanza = (name: string, version: string, arch: string, sha256: string) =>
          `Package: ${name}\nVersion: ${version}\nArchitecture: ${arch}\nDescription: x\n more\nFilename: pool/main/f/foo/${name}_${version.replace(/^\d+:/, '')}_${arch}.deb\nSHA256: ${sha256}\n`
        await writeFile(
          path.join(lists, 'mirror_debian_dists_bookworm_main_binary-amd64_Packages'),
          [
            stanza('other', '1.0', 'amd64', C),
            stanza('libfoo1', '1:2.0-1', 'amd64', digests.libfoo1!),
            stanza('foo-data', '2.0-1', 'all', digests['foo-data']!),
          ].join('\n'),
        )
        await writeFile(
          path.join(lists, 'mirror_debian_dists_bookworm-updates_main_binary-amd64_Packages'),
          stanza('libfoo1', '1:2.1-1', 'amd64', C),
        )
        await execFile('sh', ['-c', DEB_DIGESTS_HOOK, 'hook', root])
        const read = (name: string) => readFile(path.join(root, DEB_RECORD_DIR, name), 'utf8')
        const record = readDebRecord(await read('debs'), await read('packages-index'))
        assert.deepEqual(
          record.debs.map((deb: DebDigest) => [deb.name, deb.version, deb.arch, deb.sha256, deb.filename]),
          [
            ['foo-data', '2.0-1', 'all', digests['foo-data'], 'pool/main/f/foo/foo-data_2.0-1_all.deb'],
            ['libfoo1', '1:2.0-1', 'amd64', digests.libfoo1, 'pool/main/f/foo/libfoo1_2.0-1_amd64.deb'],
          ],
        )
        // Only the downloaded packages' stanzas are kept, every version of them, fields cut.
        const kept = await read('packages-index')
        assert.doesNotMatch(kept, /Package: other|Description/)
        assert.match(kept, /Version: 1:2\.1-1/)
        // A .deb changed after apt fetched it: the record no longer matches the index.
        await writeFile(
          path.join(lists, 'mirror_debian_dists_bookworm_main_binary-amd64_Packages'),
          stanza('libfoo1', '1:2.0-1', 'amd64', C) +
            '\n' +
            stanza('foo-data', '2.0-1', 'all', digests['foo-data']!),
        )
        await execFile('sh', ['-c', DEB_DIGESTS_HOOK, 'hook', root])
        const changed = [await read('debs'), await read('packages-index')] as const
        assert.throws(
          () => readDebRecord(...changed),
          new RegExp(
            `libfoo1 1:2\\.0-1 \\(amd64\\): the downloaded \\.deb's sha256 is ${digests.libfoo1}, Debian's Packages index gives ${C}`,
          ),
        )
      } finally {
        await rm(work, {recursive: true, force: true})
      }
    })
  },
)

describe("the image's SBOMs: each Debian package gets its .deb's sha256", () => {
  const debs: DebDigest[] = [
    {name: 'libc6', version: '2.36-9+deb12u14', arch: 'amd64', sha256: A, filename: 'pool/libc6.deb'},
    {name: 'ca-certificates', version: '20250419~deb12u2', arch: 'all', sha256: B, filename: 'pool/ca.deb'},
  ]
  const spdx = () => ({
    packages: [
      {
        name: 'libc6',
        versionInfo: '2.36-9+deb12u14',
        externalRefs: [
          {referenceLocator: 'pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=debian-12'},
        ],
      },
      {
        name: 'ca-certificates',
        versionInfo: '20250419~deb12u2',
        externalRefs: [
          {referenceLocator: 'pkg:deb/debian/ca-certificates@20250419~deb12u2?arch=all&distro=debian-12'},
        ],
      },
      {name: 'yaml', versionInfo: '2.8.1', externalRefs: [{referenceLocator: 'pkg:npm/yaml@2.8.1'}]},
    ],
  })
  const cdx = () => ({
    components: [
      {
        name: 'libc6',
        version: '2.36-9+deb12u14',
        purl: 'pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=debian-12',
      },
      {
        name: 'ca-certificates',
        version: '20250419~deb12u2',
        purl: 'pkg:deb/debian/ca-certificates@20250419~deb12u2?arch=all&distro=debian-12',
      },
      {name: 'yaml', version: '2.8.1', purl: 'pkg:npm/yaml@2.8.1'},
    ],
  })

  it('SPDX checksums and CycloneDX hashes, the same bytes every time; other packages untouched', () => {
    const spdxDoc = spdx() as Record<string, unknown>
    withDebDigests(spdxDoc, 'spdx', debs)
    const packages = spdxDoc.packages as {checksums?: unknown}[]
    assert.deepEqual(packages[0]!.checksums, [{algorithm: 'SHA256', checksumValue: A}])
    assert.deepEqual(packages[1]!.checksums, [{algorithm: 'SHA256', checksumValue: B}])
    assert.equal(packages[2]!.checksums, undefined)
    const again = spdx() as Record<string, unknown>
    withDebDigests(again, 'spdx', debs)
    withDebDigests(again, 'spdx', debs)
    assert.equal(JSON.stringify(again), JSON.stringify(spdxDoc))

    const cdxDoc = cdx() as Record<string, unknown>
    withDebDigests(cdxDoc, 'cdx', debs)
    const components = cdxDoc.components as {hashes?: unknown}[]
    assert.deepEqual(components[0]!.hashes, [{alg: 'SHA-256', content: A}])
    assert.deepEqual(components[1]!.hashes, [{alg: 'SHA-256', content: B}])
    assert.equal(components[2]!.hashes, undefined)
  })

  it('fails on a Debian package with no recorded .deb (another version or arch)', () => {
    const other = [{...debs[0]!, arch: 'arm64'}, debs[1]!]
    assert.throws(
      () => withDebDigests(spdx(), 'spdx', other),
      /libc6 2\.36-9\+deb12u14 \(amd64\) has no recorded \.deb/,
    )
    assert.throws(() => withDebDigests(cdx(), 'cdx', other), /has no recorded \.deb/)
  })
})
