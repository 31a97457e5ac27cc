// The release's SBOMs: one per shipped artifact, in SPDX JSON and CycloneDX JSON, made by syft from
// what ships (each archive unpacked, the npm package's production tree, each platform of the OCI
// image), not from the checkout. They list the npm dependencies with their versions, Node, kubectl's
// Go modules (the image) and the image's Debian packages, whose dpkg status the image keeps for them
// (keepDpkgStatus), each with the sha256 of its .deb (withDebDigests). A bundle hides what it holds
// from syft: the packages the build put into dist/vendor (scripts/build-fast.ts lists them beside
// the bundle) are added to each document, with their versions, licenses and purls. syft stamps a
// time and random ids into each document: they are set from the
// release (its SOURCE_DATE_EPOCH, the artifact's digest) so that two builds of one commit give the
// same SBOM bytes, which SHA256SUMS lists.
import {execFile as execFileCallback} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {chmod, mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {RELEASE_TOOLS} from '../test/testenv/binaries.js'
import {debOf, type DebDigest} from './deb-digests.js'
import {VENDOR_BUNDLE, vendorPackagesFile, type VendoredPackage} from './vendor.js'

const execFile = promisify(execFileCallback)

/**
 * mmdebstrap's extract variant runs no dpkg, so the status it leaves is empty: this --extract-hook
 * writes each downloaded package's control fields there instead (the .debs are gone after it).
 */
export const DPKG_STATUS_HOOK =
  'for deb in "$1"/var/cache/apt/archives/*.deb; do dpkg-deb --field "$deb"; echo; done > "$1/var/lib/dpkg/status"'

/** The Debian releases the image's base may be, by suite: what etc/os-release says of them. */
const DEBIAN_RELEASES: Record<string, string> = {bookworm: '12'}

/**
 * The dpkg status of `packages` in the unpacked root `dir`, one file each in var/lib/dpkg/status.d
 * (as distroless images keep it: syft and other scanners read it), and an etc/os-release naming the
 * Debian release (extract installs no base-files), without which scanners give the packages no
 * distro (no pkg:deb purl); returns those paths, relative.
 */
export async function keepDpkgStatus(dir: string, packages: string[], suite: string): Promise<string[]> {
  const release = DEBIAN_RELEASES[suite]
  if (!release) throw new Error(`no Debian release number known for ${suite}`)
  await mkdir(path.join(dir, 'etc'), {recursive: true})
  await writeFile(
    path.join(dir, 'etc/os-release'),
    [
      `PRETTY_NAME="Debian GNU/Linux ${release} (${suite})"`,
      'NAME="Debian GNU/Linux"',
      `VERSION_ID="${release}"`,
      `VERSION="${release} (${suite})"`,
      `VERSION_CODENAME=${suite}`,
      'ID=debian',
      '',
    ].join('\n'),
  )
  await chmod(path.join(dir, 'etc/os-release'), 0o644)
  const status = await readFile(path.join(dir, 'var/lib/dpkg/status'), 'utf8')
  const stanzas = new Map<string, string>()
  for (const stanza of status.split(/\n\s*\n/)) {
    const name = /^Package: (\S+)$/m.exec(stanza)?.[1]
    if (name) stanzas.set(name, stanza.trim())
  }
  await mkdir(path.join(dir, 'var/lib/dpkg/status.d'), {recursive: true})
  const kept = []
  for (const name of packages) {
    const stanza = stanzas.get(name)
    if (!stanza) throw new Error(`the Debian base has no dpkg status for ${name}`)
    const file = `var/lib/dpkg/status.d/${name}`
    const fields = stanza.replace(/^(Package: .*)$/m, '$1\nStatus: install ok installed')
    await writeFile(path.join(dir, file), `${fields}\n`)
    await chmod(path.join(dir, file), 0o644)
    kept.push(file)
  }
  return ['etc/os-release', ...kept]
}

export type SbomFormat = 'spdx' | 'cdx'
export const SBOM_FORMATS: Record<SbomFormat, string> = {spdx: 'spdx-json', cdx: 'cyclonedx-json'}
/** release/ARTIFACT.spdx.json and release/ARTIFACT.cdx.json. */
export const sbomName = (artifact: string, format: SbomFormat) => `${artifact}.${format}.json`
/** What the image's SBOMs are named after: one per platform (`linux/amd64`), as the image has no file. */
export const imageSbomSubject = (version: string, platform: string) =>
  `cpcred-${version}-${platform.replace('/', '-')}-image`

/** What one SBOM describes: a name for the document, and what syft scans. */
export interface SbomSubject {
  /** The artifact's name in release/ (for the image: image-linux-ARCH, one per platform). */
  name: string
  version: string
  /** syft's source: dir:PATH or oci-dir:PATH. */
  source: string
  platform?: string
  /** The sha256 of what is described, hex: the stable ids and namespace are derived from it. */
  digest: string
  /** The image's: the .debs its Debian packages came from, whose sha256 each package gets. */
  debs?: DebDigest[]
  /** The packages inside cpcred's bundle, which syft cannot see (bundledPackages). */
  bundled?: VendoredPackage[]
}

/** The packages the build bundled into dist/vendor, as the package tree `tree` lists them. */
export async function bundledPackages(tree: string): Promise<VendoredPackage[]> {
  return JSON.parse(
    await readFile(path.join(tree, vendorPackagesFile(VENDOR_BUNDLE)), 'utf8'),
  ) as VendoredPackage[]
}

/** The npm purl of a package: a scope's @ is percent-encoded, as syft writes it. */
const npmPurl = ({name, version}: VendoredPackage) =>
  `pkg:npm/${name.replace(/^@/, '%40')}@${encodeURIComponent(version)}`

const bundleComment = (pkg: VendoredPackage) =>
  `bundled into ${VENDOR_BUNDLE} of cpcred (${pkg.name} is not installed as a module)`

/** `document` with an SPDX package for each of `bundled`, contained in what the document describes. */
function withBundledSpdx(
  document: Record<string, unknown>,
  bundled: VendoredPackage[],
): Record<string, unknown> {
  const packages = (document.packages ?? []) as Record<string, unknown>[]
  const relationships = (document.relationships ?? []) as {
    spdxElementId: string
    relatedSpdxElement: string
    relationshipType: string
  }[]
  const root =
    relationships.find((item) => item.relationshipType === 'DESCRIBES')?.relatedSpdxElement ??
    (document.documentDescribes as string[] | undefined)?.[0]
  if (!root) throw new Error('the SPDX document describes nothing to add the bundled packages to')
  for (const pkg of bundled) {
    const id = `SPDXRef-Package-npm-bundled-${createHash('sha256').update(`${pkg.name}@${pkg.version}`).digest('hex').slice(0, 16)}`
    packages.push({
      name: pkg.name,
      SPDXID: id,
      versionInfo: pkg.version,
      supplier: 'NOASSERTION',
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      sourceInfo: bundleComment(pkg),
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: pkg.license,
      copyrightText: 'NOASSERTION',
      externalRefs: [
        {referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: npmPurl(pkg)},
      ],
    })
    relationships.push({spdxElementId: root, relatedSpdxElement: id, relationshipType: 'CONTAINS'})
  }
  return {...document, packages, relationships}
}

/** `document` with a CycloneDX component for each of `bundled`, a dependency of the described root. */
function withBundledCdx(
  document: Record<string, unknown>,
  bundled: VendoredPackage[],
): Record<string, unknown> {
  const components = (document.components ?? []) as Record<string, unknown>[]
  const dependencies = (document.dependencies ?? []) as {ref: string; dependsOn?: string[]}[]
  const root = (document.metadata as {component?: {'bom-ref'?: string}} | undefined)?.component?.['bom-ref']
  if (!root) throw new Error('the CycloneDX document has no component to add the bundled packages to')
  const refs = []
  for (const pkg of bundled) {
    const ref = `bundled:${npmPurl(pkg)}`
    refs.push(ref)
    components.push({
      'bom-ref': ref,
      type: 'library',
      name: pkg.name,
      version: pkg.version,
      licenses: /^[A-Za-z0-9.+-]+$/.test(pkg.license)
        ? [{license: {id: pkg.license}}]
        : [{expression: pkg.license}],
      purl: npmPurl(pkg),
      properties: [{name: 'cpcred:bundledIn', value: VENDOR_BUNDLE}],
    })
  }
  const entry = dependencies.find((item) => item.ref === root)
  if (entry) entry.dependsOn = [...(entry.dependsOn ?? []), ...refs]
  else dependencies.push({ref: root, dependsOn: refs})
  return {...document, components, dependencies}
}

/**
 * syft's SPDX and CycloneDX documents of `subject`, written into `out`; returns their file names.
 * `syft` is the binary (test/testenv/binaries.ts builds and caches it).
 */
export async function writeSbom(
  syft: string,
  subject: SbomSubject,
  out: string,
  epoch: number,
): Promise<string[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'cpcred-sbom-'))
  try {
    const files = Object.fromEntries(
      (Object.keys(SBOM_FORMATS) as SbomFormat[]).map((format) => [
        format,
        path.join(scratch, sbomName(subject.name, format)),
      ]),
    ) as Record<SbomFormat, string>
    const args = [
      'scan',
      subject.source,
      ...(subject.platform ? ['--platform', subject.platform] : []),
      // What an installed tree has (package.json of each module, binaries, dpkg status), not only
      // the lockfiles a source checkout's scan reads.
      '--override-default-catalogers',
      'image',
      '--source-name',
      subject.name,
      '--source-version',
      subject.version,
      ...(Object.keys(files) as SbomFormat[]).flatMap((format) => [
        '-o',
        `${SBOM_FORMATS[format]}=${files[format]}`,
      ]),
      '-q',
    ]
    try {
      // A private home and working directory: no user's .syft.yaml changes what the release says.
      await execFile(syft, args, {
        cwd: scratch,
        env: {
          PATH: process.env.PATH,
          HOME: scratch,
          TMPDIR: scratch,
          SYFT_CHECK_FOR_APP_UPDATE: 'false',
        },
        maxBuffer: 64 * 1024 * 1024,
      })
    } catch (error) {
      const {stderr = ''} = error as {stderr?: string}
      throw new Error(`syft ${args.join(' ')} failed:\n${stderr}`)
    }
    const written = []
    for (const format of Object.keys(files) as SbomFormat[]) {
      const scanned = JSON.parse(await readFile(files[format], 'utf8')) as Record<string, unknown>
      if (subject.debs) withDebDigests(scanned, format, subject.debs)
      const bundled = subject.bundled ?? []
      const document =
        format === 'spdx' ? withBundledSpdx(scanned, bundled) : withBundledCdx(scanned, bundled)
      const stable =
        format === 'spdx' ? stableSpdx(document, subject, epoch) : stableCdx(document, subject, epoch)
      const name = sbomName(subject.name, format)
      await writeFile(path.join(out, name), `${JSON.stringify(stable, null, 2)}\n`)
      written.push(name)
    }
    return written
  } finally {
    await rm(scratch, {recursive: true, force: true})
  }
}

