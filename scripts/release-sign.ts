// What `npm run release` adds once every artifact is built: an SBOM of each (scripts/sbom.ts, listed
// in SHA256SUMS like the artifacts), the SLSA provenance of them all (scripts/provenance.ts), and,
// given a cosign key, the signatures: SHA256SUMS.sigstore.json over SHA256SUMS (which names every
// artifact's digest) and the provenance as a signed DSSE attestation, with the key's public half as
// cosign.pub. Without a key the release is the same, unsigned, and says so. docs/verifying.md has
// the commands that check each of these; `npm run test:release` runs them.
//
// The key: `--key cosign.key` or COSIGN_KEY, its password in COSIGN_PASSWORD (cosign reads it from
// the environment; never from argv). `--test-key` makes a throwaway pair for the release test, kept
// outside the checkout (testKeyDir) so that the test can sign the pushed image with it too.
import {execFile as execFileCallback} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {binaryCacheDir, ensureReleaseTool} from '../test/testenv/binaries.js'
import {debOf, type DebDigest} from './deb-digests.js'
import {provenanceName, provenanceStatement} from './provenance.js'
import {imageSbomSubject, sbomName, writeSboms} from './sbom.js'
import {buildStamp} from './stamp.js'

const execFile = promisify(execFileCallback)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export const CHECKSUMS_SIGNATURE = 'SHA256SUMS.sigstore.json'
export const PUBLIC_KEY = 'cosign.pub'
export const provenanceBundleName = (version: string) => `cpcred-${version}.intoto.sigstore.json`
/** What release/ holds besides SHA256SUMS's artifacts: what signs or describes SHA256SUMS itself. */
export const unsummed = (version: string) => [
  CHECKSUMS_SIGNATURE,
  PUBLIC_KEY,
  provenanceName(version),
  provenanceBundleName(version),
]

/** What release.ts hands over: its release, and the pieces of it this step needs. */
export interface SignableRelease {
  out: string
  version: string
  epoch: number
  artifacts: string[]
  log(line: string): void
}

export interface SignContext {
  checksumsFile: string
  /** Rewrites SHA256SUMS over release.artifacts (the SBOMs added). */
  checksums: () => Promise<void>
  tarball: string
  archives: string[]
  /** debs: each platform's (`linux/amd64`) Debian .debs with their sha256 (scripts/deb-digests.ts). */
  image?: {layout: string; index: string; platforms: string[]; debs: Record<string, DebDigest[]>}
  node: {version: string; packages: {name: string; integrity: string}[]}
  debianSuite: string
  /** 'test': a throwaway pair made when it signs (testKey). */
  key?: SigningKey | 'test'
}

export interface SigningKey {
  /** The private key file (cosign's encrypted PEM). */
  file: string
  /** Its password; empty for a key without one. Goes to cosign only in its environment. */
  password: string
}

