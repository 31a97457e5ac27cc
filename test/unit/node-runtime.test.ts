// scripts/node-runtime.ts is the one place that names a Node version: what the artifacts ship, and
// the lines CI runs, which are the lines package.json's engines names.
import assert from 'node:assert/strict'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, it} from 'node:test'
import {NODE_LINES, NODE_PACKAGES, NODE_VERSION, PLATFORMS} from '../../scripts/node-runtime.js'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..')

describe('the pinned Node', () => {
  it('ships one version on every platform, each package pinned by a sha512 integrity', () => {
    assert.deepEqual(Object.keys(NODE_PACKAGES).sort(), [...PLATFORMS].sort())
    for (const [platform, node] of Object.entries(NODE_PACKAGES)) {
      assert.equal(node.version, NODE_VERSION, platform)
      assert.match(node.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/, platform)
    }
    assert.equal(NODE_LINES.at(-1), NODE_PACKAGES['linux-amd64'], 'the last CI line is the shipped one')
  })

  it("runs CI under exactly the lines package.json's engines names, each within its range", async () => {
    const pjson = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      engines: {node: string}
    }
    const ranges = pjson.engines.node.split('||').map((range) => {
      const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range.trim())
      assert.ok(match, `engines.node: ${range.trim()} is not a caret range`)
      return match.slice(1).map(Number)
    })
    assert.deepEqual(
      ranges.map(([major]) => major),
      NODE_LINES.map(({version}) => Number(version.split('.')[0])),
    )
    for (const [index, line] of NODE_LINES.entries()) {
      const [major, minor, patch] = line.version.split('.').map(Number) as [number, number, number]
      const [, minMinor, minPatch] = ranges[index]!
      assert.ok(minor > minMinor! || (minor === minMinor && patch >= minPatch!), line.version)
      assert.equal(major % 2, 0, `${line.version} is not of an LTS line`)
    }
  })

  it('is named nowhere else in the code', async () => {
    const versions = new Set([NODE_VERSION, ...NODE_LINES.map(({version}) => version)])
    const found: string[] = []
    for (const dir of ['src', 'scripts', 'test', 'bench']) {
      for (const name of await readdir(path.join(root, dir), {recursive: true})) {
        if (!/\.(ts|js|cjs|mjs)$/.test(name) || name === 'node-runtime.ts') continue
        const text = await readFile(path.join(root, dir, name), 'utf8')
        for (const version of versions)
          if (text.includes(`'${version}'`)) found.push(`${dir}/${name}: ${version}`)
      }
    }
    assert.deepEqual(found, [])
  })
})