/** A pkg:deb purl's arch qualifier (`all` when it has none). */
const purlArch = (purl: string) => /[?&]arch=([^&]+)/.exec(purl)?.[1] ?? 'all'

/**
 * syft reads the dpkg status, which has no digest of the package: each Debian package gets the
 * sha256 of the .deb it was unpacked from (SPDX `checksums`, CycloneDX `hashes`: a package's digest
 * is its distributed file's), the one Debian's Packages index gives. A package with no recorded
 * .deb fails the build.
 */
export function withDebDigests(
  document: Record<string, unknown>,
  format: SbomFormat,
  debs: DebDigest[],
): void {
  if (format === 'spdx') {
    const packages = (document.packages ?? []) as {
      name: string
      versionInfo?: string
      externalRefs?: {referenceLocator: string}[]
      checksums?: {algorithm: string; checksumValue: string}[]
    }[]
    for (const pkg of packages) {
      const purl = pkg.externalRefs?.find((ref) =>
        ref.referenceLocator.startsWith('pkg:deb/'),
      )?.referenceLocator
      if (!purl) continue
      const deb = debOf(debs, {name: pkg.name, version: pkg.versionInfo ?? '', arch: purlArch(purl)})
      pkg.checksums = [
        ...(pkg.checksums ?? []).filter((item) => item.algorithm !== 'SHA256'),
        {algorithm: 'SHA256', checksumValue: deb.sha256},
      ]
    }
  } else {
    const components = (document.components ?? []) as {
      name: string
      version?: string
      purl?: string
      hashes?: {alg: string; content: string}[]
    }[]
    for (const component of components) {
      if (!component.purl?.startsWith('pkg:deb/')) continue
      const deb = debOf(debs, {
        name: component.name,
        version: component.version ?? '',
        arch: purlArch(component.purl),
      })
      component.hashes = [
        ...(component.hashes ?? []).filter((item) => item.alg !== 'SHA-256'),
        {alg: 'SHA-256', content: deb.sha256},
      ]
    }
  }
}

