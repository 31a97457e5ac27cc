// The cpcred container image: an OCI image layout with one image index for linux/amd64 and
// linux/arm64, built without a container daemon from what the package registries serve (Debian's
// libc, libstdc++ and CA certificates through mmdebstrap, Node from the npm packages node-linux-*,
// kubectl built from the Go module proxy, cpcred from its npm tarball) and reproducibly: layers are
// tars with sorted entries, one mtime (SOURCE_DATE_EPOCH), root-owned files and gzip without a name
// or time, so two builds of one commit give the same index digest.
//
// `npm run release:image -- [--tarball cpcred-X.tgz] [--out release]` writes release/image, tagged
// `cpcred:VERSION`; push it with `skopeo copy --all oci:release/image:VERSION docker://REGISTRY/cpcred:VERSION`.
import {execFile as execFileCallback, spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {createReadStream, createWriteStream, existsSync} from 'node:fs'
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {Transform} from 'node:stream'
import {pipeline} from 'node:stream/promises'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {ensureKubectl, type LinuxArch} from '../test/testenv/binaries.js'
import {NODE_PACKAGES, NODE_VERSION, unpackNode} from './node-runtime.js'
import {ARCHIVE_TOOLS, assertTools, IMAGE_TOOLS} from './release-tools.js'
import {DEB_DIGESTS_HOOK, DEB_RECORD_DIR, readDebRecord, type DebRecord} from './deb-digests.js'
import {DPKG_STATUS_HOOK, keepDpkgStatus} from './sbom.js'

const execFile = promisify(execFileCallback)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export const IMAGE_ARCHES: readonly LinuxArch[] = ['amd64', 'arm64']
/** The image's user: not root, and the uid fleet-job.yaml's securityContext names. */
export const IMAGE_UID = 65532
export const DEBIAN_SUITE = 'bookworm'
// libatomic1: Node 26 links libatomic.so.1 (Node 20 did not).
const DEBIAN_PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1', 'libatomic1', 'ca-certificates']
/** The packages whose files the pruned base keeps (gcc-12-base: the libgcc and libstdc++ licenses). */
const KEPT_DEBIAN_PACKAGES = [...DEBIAN_PACKAGES, 'gcc-12-base']
const TRIPLETS: Record<LinuxArch, string> = {amd64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu'}
/** What node needs from libc6 (and name lookups); everything else in the packages is left out. */
const LIBC_FILES = /^(ld-linux.*|lib(c|m|dl|pthread|rt|resolv|nss_files|nss_dns)\.so\.\d|libgcc_s\.so\.1)$/
const APP_DIR = 'opt/cpcred'
export const ENTRYPOINT = ['/usr/local/bin/node', `/${APP_DIR}/bin/run.js`]

const MEDIA = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
}

export interface BuildImageOptions {
  version: string
  /** cpcred's npm tarball (npm pack): what the image installs, with this checkout's lockfile. */
  npmTarball: string
  /** The layout is written to outDir/image. */
  outDir: string
  sourceDateEpoch: number
  log: (line: string) => void
  /** Keeps the downloaded Debian root filesystems and Node packages for a later build. */
  cacheDir?: string
}

export interface ArchSizes {
  /** The gzipped layers, config and manifest: what a registry stores and a node pulls. */
  compressed: number
  /** The layers as tars: what the image takes on a node's disk. */
  unpacked: number
}

export interface BuiltImage {
  layout: string
  /** The OCI layout's tags: VERSION for the index, VERSION-ARCH for each platform's manifest. */
  tag: string
  indexDigest: string
  sizes: Record<LinuxArch, ArchSizes>
  /** Each platform's Debian .debs with their sha256, checked against Debian's Packages index. */
  debian: Record<LinuxArch, DebRecord>
}

interface Descriptor {
  mediaType: string
  digest: string
  size: number
  platform?: {architecture: string; os: string; variant?: string}
  annotations?: Record<string, string>
}
interface Layer extends Descriptor {
  diffId: string
  unpacked: number
}

export async function buildImage(options: BuildImageOptions): Promise<BuiltImage> {
  const {version, outDir, sourceDateEpoch, log} = options
  assertTools('building the image', [IMAGE_TOOLS])
  const layout = path.join(path.resolve(outDir), 'image')
  const work = await mkdtemp(path.join(os.tmpdir(), 'cpcred-image-'))
  const cacheDir = options.cacheDir ? path.resolve(options.cacheDir) : path.join(work, 'downloads')
  await mkdir(cacheDir, {recursive: true})
  await rm(layout, {recursive: true, force: true})
  await mkdir(path.join(layout, 'blobs', 'sha256'), {recursive: true})
  const blobs = path.join(layout, 'blobs', 'sha256')
  const epoch = String(sourceDateEpoch)
  try {
    const started = Date.now()
    const app = await layer(blobs, await appTree(work, options.npmTarball, log), epoch, true)
    log(`app layer ${app.digest} (${mb(app.size)} gzipped)`)
    const manifests: Descriptor[] = []
    const sizes = {} as Record<LinuxArch, ArchSizes>
    const debian = {} as Record<LinuxArch, DebRecord>
    for (const arch of IMAGE_ARCHES) {
      const base = await baseTree(work, cacheDir, arch, epoch, log)
      debian[arch] = base.debian
      const layers = [
        await layer(blobs, base, epoch, false),
        await layer(blobs, await nodeTree(work, cacheDir, arch, log), epoch, true),
        await layer(blobs, await kubectlTree(work, arch, log), epoch, true),
        app,
      ]
      const config = await blob(blobs, MEDIA.config, {
        created: new Date(sourceDateEpoch * 1000).toISOString(),
        architecture: arch,
        os: 'linux',
        ...(arch === 'arm64' ? {variant: 'v8'} : {}),
        config: {
          User: `${IMAGE_UID}:${IMAGE_UID}`,
          Entrypoint: ENTRYPOINT,
          Env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt'],
          WorkingDir: '/tmp',
          Labels: labels(version),
        },
        rootfs: {type: 'layers', diff_ids: layers.map((item) => item.diffId)},
      })
      const manifest = await blob(blobs, MEDIA.manifest, {
        schemaVersion: 2,
        mediaType: MEDIA.manifest,
        config,
        layers: layers.map(({mediaType, digest, size}) => ({mediaType, digest, size})),
        annotations: labels(version),
      })
      manifests.push({
        ...manifest,
        platform: {architecture: arch, os: 'linux', ...(arch === 'arm64' ? {variant: 'v8'} : {})},
      })
      sizes[arch] = {
        compressed: layers.reduce((sum, item) => sum + item.size, config.size + manifest.size),
        unpacked: layers.reduce((sum, item) => sum + item.unpacked, 0),
      }
      log(`linux/${arch}: ${mb(sizes[arch].compressed)} compressed, ${mb(sizes[arch].unpacked)} unpacked`)
    }
    const index = await blob(blobs, MEDIA.index, {
      schemaVersion: 2,
      mediaType: MEDIA.index,
      manifests,
      annotations: labels(version),
    })
    // VERSION names the multi-platform index (what `skopeo copy --all` pushes); VERSION-ARCH each
    // platform's manifest, for tools that unpack one image (umoci) or push one platform.
    const ref = (descriptor: Descriptor, tag: string): Descriptor => ({
      ...descriptor,
      annotations: {'org.opencontainers.image.ref.name': tag},
    })
    await writeJson(path.join(layout, 'oci-layout'), {imageLayoutVersion: '1.0.0'})
    await writeJson(path.join(layout, 'index.json'), {
      schemaVersion: 2,
      mediaType: MEDIA.index,
      manifests: [
        ref(index, version),
        ...manifests.map((manifest, i) => ref(manifest, `${version}-${IMAGE_ARCHES[i]}`)),
      ],
    })
    log(
      `image cpcred:${version} ${index.digest} in ${layout} (${((Date.now() - started) / 1000).toFixed(0)}s)`,
    )
    return {layout, tag: version, indexDigest: index.digest, sizes, debian}
  } finally {
    await rm(work, {recursive: true, force: true})
  }
}

function labels(version: string): Record<string, string> {
  return {
    'org.opencontainers.image.title': 'cpcred',
    'org.opencontainers.image.version': version,
    'org.opencontainers.image.licenses': 'Apache-2.0',
  }
}

/** A directory whose whole content becomes one layer. */
interface Tree {
  dir: string
  /** Only these paths (relative, parents included); the whole directory when absent. */
  entries?: string[]
}

/**
 * Debian's libc, libstdc++, libatomic and CA certificates for `arch`, unpacked without running any package
 * script (mmdebstrap's extract variant: no daemon, no emulator), pruned to what node, kubectl and
 * name lookups load, plus the CA bundle, the image's user and /tmp; and the .debs it was made from,
 * each with its sha256, checked against Debian's Packages index (scripts/deb-digests.ts).
 */
async function baseTree(
  work: string,
  cacheDir: string,
  arch: LinuxArch,
  epoch: string,
  log: (line: string) => void,
): Promise<Tree & {debian: DebRecord}> {
  // Named by what it holds: another list of packages, or hooks that record other things (a base
  // cached before the .deb record was kept has none), is another base, never a cached one.
  const packages = createHash('sha256')
    .update([DEBIAN_PACKAGES.join(','), DPKG_STATUS_HOOK, DEB_DIGESTS_HOOK].join('\n'))
    .digest('hex')
    .slice(0, 12)
  const tarball = path.join(cacheDir, `debian-${DEBIAN_SUITE}-${arch}-${packages}.tar`)
  if (!existsSync(tarball)) {
    log(`mmdebstrap ${DEBIAN_SUITE} ${arch}: ${DEBIAN_PACKAGES.join(' ')}`)
    await run(
      'mmdebstrap',
      [
        '--quiet',
        '--mode=root',
        '--variant=extract',
        '--format=tar',
        `--architectures=${arch}`,
        `--include=${DEBIAN_PACKAGES.join(',')}`,
        // extract leaves dpkg's status empty: the packages' own control fields, for the image's SBOM.
        `--extract-hook=${DPKG_STATUS_HOOK}`,
        // Each .deb's sha256 and the Packages index's stanza of it, before the .debs are deleted.
        `--extract-hook=${DEB_DIGESTS_HOOK}`,
        DEBIAN_SUITE,
        `${tarball}.partial`,
      ],
      {env: {...process.env, SOURCE_DATE_EPOCH: epoch}},
    )
    await rename(`${tarball}.partial`, tarball)
  }
  const dir = path.join(work, `base-${arch}`)
  await mkdir(dir)
  await run('tar', ['-x', '-f', tarball, '-C', dir, '--numeric-owner'])
  // A .deb whose sha256 is not the one Debian's index gives fails the build here.
  const record = (name: string) => readFile(path.join(dir, DEB_RECORD_DIR, name), 'utf8')
  const debian = readDebRecord(await record('debs'), await record('packages-index'))
  log(
    `debian ${arch}: ${debian.debs.map((deb) => `${deb.name} ${deb.version} sha256:${deb.sha256}`).join(', ')}`,
  )
  const triplet = TRIPLETS[arch]
  const keep: string[] = []
  const libs = async (rel: string, pattern: RegExp) => {
    for (const name of await readdir(path.join(dir, rel))) if (pattern.test(name)) keep.push(`${rel}/${name}`)
  }
  await libs(`lib/${triplet}`, LIBC_FILES)
  await libs(`usr/lib/${triplet}`, /^(libstdc\+\+\.so\.6|libatomic\.so\.1)/)
  // The loader's path in the ELF interpreter field (/lib64/ld-linux-x86-64.so.2, /lib/ld-linux-aarch64.so.1).
  for (const rel of ['lib64', 'lib']) if (existsSync(path.join(dir, rel))) await libs(rel, /^ld-linux/)
  // The licenses of what is kept (libgcc-s1's and libstdc++6's doc directories link to gcc-12-base's).
  for (const pkg of ['libc6', 'gcc-12-base', 'ca-certificates']) keep.push(`usr/share/doc/${pkg}/copyright`)
  // Which Debian packages (and versions) those files are, for scanners (scripts/sbom.ts).
  keep.push(...(await keepDpkgStatus(dir, KEPT_DEBIAN_PACKAGES, DEBIAN_SUITE)))

  // What update-ca-certificates would make (extract runs no maintainer script).
  const mozilla = path.join(dir, 'usr/share/ca-certificates/mozilla')
  const certs = (await readdir(mozilla)).filter((name) => name.endsWith('.crt')).sort()
  if (certs.length < 100) throw new Error(`ca-certificates has only ${certs.length} certificates`)
  const bundle = await Promise.all(certs.map((name) => readFile(path.join(mozilla, name), 'utf8')))
  await mkdir(path.join(dir, 'etc/ssl/certs'), {recursive: true})
  await writeFile(
    path.join(dir, 'etc/ssl/certs/ca-certificates.crt'),
    bundle.map((pem) => pem.trimEnd() + '\n').join(''),
  )
  await writeFile(
    path.join(dir, 'etc/passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\ncpcred:x:${IMAGE_UID}:${IMAGE_UID}:cpcred:/tmp:/usr/sbin/nologin\n`,
  )
  await writeFile(path.join(dir, 'etc/group'), `root:x:0:\ncpcred:x:${IMAGE_UID}:\n`)
  await writeFile(path.join(dir, 'etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n')
  for (const file of ['passwd', 'group', 'nsswitch.conf']) await chmod(path.join(dir, 'etc', file), 0o644)
  await chmod(path.join(dir, 'etc/ssl/certs/ca-certificates.crt'), 0o644)
  keep.push('etc/ssl/certs/ca-certificates.crt', 'etc/passwd', 'etc/group', 'etc/nsswitch.conf', 'tmp')
  await chmod(path.join(dir, 'tmp'), 0o1777)
  return {dir, entries: withParents(keep), debian}
}

/** node, from the npm package of the official binary, checked against the pinned integrity. */
async function nodeTree(
  work: string,
  cacheDir: string,
  arch: LinuxArch,
  log: (line: string) => void,
): Promise<Tree> {
  const dir = path.join(work, `node-${arch}`)
  const unpacked = path.join(work, `node-${arch}-package`)
  log(`node ${NODE_VERSION} linux/${arch}`)
  await unpackNode(
    NODE_PACKAGES[`linux-${arch}`],
    unpacked,
    ['package/bin/node', 'package/LICENSE'],
    cacheDir,
  )
  await mkdir(path.join(dir, 'usr/local/bin'), {recursive: true})
  await mkdir(path.join(dir, 'usr/local/share/doc/node'), {recursive: true})
  await rename(path.join(unpacked, 'package/bin/node'), path.join(dir, 'usr/local/bin/node'))
  await rename(path.join(unpacked, 'package/LICENSE'), path.join(dir, 'usr/local/share/doc/node/LICENSE'))
  await assertElf(path.join(dir, 'usr/local/bin/node'), arch)
  return {dir}
}

/** kubectl KUBERNETES_VERSION for `arch`, built as the tests' kubectl (test/testenv/binaries.ts). */
async function kubectlTree(work: string, arch: LinuxArch, log: (line: string) => void): Promise<Tree> {
  const dir = path.join(work, `kubectl-${arch}`)
  await mkdir(path.join(dir, 'usr/local/bin'), {recursive: true})
  await copyFile(await ensureKubectl(arch, log), path.join(dir, 'usr/local/bin/kubectl'))
  await chmod(path.join(dir, 'usr/local/bin/kubectl'), 0o755)
  await assertElf(path.join(dir, 'usr/local/bin/kubectl'), arch)
  return {dir}
}

/**
 * cpcred from its npm tarball with its production dependencies at this checkout's lockfile (so a
 * later build gets the same versions), no install scripts, and `cpcred` on PATH for the Job's
 * command and kubectl's exec plugins. The same layer serves both platforms: nothing in it is native.
 */
async function appTree(work: string, npmTarball: string, log: (line: string) => void): Promise<Tree> {
  const dir = path.join(work, 'app')
  const app = path.join(dir, APP_DIR)
  await mkdir(app, {recursive: true})
  await run('tar', [
    '-x',
    '-z',
    '-f',
    path.resolve(npmTarball),
    '-C',
    app,
    '--strip-components=1',
    '--no-same-owner',
  ])
  await copyFile(path.join(root, 'package-lock.json'), path.join(app, 'package-lock.json'))
  log(`npm ci --omit=dev for ${path.basename(npmTarball)}`)
  await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
  })
  const native = (await walk(app)).filter((rel) => rel.endsWith('.node') || rel.endsWith('binding.gyp'))
  if (native.length)
    throw new Error(`the image's one app layer cannot hold native modules: ${native.join(', ')}`)
  // A node script, not a symlink to bin/run.js: its `#!/usr/bin/env node` needs a /usr/bin/env the
  // image does not have.
  await mkdir(path.join(dir, 'usr/local/bin'), {recursive: true})
  await writeFile(
    path.join(dir, 'usr/local/bin/cpcred'),
    `#!/usr/local/bin/node\nrequire('/${APP_DIR}/bin/run.js')\n`,
    {mode: 0o755},
  )
  return {dir}
}

/** Every parent directory of `paths` too, sorted so a directory comes before its content. */
function withParents(paths: string[]): string[] {
  const all = new Set<string>()
  for (const rel of paths) {
    const parts = rel.split('/')
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/'))
  }
  return [...all].sort(byteOrder)
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

async function walk(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = []
  for (const name of (await readdir(path.join(dir, rel))).sort()) {
    const child = rel ? `${rel}/${name}` : name
    out.push(child)
    if ((await lstat(path.join(dir, child))).isDirectory()) out.push(...(await walk(dir, child)))
  }
  return out
}

/**
 * One gzipped layer blob from `tree`: GNU tar in pax format with sorted names, the one mtime,
 * owner root, no atime/ctime; `normalize` makes modes 644/755 whatever the umask was.
 */
async function layer(blobs: string, tree: Tree, epoch: string, normalize: boolean): Promise<Layer> {
  const entries = (tree.entries ?? (await walk(tree.dir))).sort(byteOrder)
  const tar = spawn(
    'tar',
    [
      '--create',
      '--file=-',
      `--directory=${tree.dir}`,
      '--no-recursion',
      '--null',
      '--files-from=-',
      '--format=pax',
      '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
      `--mtime=@${epoch}`,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      ...(normalize ? ['--mode=u+rwX,go=rX'] : []),
    ],
    {stdio: ['pipe', 'pipe', 'pipe']},
  )
  const gzip = spawn('gzip', ['-n', '-c'], {stdio: ['pipe', 'pipe', 'pipe']})
  let tarErr = ''
  tar.stderr.on('data', (chunk: Buffer) => (tarErr += chunk.toString()))
  tar.stdin.end(entries.map((entry) => `${entry}\0`).join(''))
  const diff = counter()
  const compressed = counter()
  const partial = path.join(blobs, `.partial-${process.pid}-${Date.now()}`)
  const exited = (child: ReturnType<typeof spawn>, name: string) =>
    new Promise<void>((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`${name} exited ${code}: ${tarErr}`)),
      ),
    )
  await Promise.all([
    pipeline(tar.stdout, diff.stream, gzip.stdin),
    pipeline(gzip.stdout, compressed.stream, createWriteStream(partial)),
    exited(tar, 'tar'),
    exited(gzip, 'gzip'),
  ])
  const digest = `sha256:${compressed.hash.digest('hex')}`
  await rename(partial, path.join(blobs, digest.slice('sha256:'.length)))
  return {
    mediaType: MEDIA.layer,
    digest,
    size: compressed.size(),
    diffId: `sha256:${diff.hash.digest('hex')}`,
    unpacked: diff.size(),
  }
}

