// What `npm run release` and `npm run release:image` run besides Node, in one list: both check it
// before they start (before release/ is emptied), and name every missing tool at once with how to
// install it, rather than failing on the first one minutes into the build. docs/release.md says the
// same in words.
import {existsSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {kubectlCached} from '../test/testenv/binaries.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface Requirement {
  /** The program looked up on PATH (or, for `npm ci`, a file in the checkout). */
  tool: string
  /** What needs it. */
  why: string
  /** How to get it. */
  install: string
  /** Whether this build needs it at all (go only when kubectl has to be built). */
  needed?: () => boolean
  /** Whether it is there; a PATH lookup of `tool` by default. */
  present?: (env: NodeJS.ProcessEnv) => boolean
}

const apt = (pkg: string) => `apt-get install ${pkg}`

/** The npm tarball and the standalone archives (scripts/release.ts). */
export const ARCHIVE_TOOLS: Requirement[] = [
  {tool: 'npm', why: 'npm pack, npm ci', install: 'Node 22.12+, 24 or 26 with npm (https://nodejs.org)'},
  {
    tool: 'node_modules',
    why: "prepack's build (tsc, oclif manifest)",
    install: 'npm ci, in the checkout',
    present: () => existsSync(path.join(root, 'node_modules', '.bin', 'tsc')),
  },
  {
    tool: 'git',
    why: 'the commit and its date, stamped into the build',
    install: `${apt('git')} (or set SOURCE_DATE_EPOCH outside a checkout)`,
    needed: () => !process.env.SOURCE_DATE_EPOCH,
  },
  {tool: 'tar', why: 'the archives', install: apt('tar')},
  {tool: 'gzip', why: 'the archives', install: apt('gzip')},
  {tool: 'find', why: 'pruning the archive tree', install: apt('findutils')},
  {tool: 'sh', why: 'the archive pipeline', install: apt('dash')},
]

/** The container image (scripts/release-image.ts). */
export const IMAGE_TOOLS: Requirement[] = [
  {
    tool: 'npm',
    why: 'npm ci, npm pack of Node',
    install: 'Node 22.12+, 24 or 26 with npm (https://nodejs.org)',
  },
  {tool: 'mmdebstrap', why: "the image's Debian libc and CA certificates", install: apt('mmdebstrap')},
  {
    tool: 'root',
    why: 'mmdebstrap --mode=root',
    install: 'run the release as root (a CI job or a container)',
    present: () => process.getuid?.() === 0,
  },
  {tool: 'tar', why: 'the layers', install: apt('tar')},
  {tool: 'gzip', why: 'the layers', install: apt('gzip')},
  {
    tool: 'go',
    why: "building the image's kubectl once (cached in ~/.cache/cpcred/testbin)",
    install: 'Go from https://go.dev/dl (or the testbin cache of a machine that has built it)',
    needed: () => !kubectlCached('amd64') || !kubectlCached('arm64'),
  },
]

export function onPath(tool: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, tool)))
}

/** The requirements of `lists` this machine lacks, each once. */
export function missing(lists: Requirement[][], env: NodeJS.ProcessEnv = process.env): Requirement[] {
  const seen = new Map<string, Requirement>()
  for (const requirement of lists.flat()) {
    if (seen.has(requirement.tool)) continue
    if (requirement.needed && !requirement.needed()) continue
    const present = requirement.present ? requirement.present(env) : onPath(requirement.tool, env)
    if (!present) seen.set(requirement.tool, requirement)
  }
  return [...seen.values()]
}

/** Throws one error naming every missing requirement of `lists`, with how to install it. */
export function assertTools(what: string, lists: Requirement[][]): void {
  const lacking = missing(lists)
  if (!lacking.length) return
  const lines = lacking.map(({tool, why, install}) => `  ${tool}: ${why}; ${install}`)
  throw new Error(
    `${what} needs ${lacking.map(({tool}) => tool).join(', ')}, not found on this machine:\n${lines.join('\n')}\n(docs/release.md lists what a release build needs)`,
  )
}