const SYFT_TOOL = `syft-${RELEASE_TOOLS.syft.version.replace(/^v/, '')}`

/** A UUID (v4 layout) from `seed`: the same seed, the same id. */
function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

function stableSpdx(document: Record<string, unknown>, subject: SbomSubject, epoch: number): unknown {
  const info = document.creationInfo as {created?: string; creators?: string[]}
  info.created = new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  info.creators = (info.creators ?? []).map((creator) =>
    creator.startsWith('Tool: syft-') ? `Tool: ${SYFT_TOOL}` : creator,
  )
  document.documentNamespace = `https://spdx.org/spdxdocs/cpcred/${subject.name}-${stableUuid(subject.digest)}`
  return document
}

function stableCdx(document: Record<string, unknown>, subject: SbomSubject, epoch: number): unknown {
  document.serialNumber = `urn:uuid:${stableUuid(subject.digest)}`
  const metadata = document.metadata as {
    timestamp?: string
    tools?: {components?: {name?: string; version?: string}[]}
  }
  metadata.timestamp = new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  for (const tool of metadata.tools?.components ?? [])
    if (tool.name === 'syft') tool.version = SYFT_TOOL.slice('syft-'.length)
  // A scanned folder's id comes from its (temporary) path: one from the artifact instead, everywhere.
  const root = (metadata as {component?: {'bom-ref'?: string}}).component?.['bom-ref']
  if (!root) return document
  const stable = createHash('sha256').update(`${subject.name}:${subject.digest}`).digest('hex').slice(0, 16)
  return JSON.parse(JSON.stringify(document).replaceAll(JSON.stringify(root), JSON.stringify(stable)))
}