function counter() {
  const hash = createHash('sha256')
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      size += chunk.length
      done(null, chunk)
    },
  })
  return {hash, stream, size: () => size}
}

/** A JSON blob (canonical: no spaces, keys in the order written) and its descriptor. */
async function blob(blobs: string, mediaType: string, value: unknown): Promise<Descriptor> {
  const bytes = Buffer.from(JSON.stringify(value))
  const hex = createHash('sha256').update(bytes).digest('hex')
  await writeFile(path.join(blobs, hex), bytes)
  return {mediaType, digest: `sha256:${hex}`, size: bytes.length}
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, JSON.stringify(value))
}

/** Refuses a binary of the wrong machine (a cross build gone native, a swapped package). */
async function assertElf(file: string, arch: LinuxArch): Promise<void> {
  const header = Buffer.alloc(20)
  const handle = createReadStream(file, {start: 0, end: 19})
  let offset = 0
  for await (const chunk of handle as AsyncIterable<Buffer>) offset += chunk.copy(header, offset)
  const machine = header.readUInt16LE(18)
  const expected = {amd64: 0x3e, arm64: 0xb7}[arch]
  if (header.toString('latin1', 1, 4) !== 'ELF' || machine !== expected)
    throw new Error(`${file} is not a linux/${arch} executable (ELF machine ${machine})`)
}

