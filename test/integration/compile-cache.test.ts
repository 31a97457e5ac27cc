// Node's compile cache for cpcred's bundles (src/adapters/compile-cache.ts), run on the Node the
// release ships: kept in cpcred's private cache directory, used again by the next run, never an
// error, and left to the user's own NODE_COMPILE_CACHE / NODE_DISABLE_COMPILE_CACHE.
import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {readdir, stat, writeFile, mkdir} from 'node:fs/promises'
import path from 'node:path'
import {describe, it} from 'node:test'
import {lineBin, NODE_PACKAGES} from '../../scripts/node-runtime.js'
import {cpcredBin, isolatedEnv, runProgram, tempDir} from '../helpers/env.js'

const node = path.join(await lineBin(NODE_PACKAGES['linux-amd64']), 'node')
const run = (cacheHome: string, env: NodeJS.ProcessEnv = {}) =>
  runProgram(node, [cpcredBin, 'version', '-o', 'json'], {
    env: {...isolatedEnv, XDG_CACHE_HOME: cacheHome, ...env},
  })

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name)
}

describe("Node's compile cache", () => {
  it('is kept in a private directory of the cache, and a second run uses it with the same output', async () => {
    const cacheHome = await tempDir('cpcred-compile-')
    const first = await run(cacheHome)
    assert.equal(first.code, 0, first.stderr)
    const dir = path.join(cacheHome, 'cpcred', 'compile')
    assert.equal((await stat(dir)).mode & 0o777, 0o700)
    const kept = await filesUnder(dir)
    assert.ok(kept.length > 0, 'compiled code was kept')
    const second = await run(cacheHome)
    assert.equal(second.code, 0, second.stderr)
    assert.equal(second.stdout, first.stdout)
    assert.deepEqual((await filesUnder(dir)).sort(), [...kept].sort(), 'nothing compiled again')
  })

  it('is no error when it cannot be made: a file where its directory would be', async () => {
    const cacheHome = await tempDir('cpcred-compile-')
    await mkdir(path.join(cacheHome, 'cpcred'), {recursive: true, mode: 0o700})
    await writeFile(path.join(cacheHome, 'cpcred', 'compile'), 'not a directory')
    const result = await run(cacheHome)
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.stderr, '')
  })

  it("leaves the choice to the user's NODE_DISABLE_COMPILE_CACHE and NODE_COMPILE_CACHE", async () => {
    const cacheHome = await tempDir('cpcred-compile-')
    const disabled = await run(cacheHome, {NODE_DISABLE_COMPILE_CACHE: '1'})
    assert.equal(disabled.code, 0, disabled.stderr)
    assert.equal(existsSync(path.join(cacheHome, 'cpcred', 'compile')), false)
    const own = path.join(cacheHome, 'own')
    const chosen = await run(cacheHome, {NODE_COMPILE_CACHE: own})
    assert.equal(chosen.code, 0, chosen.stderr)
    assert.equal(existsSync(path.join(cacheHome, 'cpcred', 'compile')), false)
    assert.ok((await filesUnder(own)).length > 0)
  })
})
