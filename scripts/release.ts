// npm run release: every artifact of one version, built from this checkout into release/ (ignored by
// git): the npm tarball, a standalone archive per platform (linux and darwin, amd64 and arm64: cpcred
// with the official Node of scripts/node-runtime.ts beside it, for machines without Node), the krew
// manifest filled from those archives, and
// SHA256SUMS over all of them. Archives are reproducible: fixed mtimes (SOURCE_DATE_EPOCH, else the
// commit's time), sorted entries, numeric owner 0, gzip without a name or time, so two builds of one
// commit give the same digests. `npm run test:release` checks what this writes.
//
// Why an archive with Node beside cpcred, and not a single executable (SEA): Node's SEA runs one
// CommonJS script that may require only built-ins, while oclif loads commands, hooks and plugins
// from files and the router loads its bundles by path; bundling all of that would be a second build
// to keep right. The archive runs exactly the files the npm package runs, with the same official
// Node binary a SEA would carry, and is as easy to install (one tar, or krew).
import {execFile as execFileCallback} from 'node:child_process'
import {createHash} from 'node:crypto'
import {createReadStream} from 'node:fs'
import {chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import YAML from 'yaml'
import type {LinuxArch} from '../test/testenv/binaries.js'
import type {DebRecord} from './deb-digests.js'
import {NODE_PACKAGES, NODE_VERSION, PLATFORMS, unpackNode, type Platform} from './node-runtime.js'
import {buildImage, DEBIAN_SUITE, IMAGE_ARCHES, keepManifest} from './release-image.js'
import {releaseKey, signRelease, type SigningKey} from './release-sign.js'
import {ARCHIVE_TOOLS, assertTools, IMAGE_TOOLS, type Requirement} from './release-tools.js'
import {buildStamp} from './stamp.js'

const execFile = promisify(execFileCallback)
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

/** `os-arch`, as the archive names and krew's selectors say it. */
export type {Platform} from './node-runtime.js'

/**
 * The names users type, all the same launcher: kubectl finds plugins by the kubectl- prefix, and
 * (1.26 and later) the completion of `kubectl cpcred …` by kubectl_complete-cpcred on PATH.
 */
export const LAUNCHERS = ['cpcred', 'kubectl-cpcred', 'kubectl_complete-cpcred']

export const archiveName = (version: string, platform: Platform) => `cpcred-${version}-${platform}.tar.gz`
export const tarballName = (version: string) => `cpcred-${version}.tgz`
export const KREW_MANIFEST = 'cpcred.krew.yaml'
/**
 * With CPCRED_RELEASE_BASE_URL, a krew index of this release: publish the folder as a git
 * repository, and users add it (`kubectl krew index add`) to install and upgrade (docs/release.md).
 */
export const KREW_INDEX = 'krew-index'
export const KREW_INDEX_MANIFEST = `${KREW_INDEX}/plugins/cpcred.yaml`
export const CHECKSUMS = 'SHA256SUMS'
/** The image's OCI layout is the folder `image`; SHA256SUMS names its index. */
export const IMAGE_LAYOUT = 'image'
export const IMAGE_INDEX = `${IMAGE_LAYOUT}/index.json`

export interface Release {
  /** release/ in the checkout. */
  out: string
  /** Scratch space, removed at the end. */
  work: string
  version: string
  /** Seconds since the epoch: every mtime in every archive. */
  epoch: number
  /** Where the archives will be downloaded from (the krew manifest's uri), if known. */
  baseUrl?: string
  /** The platforms to build standalone archives for. */
  platforms: Platform[]
  /** The files written into `out`, by the steps so far. */
  artifacts: string[]
  /** The image's Debian .debs per platform, with their sha256 (set by the image step). */
  debian?: Record<LinuxArch, DebRecord>
  log(line: string): void
}

interface Step {
  name: string
  run(release: Release): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// The steps, in order. Each writes its artifacts into release.out and names them in
// release.artifacts; the checksums step comes last and covers all of them.
const steps: Step[] = [
  {name: 'npm package', run: packNpm},
  {name: 'standalone archives', run: standaloneArchives},
  {name: 'krew manifest', run: krewManifest},
  {name: 'container image', run: containerImage},
  {name: 'checksums', run: checksums},
]
// ---------------------------------------------------------------------------------------------

async function run(file: string, args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}) {
  try {
    const {stdout} = await execFile(file, args, {
      cwd: options.cwd,
      env: {...process.env, ...options.env},
      maxBuffer: 64 * 1024 * 1024,
    })
    return stdout
  } catch (error) {
    const {stdout = '', stderr = ''} = error as {stdout?: string; stderr?: string}
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}${stderr}`)
  }
}

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** The npm tarball, packed from this checkout as `npm publish` would (prepack builds and stamps). */
async function packNpm(release: Release): Promise<void> {
  const output = await run('npm', ['pack', '--json', '--pack-destination', release.out], {
    cwd: root,
    env: {SOURCE_DATE_EPOCH: String(release.epoch), OCLIF_SKIP_NEW_VERSION_CHECK: 'true'},
  })
  const [{filename}] = JSON.parse(output.slice(output.indexOf('['))) as [{filename: string}]
  if (filename !== tarballName(release.version)) throw new Error(`npm pack wrote ${filename}`)
  await keepManifest(path.join(release.out, filename))
  release.artifacts.push(filename)
}

/**
 * cpcred as the npm tarball has it, with its production dependencies from the lockfile (the
 * versions CI tested; all JavaScript, none native), then an archive per platform with that
 * platform's Node, the file of the npm package byte for byte (macOS checks the code signature Apple's
 * binary carries: nothing may strip or change it).
 */
async function standaloneArchives(release: Release): Promise<void> {
  const app = path.join(release.work, 'app')
  await mkdir(app)
  await run('tar', [
    '-xzf',
    path.join(release.out, tarballName(release.version)),
    '--strip-components=1',
    '-C',
    app,
  ])
  await copyFile(path.join(root, 'package-lock.json'), path.join(app, 'package-lock.json'))
  await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {cwd: app})
  await rm(path.join(app, 'package-lock.json'))
  // Nothing that runs needs types, source maps or the .bin links (krew unpacks no symlinks).
  await run('find', [
    path.join(app, 'node_modules'),
    '(',
    '-name',
    '.bin',
    '-o',
    '-name',
    '*.map',
    '-o',
    '-name',
    '*.d.ts',
    '-o',
    '-name',
    '*.d.mts',
    '-o',
    '-name',
    '*.d.cts',
    ')',
    '-prune',
    '-exec',
    'rm',
    '-rf',
    '{}',
    '+',
  ])
  const links = (await run('find', [app, '-type', 'l'])).trim()
  if (links) throw new Error(`the standalone tree has symlinks, which krew cannot unpack:\n${links}`)

  for (const platform of release.platforms) {
    const dir = path.join(release.work, `standalone-${platform}`)
    await mkdir(path.join(dir, 'lib'), {recursive: true})
    await run('cp', ['-a', app, path.join(dir, 'lib', 'cpcred')])
    const node = await unpackNode(NODE_PACKAGES[platform], path.join(release.work, `node-${platform}`))
    await copyFile(node, path.join(dir, 'lib', 'node'))
    await chmod(path.join(dir, 'lib', 'node'), 0o755)
    for (const name of LAUNCHERS) {
      await writeFile(path.join(dir, name), launcher(release.version), {mode: 0o755})
    }
    for (const name of ['LICENSE', 'README.md']) await copyFile(path.join(app, name), path.join(dir, name))
    const archive = archiveName(release.version, platform)
    await reproducibleTar(dir, path.join(release.out, archive), release.epoch)
    release.artifacts.push(archive)
  }
}

/**
 * Runs cpcred with the Node beside it. It exports its own path, as it was called (kubectl calls a
 * plugin by its PATH entry, krew's stable bin/ link), so that kubeconfigs written with --mode cpcred
 * run this launcher again (src/adapters/self-command.ts). kubectl runs it on every credential
 * request, so it finds Node without a fork when it can: called in the archive's folder, or through
 * krew's bin/ link, whose target is store/cpcred/v<version>/ beside bin/; else (any other symlink)
 * by following the links one `readlink` at a time: plain readlink is in every Unix's base, while
 * `readlink -f` is not in macOS before 12.3. POSIX sh and readlink, nothing else: it runs under dash,
 * bash, busybox sh and zsh as sh, on Linux and macOS alike (test/release/platforms.test.ts). Called
 * as kubectl_complete-cpcred (a copy in the archive, or the link `kubectl_complete-cpcred ->
 * kubectl-cpcred` that users add to krew's bin/, which krew's upgrades leave pointing at the new
 * version), it runs bin/kubectl_complete-cpcred instead, and names the
 * kubectl-cpcred beside it as the launcher for what completion writes.
 */
const launcher = (version: string) => `#!/bin/sh
# cpcred with the Node that ships beside it: the machine needs no Node.
case $0 in /*) self=$0 ;; *) self=$PWD/$0 ;; esac
here=\${self%/*}
if [ -x "$here/lib/node" ]; then :
elif [ -x "$here/../store/cpcred/v${version}/lib/node" ]; then here=$here/../store/cpcred/v${version}
else
  here=$self
  while [ -L "$here" ]; do
    link=$(readlink "$here") || break
    case $link in /*) here=$link ;; *) here=\${here%/*}/$link ;; esac
  done
  here=\${here%/*}
fi
case \${self##*/} in
kubectl_complete-*)
  if [ -x "\${self%/*}/kubectl-cpcred" ]; then CPCRED_LAUNCHER=\${self%/*}/kubectl-cpcred
  else CPCRED_LAUNCHER=$here/kubectl-cpcred
  fi
  export CPCRED_LAUNCHER
  exec "$here/lib/node" "$here/lib/cpcred/bin/kubectl_complete-cpcred" "$@"
  ;;
esac
CPCRED_LAUNCHER=$self
export CPCRED_LAUNCHER
exec "$here/lib/node" "$here/lib/cpcred/bin/run.js" "$@"
`

/** A tar.gz that depends only on the files' contents and modes: two builds, one digest. */
export async function reproducibleTar(dir: string, output: string, epoch: number): Promise<void> {
  const entries = (await readdir(dir)).sort()
  const script =
    'set -e; epoch=$1 dir=$2 output=$3; shift 3; ' +
    'tar --sort=name --format=gnu --mtime="@$epoch" --owner=0 --group=0 --numeric-owner ' +
    '--mode=u+rw,go-w,a+rX -C "$dir" -cf - -- "$@" | gzip -n -9 > "$output.partial"; mv "$output.partial" "$output"'
  await run('sh', ['-c', script, 'tar', String(epoch), dir, output, ...entries])
}

/** The krew manifest, filled from the archives just written (never typed). */
async function krewManifest(release: Release): Promise<void> {
  const platforms = []
  for (const platform of release.platforms) {
    const archive = archiveName(release.version, platform)
    const [system, arch] = platform.split('-')
    platforms.push({
      selector: {matchLabels: {os: system, arch}},
      uri: release.baseUrl ? `${release.baseUrl.replace(/\/$/, '')}/${archive}` : archive,
      sha256: await sha256(path.join(release.out, archive)),
      bin: 'kubectl-cpcred',
    })
  }
  if (!release.baseUrl)
    release.log(
      `note: no CPCRED_RELEASE_BASE_URL, so ${KREW_MANIFEST} names the archives without a URL: krew installs them only with --archive`,
    )
  const manifest = {
    apiVersion: 'krew.googlecontainertools.github.com/v1alpha2',
    kind: 'Plugin',
    metadata: {name: 'cpcred'},
    spec: {
      version: `v${release.version}`,
      shortDescription: 'Reach the clusters of a ClusterProfile inventory with short-lived credentials',
      description: [
        'Reads ClusterProfile objects (multicluster.x-k8s.io, the Kubernetes Cluster Inventory API)',
        'from a hub cluster, and writes kubeconfigs and runs commands against the clusters they list,',
        'with short-lived credentials from exec credential plugins. Carries its own Node.',
        '',
      ].join('\n'),
      caveats: [
        'Run `kubectl cpcred version` to see where the docs were installed;',
        'hints that cite docs/… name files in that folder.',
        '',
      ].join('\n'),
      platforms,
    },
  }
  await writeFile(path.join(release.out, KREW_MANIFEST), YAML.stringify(manifest, {lineWidth: 0}))
  release.artifacts.push(KREW_MANIFEST)
  if (release.baseUrl) {
    await mkdir(path.join(release.out, path.dirname(KREW_INDEX_MANIFEST)), {recursive: true})
    await copyFile(path.join(release.out, KREW_MANIFEST), path.join(release.out, KREW_INDEX_MANIFEST))
    release.artifacts.push(KREW_INDEX_MANIFEST)
  }
}

/** IMAGE_LAYOUT: an OCI image layout of the npm tarball's cpcred (scripts/release-image.ts). */
async function containerImage(release: Release): Promise<void> {
  const built = await buildImage({
    version: release.version,
    npmTarball: path.join(release.out, tarballName(release.version)),
    outDir: release.out,
    sourceDateEpoch: release.epoch,
    log: release.log,
  })
  release.log(`image ${built.tag}: index ${built.indexDigest}`)
  release.debian = built.debian
  // Its blobs are named by their digests; the index names them all, so its sum covers the image.
  release.artifacts.push(IMAGE_INDEX)
}

async function checksums(release: Release): Promise<void> {
  const lines = []
  for (const name of [...release.artifacts].sort())
    lines.push(`${await sha256(path.join(release.out, name))}  ${name}`)
  await writeFile(path.join(release.out, CHECKSUMS), `${lines.join('\n')}\n`)
  release.artifacts.push(CHECKSUMS)
}

export interface BuildOptions {
  /** Where the artifacts go (emptied first); release/ in the checkout by default. */
  out?: string
  log?: (line: string) => void
}

export async function buildRelease(
  options: BuildOptions & {key?: SigningKey | 'test'} = {},
): Promise<Release> {
  const release = await build(steps, [...PLATFORMS], options, [ARCHIVE_TOOLS, IMAGE_TOOLS])
  // The SBOMs (into SHA256SUMS), the provenance and, with a key, the signatures: scripts/release-sign.ts.
  await signRelease(release, {
    checksumsFile: CHECKSUMS,
    checksums: () => checksums(release),
    tarball: tarballName(release.version),
    archives: release.platforms.map((platform) => archiveName(release.version, platform)),
    image: {
      layout: IMAGE_LAYOUT,
      index: IMAGE_INDEX,
      platforms: IMAGE_ARCHES.map((arch) => `linux/${arch}`),
      debs: Object.fromEntries(
        IMAGE_ARCHES.map((arch) => {
          const record = release.debian?.[arch]
          if (!record) throw new Error(`the image step left no .deb record for linux/${arch}`)
          return [`linux/${arch}`, record.debs]
        }),
      ),
    },
    node: {
      version: NODE_VERSION,
      packages: Object.values(NODE_PACKAGES).map(({pkg, integrity}) => ({name: pkg, integrity})),
    },
    debianSuite: DEBIAN_SUITE,
    key: options.key,
  })
  return release
}

/**
 * Only the npm tarball and the standalone archive for `platform`, as buildRelease makes them: for a
 * measurement of the archive against the npm install of the same tarball (bench/standalone.ts).
 */
export function buildStandalone(platform: Platform, options: BuildOptions = {}): Promise<Release> {
  const wanted = new Set([packNpm, standaloneArchives, krewManifest])
  return build(
    steps.filter((step) => wanted.has(step.run)),
    [platform],
    options,
    [ARCHIVE_TOOLS],
  )
}

async function build(
  chosen: Step[],
  platforms: Platform[],
  options: BuildOptions,
  tools: Requirement[][],
): Promise<Release> {
  // Every tool the steps run, checked before anything is built or release/ is emptied.
  assertTools('npm run release', tools)
  const out = options.out ?? path.join(root, 'release')
  const log = options.log ?? ((line: string) => console.error(`release: ${line}`))
  const stamp = buildStamp()
  const epoch = Math.trunc(Date.parse(stamp.buildDate) / 1000)
  if (!Number.isFinite(epoch))
    throw new Error('no SOURCE_DATE_EPOCH and no git commit to date the release by')
  await rm(out, {recursive: true, force: true})
  await mkdir(out, {recursive: true})
  const work = await mkdtemp(path.join(os.tmpdir(), 'cpcred-release-'))
  const release: Release = {
    out,
    work,
    version: stamp.version,
    epoch,
    baseUrl: process.env.CPCRED_RELEASE_BASE_URL || undefined,
    platforms,
    artifacts: [],
    log,
  }
  try {
    for (const step of chosen) {
      const started = Date.now()
      await step.run(release)
      log(`${step.name} (${((Date.now() - started) / 1000).toFixed(1)}s)`)
    }
  } finally {
    await rm(work, {recursive: true, force: true})
  }
  log(
    `cpcred ${stamp.version} (${stamp.commit}) in ${path.relative(process.cwd(), out) || '.'}: ${release.artifacts.join(', ')}`,
  )
  return release
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const at = process.argv.indexOf('--out')
  releaseKey(process.argv)
    .then((key) => buildRelease({out: at === -1 ? undefined : path.resolve(process.argv[at + 1]!), key}))
    .then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`release failed: ${error.message}`)
        process.exit(1)
      },
    )
}