async function run(file: string, args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}) {
  try {
    return (await execFile(file, args, {...options, maxBuffer: 64 * 1024 * 1024})).stdout
  } catch (error) {
    const {stdout = '', stderr = ''} = error as {stdout?: string; stderr?: string}
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}${stderr}`.trimEnd())
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/** The commit's time: what SOURCE_DATE_EPOCH is for a build of this checkout. */
export async function commitEpoch(): Promise<number> {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH)
  return Number((await run('git', ['log', '-1', '--format=%ct'], {cwd: root})).trim())
}

/** `npm pack` of this checkout (prepack builds dist/, unless `ignoreScripts`), into `dir`; returns the tarball. */
export async function packRepository(dir: string, options: {ignoreScripts?: boolean} = {}): Promise<string> {
  // Without prepack the tarball is whatever the last build left: refuse one without oclif's manifest.
  if (options.ignoreScripts && !existsSync(path.join(root, 'oclif.manifest.json')))
    throw new Error('packing without scripts needs a build first: npm run build')
  const out = await run(
    'npm',
    ['pack', '--json', '--pack-destination', dir, ...(options.ignoreScripts ? ['--ignore-scripts'] : [])],
    {cwd: root},
  )
  // The JSON report is the last thing on stdout, after whatever the prepack build printed.
  const report = out.slice(out.search(/^\[\s*\{/m))
  const [packed] = JSON.parse(report) as {filename: string}[]
  const tarball = path.join(dir, packed!.filename)
  await keepManifest(tarball)
  return tarball
}

/**
 * Puts back the checkout's oclif.manifest.json, which npm's postpack removes: without it the
 * checkout's bin/run.js still runs, but its completion finds no commands. The packed one is what
 * prepack's build wrote for the dist/ it left, so it is the right one for the checkout too.
 */
export async function keepManifest(tarball: string): Promise<void> {
  const manifest = await run('tar', ['-xzOf', tarball, 'package/oclif.manifest.json'])
  await writeFile(path.join(root, 'oclif.manifest.json'), manifest)
}

async function main(argv: string[]): Promise<void> {
  const value = (flag: string) => {
    const at = argv.indexOf(flag)
    return at === -1 ? undefined : argv[at + 1]
  }
  const log = (line: string) => console.error(`release-image: ${line}`)
  assertTools('npm run release:image', value('--tarball') ? [IMAGE_TOOLS] : [ARCHIVE_TOOLS, IMAGE_TOOLS])
  const outDir = value('--out') ?? path.join(root, 'release')
  const version = (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {version: string})
    .version
  await mkdir(outDir, {recursive: true})
  const npmTarball = value('--tarball') ?? (await packRepository(outDir))
  const built = await buildImage({version, npmTarball, outDir, sourceDateEpoch: await commitEpoch(), log})
  console.log(JSON.stringify(built, null, 2))
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: Error) => {
    console.error(`release-image: ${error.message}`)
    process.exit(1)
  })
}