/** A file's sha256, hex. */
async function fileDigest(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex')
}

export interface SbomRelease {
  out: string
  version: string
  epoch: number
  /** The npm tarball, the standalone archives and the image's index, as release/ names them. */
  tarball: string
  archives: string[]
  /** The OCI layout folder in `out` and its platforms, if the release has an image; each platform's .debs. */
  image?: {layout: string; index: string; platforms: string[]; debs: Record<string, DebDigest[]>}
  log(line: string): void
}

/** Every SBOM of the release; returns the file names written into `release.out`. */
export async function writeSboms(syft: string, release: SbomRelease): Promise<string[]> {
  const written: string[] = []
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'cpcred-sbom-trees-'))
  try {
    let npmTree: string | undefined
    let bundled: VendoredPackage[] | undefined
    for (const archive of release.archives) {
      const dir = path.join(scratch, archive)
      await mkdir(dir)
      await execFile('tar', ['-xzf', path.join(release.out, archive), '-C', dir])
      // The npm package's production tree is the archives' lib/cpcred: the tarball with the
      // lockfile's production dependencies (what `npm ci --omit=dev` installs from it).
      npmTree ??= path.join(dir, 'lib', 'cpcred')
      bundled ??= await bundledPackages(npmTree)
      const digest = await fileDigest(path.join(release.out, archive))
      written.push(
        ...(await writeSbom(
          syft,
          {
            name: archive,
            version: release.version,
            source: `dir:${dir}`,
            digest,
            bundled: await bundledPackages(path.join(dir, 'lib', 'cpcred')),
          },
          release.out,
          release.epoch,
        )),
      )
    }
    if (npmTree && existsSync(npmTree)) {
      const digest = await fileDigest(path.join(release.out, release.tarball))
      written.push(
        ...(await writeSbom(
          syft,
          {name: release.tarball, version: release.version, source: `dir:${npmTree}`, digest, bundled},
          release.out,
          release.epoch,
        )),
      )
    }
    if (release.image) {
      const digest = await fileDigest(path.join(release.out, release.image.index))
      for (const platform of release.image.platforms) {
        const name = imageSbomSubject(release.version, platform)
        written.push(
          ...(await writeSbom(
            syft,
            {
              name,
              version: release.version,
              source: `oci-dir:${path.join(release.out, release.image.layout)}`,
              platform,
              digest: `${digest}:${platform}`,
              debs: release.image.debs[platform] ?? [],
              // The image's cpcred is the npm package's: the same bundle.
              bundled,
            },
            release.out,
            release.epoch,
          )),
        )
      }
    }
  } finally {
    await rm(scratch, {recursive: true, force: true})
  }
  release.log(`SBOMs: ${written.join(', ')}`)
  return written
}
