// Writes dist/build-info.json, what `cpcred version` reports about this copy: the package's version,
// the commit it was built from (with "-dirty" when the tree had changes) and the build date. The date
// is SOURCE_DATE_EPOCH, else the commit's time, so that two builds of one commit are the same bytes
// (scripts/release.ts checks that its archives are reproducible). Run by prepack, so every packed
// copy has one; a checkout built with `npm run build` has none and says "unknown".
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return undefined
  }
}

export function buildStamp(): {version: string; commit: string; buildDate: string} {
  const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {version: string}
  const head = git(['rev-parse', 'HEAD'])
  const dirty = head !== undefined && git(['status', '--porcelain', '--untracked-files=no']) !== ''
  const epoch = process.env.SOURCE_DATE_EPOCH ?? git(['log', '-1', '--format=%ct'])
  return {
    version,
    commit: head ? `${head}${dirty ? '-dirty' : ''}` : 'unknown',
    buildDate: epoch ? new Date(Number(epoch) * 1000).toISOString() : 'unknown',
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  writeFileSync(path.join(root, 'dist', 'build-info.json'), `${JSON.stringify(buildStamp(), null, 2)}\n`)
}
