// The docs name the version package.json has wherever they name a release of cpcred: install lines
// (npm, the tarball, the archives, krew's store) and image tags. Bumping the version without them
// fails here, file and line named (docs/release.md, "Cutting a release").
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {version: string}

/** A version, with a pre-release part, but not a platform (`0.1.0-amd64` is the tag of 0.1.0's amd64). */
const SEMVER = String.raw`(\d+\.\d+\.\d+(?:-(?!(?:linux|amd64|arm64)\b)[0-9A-Za-z.]+)?)`
/** Where a doc names a cpcred release: each captures the version. */
const RELEASE_NAMES = [
  new RegExp(String.raw`\bcpcred@${SEMVER}`, 'g'), // npm install -g cpcred@X
  new RegExp(String.raw`\bcpcred-${SEMVER}(?=\.tgz|-(?:linux|darwin)-)`, 'g'), // the tarball, the archives
  new RegExp(String.raw`\bcpcred:${SEMVER}`, 'g'), // image tags: cpcred:X, REGISTRY/cpcred:X
  new RegExp(String.raw`\bimage:${SEMVER}`, 'g'), // the OCI layout's tags: release/image:X(-ARCH)
  new RegExp(String.raw`store/cpcred/v${SEMVER}`, 'g'), // krew's store
]

/** README.md and every Markdown and YAML file under docs/ (the changelog names old versions). */
function docs(): string[] {
  const files = readdirSync(path.join(root, 'docs'), {recursive: true, encoding: 'utf8'})
    .filter((name) => /\.(md|ya?ml)$/.test(name))
    .map((name) => path.join('docs', name))
  return ['README.md', ...files.sort()]
}

export function staleVersions(text: string, current: string): string[] {
  const found: string[] = []
  text.split('\n').forEach((line, index) => {
    for (const pattern of RELEASE_NAMES)
      for (const match of line.matchAll(pattern))
        if (match[1] !== current) found.push(`${index + 1}: ${match[0]}`)
  })
  return found
}

describe(`the docs name cpcred ${version}, package.json's version`, () => {
  it('in every install line and image tag', () => {
    const stale = docs().flatMap((file) =>
      staleVersions(readFileSync(path.join(root, file), 'utf8'), version).map((where) => `${file}:${where}`),
    )
    assert.deepEqual(stale, [], `these name another version than ${version}`)
  })

  it('and the check sees each kind of name', () => {
    const text = [
      'npm install --global cpcred@0.0.9',
      'tar -xzf cpcred-0.0.9-linux-amd64.tar.gz; npm i -g ./cpcred-0.0.9.tgz',
      'skopeo copy --all oci:release/image:0.0.9 docker://registry.example/cpcred:0.0.9',
      'umoci unpack --image release/image:0.0.9-amd64 b; ls ~/.krew/store/cpcred/v0.0.9',
    ].join('\n')
    assert.equal(staleVersions(text, '1.0.0').length, 7)
    assert.deepEqual(staleVersions(text, '0.0.9'), [])
  })
})
