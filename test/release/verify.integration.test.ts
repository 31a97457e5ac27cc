// npm run test:release, the signatures: what scripts/release-sign.ts added to release/ (the SBOMs, the
// provenance, the signatures and cosign.pub, from a release built with `--test-key`) checked with
// cosign as docs/verifying.md says, and the image pushed to a registry on 127.0.0.1, signed and
// attested there, and verified: each with the release's key, and refused with another key.
import assert from 'node:assert/strict'
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {mkdir, readdir, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {repoRoot, runProgram, tempDir, type RunResult} from '../helpers/env.js'
import {ensureReleaseTool} from '../testenv/binaries.js'
import {NODE_VERSION, PLATFORMS} from '../../scripts/node-runtime.js'
import {archiveName, CHECKSUMS, IMAGE_INDEX, tarballName} from '../../scripts/release.js'
import {IMAGE_ARCHES} from '../../scripts/release-image.js'
import {
  CHECKSUMS_SIGNATURE,
  provenanceBundleName,
  PUBLIC_KEY,
  TEST_KEY_PASSWORD,
  testKeyDir,
} from '../../scripts/release-sign.js'
import {provenanceName, SLSA_PROVENANCE_V1, STATEMENT_TYPE, subjectsOf} from '../../scripts/provenance.js'
import {imageSbomSubject, sbomName} from '../../scripts/sbom.js'
import {VENDOR_BUNDLE, vendorPackagesFile, type VendoredPackage} from '../../scripts/vendor.js'
import {startRegistry, type Registry} from './registry.js'

const releaseDir = process.env.CPCRED_RELEASE_DIR ?? path.join(repoRoot, 'release')
const {version} = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string}
const imageSbom = (arch: string) => imageSbomSubject(version, `linux/${arch}`)

/** The sh block after `<!-- NAME -->` in docs/verifying.md. */
async function docBlock(name: string): Promise<string> {
  const doc = await readFile(path.join(repoRoot, 'docs', 'verifying.md'), 'utf8')
  const marker = doc.indexOf(`<!-- ${name} -->`)
  assert.notEqual(marker, -1, `docs/verifying.md has no ${name} marker`)
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(marker))
  assert.ok(block, `no sh block after the ${name} marker`)
  return block[1]!
}

const ok = (result: RunResult, what: string) =>
  assert.equal(result.code, 0, `${what}\n${result.stdout}${result.stderr}`)

