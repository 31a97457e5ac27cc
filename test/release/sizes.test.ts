// npm run test:release, the footprint: each artifact's size, packed and unpacked, held to a budget
// (docs/performance.md has the figures and why they are what they are). A dependency or a Node that
// grows an artifact past its budget fails here, with the size it reached.
import assert from 'node:assert/strict'
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {describe, it} from 'node:test'
import {PLATFORMS} from '../../scripts/node-runtime.js'
import {archiveName, IMAGE_LAYOUT, tarballName} from '../../scripts/release.js'
import {repoRoot, runProgram} from '../helpers/env.js'

const releaseDir = process.env.CPCRED_RELEASE_DIR ?? path.join(repoRoot, 'release')
const {version} = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string}
const MiB = 2 ** 20

/**
 * The budgets, in MiB: about a tenth above what Node 26.10.0's release measured, with the part of
 * @kubernetes/client-node that runs bundled in place of the package.
 */
export const SIZE_BUDGETS_MIB = {
  /** The npm tarball: cpcred's own files and that bundle (its dependencies come from the registry). */
  tarball: 1.2,
  /** A standalone archive (cpcred, its dependencies and Node 26: 142.8 MiB of Node on linux-x64). */
  archivePacked: 54,
  archiveUnpacked: 168,
  /** One platform of the container image: its layers as pulled, and as a runtime unpacks them. */
  imageCompressed: 77,
  imageUnpacked: 245,
} as const

/** Bytes as one line of the run's log: `SIZE what=… mib=… budget=…`. */
function within(what: string, bytes: number, budgetMib: number): void {
  const mib = bytes / MiB
  console.log(`SIZE ${what} mib=${mib.toFixed(1)} budget=${budgetMib}`)
  assert.ok(mib <= budgetMib, `${what} is ${mib.toFixed(1)} MiB, over its budget of ${budgetMib} MiB`)
}

/** The bytes a gzip stream (a file, or a blob) unpacks to. */
async function gunzippedBytes(file: string): Promise<number> {
  const {code, stdout, stderr} = await runProgram('bash', [
    '-o',
    'pipefail',
    '-c',
    'gzip -dc "$0" | wc -c',
    file,
  ])
  assert.equal(code, 0, stderr)
  return Number(stdout.trim())
}

/** What a tar.gz's files add up to once unpacked (their sizes, not the tar's own blocks). */
async function unpackedBytes(archive: string): Promise<number> {
  const {code, stdout, stderr} = await runProgram('tar', ['-tvzf', archive])
  assert.equal(code, 0, stderr)
  return stdout
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.split(/\s+/)[2]), 0)
}

interface Descriptor {
  digest: string
  size: number
  mediaType: string
  platform?: {architecture: string}
}

const blob = (digest: string) => path.join(releaseDir, IMAGE_LAYOUT, 'blobs', ...digest.split(':'))

describe('the release stays within its size budgets', () => {
  it('the npm tarball', async () => {
    within(
      tarballName(version),
      (await stat(path.join(releaseDir, tarballName(version)))).size,
      SIZE_BUDGETS_MIB.tarball,
    )
  })

  for (const platform of PLATFORMS) {
    it(`the ${platform} archive, packed and unpacked`, async () => {
      const file = path.join(releaseDir, archiveName(version, platform))
      within(`${platform} packed`, (await stat(file)).size, SIZE_BUDGETS_MIB.archivePacked)
      within(`${platform} unpacked`, await unpackedBytes(file), SIZE_BUDGETS_MIB.archiveUnpacked)
    })
  }

  it('each platform of the image, compressed and unpacked', async () => {
    const index = JSON.parse(await readFile(path.join(releaseDir, IMAGE_LAYOUT, 'index.json'), 'utf8')) as {
      manifests: Descriptor[]
    }
    const platforms = index.manifests.filter((entry) => entry.platform !== undefined)
    assert.ok(platforms.length >= 2, 'an image manifest per platform')
    for (const entry of platforms) {
      const manifest = JSON.parse(await readFile(blob(entry.digest), 'utf8')) as {layers: Descriptor[]}
      const compressed = manifest.layers.reduce((sum, layer) => sum + layer.size, 0)
      let unpacked = 0
      for (const layer of manifest.layers) unpacked += await gunzippedBytes(blob(layer.digest))
      const what = `image linux/${entry.platform!.architecture}`
      within(`${what} compressed`, compressed, SIZE_BUDGETS_MIB.imageCompressed)
      within(`${what} unpacked`, unpacked, SIZE_BUDGETS_MIB.imageUnpacked)
    }
  })
})
