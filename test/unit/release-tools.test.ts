// `npm run release` on a machine that lacks its tools: it stops before it builds or empties
// anything, and names every missing tool at once with how to install it (scripts/release-tools.ts).
import assert from 'node:assert/strict'
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

describe('npm run release without its tools', () => {
  it('names every missing one, with how to install it, and leaves the output folder alone', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'cpcred-release-tools-'))
    try {
      // A PATH with node alone, and a cache without kubectl: nothing else the release runs is there.
      const bin = path.join(work, 'bin')
      await mkdir(bin)
      await symlink(process.execPath, path.join(bin, 'node'))
      const out = path.join(work, 'release')
      await mkdir(out)
      await writeFile(path.join(out, 'kept'), 'a previous release\n')
      const started = Date.now()
      const {code, stderr} = await new Promise<{code: number | null; stderr: string}>((resolve) =>
        execFile(
          process.execPath,
          [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/release.ts', '--out', out],
          {
            cwd: root,
            env: {
              HOME: work,
              PATH: bin,
              XDG_CACHE_HOME: path.join(work, 'cache'),
              SOURCE_DATE_EPOCH: '',
            },
          },
          (error, _stdout, stderr) =>
            resolve({code: error ? ((error as {code?: number}).code ?? null) : 0, stderr}),
        ),
      )
      assert.equal(code, 1, stderr)
      for (const tool of ['npm', 'git', 'tar', 'gzip', 'find', 'mmdebstrap', 'go'])
        assert.match(stderr, new RegExp(`^ +${tool}: .+; .+$`, 'm'), `${tool} is not named:\n${stderr}`)
      assert.match(stderr, /mmdebstrap: .*apt-get install mmdebstrap/)
      assert.match(stderr, /docs\/release\.md/)
      assert.ok(existsSync(path.join(out, 'kept')), 'the output folder was emptied')
      assert.ok(Date.now() - started < 30_000, 'it built something first')
    } finally {
      await rm(work, {recursive: true, force: true})
    }
  })
})