describe(`the signatures, SBOMs and provenance of cpcred ${version}`, () => {
  let cosign: string
  let work: string
  /** A folder with release/'s files (links): what a user downloads; the doc's blocks run there. */
  let download: string
  let otherKey: string
  let env: NodeJS.ProcessEnv
  const key = path.join(testKeyDir(), 'cosign.key')

  const run = (args: string[], cwd = download, extra: NodeJS.ProcessEnv = {}) =>
    runProgram(cosign, args, {cwd, env: {...env, ...extra}})

  before(async () => {
    cosign = await ensureReleaseTool('cosign')
    work = await tempDir('cpcred-verify-')
    download = path.join(work, 'download')
    await mkdir(download)
    for (const name of await readdir(releaseDir))
      await symlink(path.join(releaseDir, name), path.join(download, name))
    env = {
      PATH: `${path.dirname(cosign)}:${process.env.PATH}`,
      HOME: work,
      NO_PROXY: '127.0.0.1',
      no_proxy: '127.0.0.1',
    }
    // Another key pair: everything signed with the release's must be refused with it.
    const other = path.join(work, 'other')
    await mkdir(other)
    ok(await run(['generate-key-pair'], other, {COSIGN_PASSWORD: 'other'}), 'generate-key-pair')
    otherKey = path.join(other, 'cosign.pub')
  })

  after(() => rm(work, {recursive: true, force: true}))

  it(`${PUBLIC_KEY} is the public half of the key the release was signed with`, async () => {
    const derived = await run(['public-key', '--key', key], work, {COSIGN_PASSWORD: TEST_KEY_PASSWORD})
    ok(derived, 'cosign public-key')
    assert.equal(await readFile(path.join(releaseDir, PUBLIC_KEY), 'utf8'), derived.stdout)
  })

  it(`${CHECKSUMS_SIGNATURE} verifies ${CHECKSUMS}; a changed byte and another key are refused`, async () => {
    const verify = (pub: string, file: string) =>
      run(['verify-blob', '--key', pub, '--bundle', CHECKSUMS_SIGNATURE, '--insecure-ignore-tlog=true', file])
    const good = await verify(PUBLIC_KEY, CHECKSUMS)
    ok(good, 'verify-blob')
    assert.match(good.stderr, /Verified OK/)
    const changed = path.join(work, 'SHA256SUMS.changed')
    const sums = await readFile(path.join(releaseDir, CHECKSUMS))
    sums[0] = sums[0] === 0x30 ? 0x31 : 0x30
    await writeFile(changed, sums)
    const tampered = await verify(PUBLIC_KEY, changed)
    assert.notEqual(tampered.code, 0, tampered.stderr)
    assert.match(tampered.stderr, /invalid signature/)
    const wrongKey = await verify(otherKey, CHECKSUMS)
    assert.notEqual(wrongKey.code, 0, wrongKey.stderr)
    assert.match(wrongKey.stderr, /invalid signature/)
  })

  it('each SBOM is in SHA256SUMS; every production dependency of the lockfile, and every package bundled into dist/vendor, is in each SBOM with its version', async () => {
    const lock = JSON.parse(await readFile(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, {version?: string; dev?: boolean; integrity?: string}>
    }
    const production = Object.entries(lock.packages)
      .filter(([where, pkg]) => where.startsWith('node_modules/') && !pkg.dev)
      .map(
        ([where, pkg]) =>
          `${where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${pkg.version}`,
      )
    assert.ok(production.length > 50, `${production.length} production packages`)
    // What the build bundled (syft sees only the bundle's file): as the npm tarball lists it, each
    // at the version the lockfile has, client-node among them.
    const listed = await runProgram('tar', [
      '-xzOf',
      path.join(releaseDir, tarballName(version)),
      `package/${vendorPackagesFile(VENDOR_BUNDLE)}`,
    ])
    assert.equal(listed.code, 0, `the npm tarball lists no bundled packages: ${listed.stderr}`)
    const bundled = (JSON.parse(listed.stdout) as VendoredPackage[]).map(
      ({name, version: bundledVersion}) => `${name}@${bundledVersion}`,
    )
    assert.ok(
      bundled.some((pkg) => pkg.startsWith('@kubernetes/client-node@')),
      bundled.join(' '),
    )
    const locked = new Set(
      Object.entries(lock.packages).map(
        ([where, pkg]) =>
          `${where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${pkg.version}`,
      ),
    )
    for (const pkg of bundled) assert.ok(locked.has(pkg), `bundled ${pkg} is not in package-lock.json`)
    const summed = subjectsOf(await readFile(path.join(releaseDir, CHECKSUMS), 'utf8')).map(({name}) => name)
    const counts: string[] = []
    const subjects = [...PLATFORMS.map((platform) => archiveName(version, platform)), tarballName(version)]
    for (const subject of [...subjects, ...IMAGE_ARCHES.map(imageSbom)]) {
      for (const format of ['spdx', 'cdx'] as const)
        assert.ok(
          summed.includes(sbomName(subject, format)),
          `${sbomName(subject, format)} not in ${CHECKSUMS}`,
        )
      const spdx = JSON.parse(await readFile(path.join(releaseDir, sbomName(subject, 'spdx')), 'utf8')) as {
        packages: {name: string; versionInfo?: string; externalRefs?: {referenceLocator: string}[]}[]
      }
      const cdx = JSON.parse(await readFile(path.join(releaseDir, sbomName(subject, 'cdx')), 'utf8')) as {
        components: {name: string; group?: string; version?: string; purl?: string}[]
      }
      const inSpdx = new Set(spdx.packages.map((pkg) => `${pkg.name}@${pkg.versionInfo}`))
      const inCdx = new Set(
        cdx.components.map((item) => `${item.group ? `${item.group}/` : ''}${item.name}@${item.version}`),
      )
      for (const pkg of production) {
        assert.ok(inSpdx.has(pkg), `${pkg} is not in ${sbomName(subject, 'spdx')}`)
        assert.ok(inCdx.has(pkg), `${pkg} is not in ${sbomName(subject, 'cdx')}`)
      }
      const purls = spdx.packages.flatMap((pkg) =>
        (pkg.externalRefs ?? []).map((ref) => ref.referenceLocator),
      )
      const cdxPurls = new Set(cdx.components.map((item) => item.purl))
      for (const pkg of bundled) {
        const at = pkg.lastIndexOf('@')
        const purl = `pkg:npm/${pkg.slice(0, at).replace(/^@/, '%40')}@${pkg.slice(at + 1)}`
        assert.ok(inSpdx.has(pkg), `bundled ${pkg} is not in ${sbomName(subject, 'spdx')}`)
        assert.ok(purls.includes(purl), `bundled ${purl} is not in ${sbomName(subject, 'spdx')}`)
        assert.ok(inCdx.has(pkg), `bundled ${pkg} is not in ${sbomName(subject, 'cdx')}`)
        assert.ok(cdxPurls.has(purl), `bundled ${purl} is not in ${sbomName(subject, 'cdx')}`)
      }
      if (subject !== tarballName(version))
        assert.ok(inSpdx.has(`node@${NODE_VERSION}`), `${subject}: no node@${NODE_VERSION}`)
      const debian = purls.filter((purl) => purl.startsWith('pkg:deb/'))
      const golang = purls.filter((purl) => purl.startsWith('pkg:golang/'))
      if (subject.endsWith('-image')) {
        for (const name of ['libc6', 'libstdc++6', 'ca-certificates']) {
          const pkg = spdx.packages.find((item) => item.name === name)
          assert.ok(pkg?.versionInfo, `${subject}: no Debian ${name} with a version`)
        }
        assert.ok(
          golang.some((purl) => purl.startsWith('pkg:golang/k8s.io/kubectl@')),
          `${subject}: no kubectl module`,
        )
      }
      counts.push(
        `${subject}: ${spdx.packages.length} SPDX packages, ${cdx.components.length} CycloneDX components ` +
          `(npm ${purls.filter((purl) => purl.startsWith('pkg:npm/')).length}, deb ${debian.length}, golang ${golang.length})`,
      )
    }
    console.error(`release: SBOMs:\n${counts.join('\n')}`)
  })

  it('the provenance is an SLSA v1 Statement of every SHA256SUMS line, signed with the key, refused with another', async () => {
    const statement = JSON.parse(await readFile(path.join(releaseDir, provenanceName(version)), 'utf8'))
    assert.equal(statement._type, STATEMENT_TYPE)
    assert.equal(statement.predicateType, SLSA_PROVENANCE_V1)
    assert.deepEqual(statement.subject, subjectsOf(await readFile(path.join(releaseDir, CHECKSUMS), 'utf8')))
    const definition = statement.predicate.buildDefinition
    const head = (await runProgram('git', ['rev-parse', 'HEAD'], {cwd: repoRoot})).stdout.trim()
    assert.equal(definition.externalParameters.source.digest.gitCommit, head)
    assert.equal(definition.externalParameters.command, 'npm run release')
    const names = (definition.resolvedDependencies as {name: string; digest?: {sha256?: string}}[]).map(
      (item) => item.name,
    )
    const lockDigest = createHash('sha256')
      .update(await readFile(path.join(repoRoot, 'package-lock.json')))
      .digest('hex')
    assert.equal(
      definition.resolvedDependencies.find((item: {name: string}) => item.name === 'package-lock.json').digest
        .sha256,
      lockDigest,
    )
    for (const expected of [`node ${NODE_VERSION}`, 'kubectl v1.37.2', 'debian bookworm libc6'])
      assert.ok(names.includes(expected), `${expected} not in ${names.join(', ')}`)

    const verify = (pub: string, blob: string) =>
      run([
        'verify-blob-attestation',
        '--key',
        pub,
        '--bundle',
        provenanceBundleName(version),
        '--type',
        'slsaprovenance1',
        '--insecure-ignore-tlog=true',
        blob,
      ])
    for (const subject of [tarballName(version), archiveName(version, 'darwin-arm64'), IMAGE_INDEX])
      ok(await verify(PUBLIC_KEY, subject), `verify-blob-attestation ${subject}`)
    const wrongKey = await verify(otherKey, tarballName(version))
    assert.notEqual(wrongKey.code, 0, wrongKey.stdout + wrongKey.stderr)
    // A file the Statement does not name is refused too.
    const notNamed = await verify(PUBLIC_KEY, PUBLIC_KEY)
    assert.notEqual(notNamed.code, 0, notNamed.stdout + notNamed.stderr)
  })

  it("docs/verifying.md's file and provenance blocks pass as written in the release", async () => {
    for (const name of ['verify-files', 'verify-provenance']) {
      const block = await docBlock(name)
      ok(await runProgram('sh', ['-ec', block], {cwd: download, env}), `${name}:\n${block}`)
    }
  })

  describe('the image on a registry', () => {
    let registry: Registry
    before(async () => {
      registry = await startRegistry(await ensureReleaseTool('registry'), path.join(work, 'registry'))
    })
    after(() => registry?.stop())

    it('pushed, signed and attested with the key: cosign verify and verify-attestation pass, and fail with another key; the doc block passes', async () => {
      const tag = `${registry.host}/cpcred:${version}`
      const pushed = await runProgram(
        'skopeo',
        [
          'copy',
          '--all',
          '--dest-tls-verify=false',
          `oci:${path.join(releaseDir, 'image')}:${version}`,
          `docker://${tag}`,
        ],
        {env},
      )
      ok(pushed, 'skopeo copy')
      const layout = JSON.parse(await readFile(path.join(releaseDir, IMAGE_INDEX), 'utf8')) as {
        manifests: {digest: string; annotations: Record<string, string>}[]
      }
      const digest = layout.manifests.find(
        (item) => item.annotations['org.opencontainers.image.ref.name'] === version,
      )!.digest
      const image = `${registry.host}/cpcred@${digest}`
      const offline = ['--tlog-upload=false', '--use-signing-config=false']
      const signing = {COSIGN_PASSWORD: TEST_KEY_PASSWORD}
      ok(await run(['sign', '--yes', '--key', key, ...offline, image], work, signing), 'cosign sign')
      const predicate = path.join(work, 'provenance-predicate.json')
      await writeFile(
        predicate,
        JSON.stringify(
          JSON.parse(await readFile(path.join(releaseDir, provenanceName(version)), 'utf8')).predicate,
        ),
      )
      const attest = async (type: string, file: string, what: string) =>
        ok(
          await run(
            ['attest', '--yes', '--key', key, ...offline, '--type', type, '--predicate', file, image],
            work,
            signing,
          ),
          `cosign attest ${what}`,
        )
      await attest('slsaprovenance1', predicate, 'slsaprovenance1')
      for (const arch of IMAGE_ARCHES)
        await attest('spdxjson', path.join(releaseDir, sbomName(imageSbom(arch), 'spdx')), `spdxjson ${arch}`)

      const verify = (pub: string) => run(['verify', '--key', pub, '--insecure-ignore-tlog=true', image])
      const verifyAttestation = (pub: string, type: string) =>
        run(['verify-attestation', '--key', pub, '--insecure-ignore-tlog=true', '--type', type, image])
      ok(await verify(PUBLIC_KEY), 'cosign verify')
      for (const type of ['slsaprovenance1', 'spdxjson']) {
        const attested = await verifyAttestation(PUBLIC_KEY, type)
        ok(attested, `cosign verify-attestation ${type}`)
        const payloads = attested.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(Buffer.from(JSON.parse(line).payload, 'base64').toString()))
        assert.ok(payloads.every((item) => item.subject[0].digest.sha256 === digest.slice('sha256:'.length)))
        const wrong = await verifyAttestation(otherKey, type)
        assert.notEqual(wrong.code, 0, `verify-attestation ${type} with another key passed`)
      }
      const wrong = await verify(otherKey)
      assert.notEqual(wrong.code, 0, 'cosign verify with another key passed')

      const block = (await docBlock('verify-image')).replaceAll('registry.example/', `${registry.host}/`)
      const documented = await runProgram('sh', ['-ec', block], {cwd: download, env})
      ok(documented, `verify-image:\n${block}`)
      assert.match(documented.stdout, new RegExp(`^IMAGE=${registry.host}/cpcred@${digest}$`, 'm'))
      // Unsigned: the same block against a tag pushed without a signature fails.
      const unsigned = `${registry.host}/unsigned:${version}`
      ok(
        await runProgram(
          'skopeo',
          [
            'copy',
            '--dest-tls-verify=false',
            `oci:${path.join(releaseDir, 'image')}:${version}-amd64`,
            `docker://${unsigned}`,
          ],
          {env},
        ),
        'skopeo copy unsigned',
      )
      const refused = await runProgram(
        'sh',
        ['-ec', block.replaceAll(`${registry.host}/cpcred`, `${registry.host}/unsigned`)],
        {cwd: download, env},
      )
      assert.notEqual(refused.code, 0, refused.stdout)
      assert.ok(!existsSync(path.join(releaseDir, 'verified.json')), 'the doc block wrote into release/')
    })
  })
})
