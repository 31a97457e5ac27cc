import assert from 'node:assert/strict'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, it} from 'node:test'
import {cpcred, isolatedEnv, repoRoot, runProgram, tempDir} from '../helpers/env.js'

const {version} = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string}

describe('cpcred version', () => {
  it('says the version, commit, build date, Node, the kubectl on PATH and where the docs are', async () => {
    const kubectl = await runProgram('kubectl', ['version', '--client', '-o', 'json'])
    const {gitVersion} = JSON.parse(kubectl.stdout).clientVersion as {gitVersion: string}
    const run = await cpcred(['version', '-o', 'json'])
    assert.equal(run.code, 0, run.stderr)
    const info = JSON.parse(run.stdout)
    assert.equal(info.version, version)
    assert.equal(info.node, process.version)
    assert.equal(info.kubectl.version, gitVersion)
    assert.equal(info.docs, path.join(repoRoot, 'docs'))
    // A checkout's build has no stamp unless it was packed (scripts/stamp.ts).
    assert.match(info.commit, /^(unknown|[0-9a-f]{40}(-dirty)?)$/)

    const text = await cpcred(['version'])
    assert.equal(text.code, 0, text.stderr)
    assert.match(text.stdout, new RegExp(`^cpcred +${version.replaceAll('.', '\\.')}\\n`))
    assert.match(text.stdout, new RegExp(`^kubectl +${gitVersion.replaceAll('.', '\\.')} \\(/`, 'm'))
    for (const words of [['--version'], ['-v']]) {
      const same = await cpcred(words)
      assert.equal(same.code, 0, same.stderr)
      assert.equal(same.stdout, text.stdout, words.join(' '))
    }
  })

  it('does not wait long for a kubectl that hangs, and says so', async () => {
    const dir = await tempDir('cpcred-version-')
    await writeFile(path.join(dir, 'kubectl'), '#!/bin/sh\nexec sleep 60\n', {mode: 0o755})
    const started = Date.now()
    const run = await cpcred(['version'], {PATH: `${dir}${path.delimiter}${isolatedEnv.PATH}`})
    assert.equal(run.code, 0, run.stderr)
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started}ms`)
    assert.match(run.stdout, /^kubectl +no answer in 3s \(/m)
  })

  it('takes no arguments and no unknown flags: usage errors', async () => {
    const extra = await cpcred(['version', 'extra'])
    assert.equal(extra.code, 2)
    assert.match(extra.stderr, /"version extra"/)
    const flag = await cpcred(['--version', '-o', 'xml'])
    assert.equal(flag.code, 2, flag.stderr)
    assert.match(flag.stderr, /xml/)
  })
})