/** The key `npm run release` signs with: --key or COSIGN_KEY, and COSIGN_PASSWORD. */
export async function releaseKey(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<SigningKey | 'test' | undefined> {
  if (argv.includes('--test-key')) return 'test'
  const at = argv.indexOf('--key')
  const file = at === -1 ? env.COSIGN_KEY : argv[at + 1]
  if (!file) return undefined
  if (!existsSync(file)) throw new Error(`no cosign key at ${file}`)
  return {file: path.resolve(file), password: env.COSIGN_PASSWORD ?? ''}
}

/** Where `--test-key` keeps its throwaway pair: beside the test binaries, never in the checkout. */
export const testKeyDir = () => path.join(path.dirname(binaryCacheDir()), 'release-test-key')
/** The throwaway key's password: it protects nothing, and cosign wants one. */
export const TEST_KEY_PASSWORD = 'cpcred-release-test'

/** A new throwaway key pair for the release test (cosign.key, cosign.pub in testKeyDir()). */
export async function testKey(): Promise<SigningKey> {
  const cosign = await ensureReleaseTool('cosign', (line) => console.error(`release: ${line}`))
  const dir = testKeyDir()
  await rm(dir, {recursive: true, force: true})
  await mkdir(dir, {recursive: true, mode: 0o700})
  await runCosign(cosign, ['generate-key-pair'], TEST_KEY_PASSWORD, dir)
  return {file: path.join(dir, 'cosign.key'), password: TEST_KEY_PASSWORD}
}

async function runCosign(cosign: string, args: string[], password: string, cwd?: string): Promise<string> {
  try {
    const {stdout} = await execFile(cosign, args, {
      cwd,
      env: {PATH: process.env.PATH, HOME: process.env.HOME, COSIGN_PASSWORD: password},
      maxBuffer: 64 * 1024 * 1024,
    })
    return stdout
  } catch (error) {
    const {stdout = '', stderr = ''} = error as {stdout?: string; stderr?: string}
    throw new Error(`cosign ${args[0]} failed:\n${stdout}${stderr}`.trimEnd())
  }
}

export async function signRelease(release: SignableRelease, context: SignContext): Promise<void> {
  const started = Date.now()
  const syft = await ensureReleaseTool('syft', release.log)
  const sboms = await writeSboms(syft, {
    out: release.out,
    version: release.version,
    epoch: release.epoch,
    tarball: context.tarball,
    archives: context.archives,
    image: context.image,
    log: release.log,
  })
  // SHA256SUMS again, now with the SBOMs.
  release.artifacts.splice(release.artifacts.indexOf(context.checksumsFile), 1)
  release.artifacts.push(...sboms)
  await context.checksums()
  release.log(`SBOMs (${((Date.now() - started) / 1000).toFixed(1)}s)`)

  const checksums = await readFile(path.join(release.out, context.checksumsFile), 'utf8')
  const statement = await provenanceStatement({
    version: release.version,
    commit: buildStamp().commit,
    epoch: release.epoch,
    checksums,
    root,
    command: 'npm run release',
    node: context.node,
    debian: context.image
      ? {
          suite: context.debianSuite,
          packages: await debianPackages(release.out, release.version, context.image),
        }
      : undefined,
    builderId: process.env.CPCRED_BUILDER_ID || 'https://cpcred.invalid/builders/npm-run-release',
  })
  const provenance = provenanceName(release.version)
  await writeFile(path.join(release.out, provenance), `${JSON.stringify(statement, null, 2)}\n`)
  release.artifacts.push(provenance)

  const key = context.key === 'test' ? await testKey() : context.key
  if (!key) {
    release.log(
      'note: no signing key (--key, COSIGN_KEY): the release is unsigned, with no SHA256SUMS.sigstore.json (docs/verifying.md)',
    )
    return
  }
  const cosign = await ensureReleaseTool('cosign', release.log)
  const offline = ['--use-signing-config=false', '--tlog-upload=false']
  await runCosign(
    cosign,
    [
      'sign-blob',
      '--yes',
      '--key',
      key.file,
      '--bundle',
      path.join(release.out, CHECKSUMS_SIGNATURE),
      ...offline,
      path.join(release.out, context.checksumsFile),
    ],
    key.password,
  )
  await runCosign(
    cosign,
    [
      'attest-blob',
      '--yes',
      '--key',
      key.file,
      '--statement',
      path.join(release.out, provenance),
      '--bundle',
      path.join(release.out, provenanceBundleName(release.version)),
      ...offline,
    ],
    key.password,
  )
  const publicKey = await runCosign(cosign, ['public-key', '--key', key.file], key.password)
  await writeFile(path.join(release.out, PUBLIC_KEY), publicKey)
  release.artifacts.push(CHECKSUMS_SIGNATURE, provenanceBundleName(release.version), PUBLIC_KEY)
  release.log(
    `signed: ${CHECKSUMS_SIGNATURE}, ${provenanceBundleName(release.version)}; the key's public half is ${PUBLIC_KEY}`,
  )
}

/**
 * The image's Debian packages with their versions, as its SBOMs list them (one list per platform),
 * each with the sha256 of the .deb it came from.
 */
async function debianPackages(
  out: string,
  version: string,
  image: {platforms: string[]; debs: Record<string, DebDigest[]>},
): Promise<{name: string; version: string; arch: string; sha256: string}[]> {
  const found = []
  for (const platform of image.platforms) {
    const sbom = JSON.parse(
      await readFile(path.join(out, sbomName(imageSbomSubject(version, platform), 'spdx')), 'utf8'),
    ) as {packages: {name: string; versionInfo?: string; externalRefs?: {referenceLocator: string}[]}[]}
    for (const pkg of sbom.packages) {
      const purl = pkg.externalRefs?.find((ref) =>
        ref.referenceLocator.startsWith('pkg:deb/'),
      )?.referenceLocator
      if (!purl || !pkg.versionInfo) continue
      const arch = /[?&]arch=([^&]+)/.exec(purl)?.[1] ?? 'all'
      const {sha256} = debOf(image.debs[platform] ?? [], {name: pkg.name, version: pkg.versionInfo, arch})
      found.push({name: pkg.name, version: pkg.versionInfo, arch, sha256})
    }
  }
  return found
}
