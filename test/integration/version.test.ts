import assert from 'node:assert/strict'
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, it} from 'node:test'
import {lineBin, NODE_PACKAGES, NODE_VERSION} from '../../scripts/node-runtime.js'
import {cpcred, cpcredBin, isolatedEnv, repoRoot, runProgram, tempDir} from '../helpers/env.js'

/** A Node 20 on this machine (the line ended on 2026-04-30): the test run's, or /usr/bin/node. */
function machineNode20(): string | undefined {
  for (const node of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue
    const version = execFileSync(node, ['--version'], {encoding: 'utf8'}).trim()
    if (version.startsWith('v20.')) return node
  }
  return undefined
}
const node20 = machineNode20()

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

  it(
    'warns, as doctor does, under a Node past its end of life; not under the shipped Node',
    {skip: node20 ? false : 'no Node 20 on this machine'},
    async () => {
      const ended = await runProgram(node20!, [cpcredBin, 'version'], {env: isolatedEnv})
      assert.equal(ended.code, 0, ended.stderr)
      assert.match(ended.stdout, /^node +v20\.\d+\.\d+ \(LTS, end of life 2026-04-30, passed\)$/m)
      const warning =
        /^warning: Node v20\.\d+\.\d+ reached its end of life on 2026-04-30 and gets no more security fixes: .*\n/m
      assert.match(ended.stderr, warning)
      const json = await runProgram(node20!, [cpcredBin, 'version', '-o', 'json'], {env: isolatedEnv})
      assert.equal(JSON.parse(json.stdout).nodeEndOfLife, '2026-04-30')
      assert.match(json.stderr, warning)
      const doctor = await runProgram(node20!, [cpcredBin, 'doctor', '--kubeconfig', '/nonexistent'], {
        env: isolatedEnv,
      })
      assert.match(doctor.stderr, warning)
      assert.equal(doctor.stderr.match(/^warning: Node /gm)?.length, 1, doctor.stderr)

      if (process.arch !== 'x64') return
      const shipped = path.join(await lineBin(NODE_PACKAGES['linux-amd64']), 'node')
      const maintained = await runProgram(shipped, [cpcredBin, 'version', '-o', 'yaml'], {env: isolatedEnv})
      assert.equal(maintained.code, 0, maintained.stderr)
      assert.match(maintained.stdout, new RegExp(`^node: v${NODE_VERSION.replaceAll('.', '\\.')}$`, 'm'))
      assert.match(maintained.stdout, /^node: v[\d.]+\nnodeEndOfLife: "2029-04-30"$/m)
      assert.doesNotMatch(maintained.stderr, /warning/)
    },
  )

  it('takes no arguments and no unknown flags: usage errors', async () => {
    const extra = await cpcred(['version', 'extra'])
    assert.equal(extra.code, 2)
    assert.match(extra.stderr, /"version extra"/)
    const flag = await cpcred(['--version', '-o', 'xml'])
    assert.equal(flag.code, 2, flag.stderr)
    assert.match(flag.stderr, /xml/)
  })
})
