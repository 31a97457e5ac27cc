// The one rule for files cpcred reads back: a regular file of this user with no group or world
// access, opened without following a link (and without waiting on a FIFO). Anything else is
// ignored, with the reason, as if it were not there.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {readPrivateFile} from '../../src/adapters/private-files.js'

const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, {recursive: true, force: true}))))

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-private-read-'))
  dirs.push(dir)
  return dir
}

async function read(file: string): Promise<{text?: string; reasons: string[]}> {
  const reasons: string[] = []
  const text = await readPrivateFile(file, (reason) => reasons.push(reason))
  return {text, reasons}
}

describe('readPrivateFile', () => {
  it('reads a private regular file of this user', async () => {
    const file = path.join(await tempDir(), 'entry')
    await writeFile(file, 'cached', {mode: 0o600})
    assert.deepEqual(await read(file), {text: 'cached', reasons: []})
  })

  it('treats a missing file, or one under a file, as absent without a reason', async () => {
    const dir = await tempDir()
    assert.deepEqual(await read(path.join(dir, 'missing')), {text: undefined, reasons: []})
    await writeFile(path.join(dir, 'plain'), 'x', {mode: 0o600})
    assert.deepEqual(await read(path.join(dir, 'plain', 'below')), {text: undefined, reasons: []})
  })

  it('ignores a symlink, even to a private file of this user', async () => {
    const dir = await tempDir()
    await writeFile(path.join(dir, 'target'), 'planted', {mode: 0o600})
    await symlink(path.join(dir, 'target'), path.join(dir, 'entry'))
    assert.deepEqual(await read(path.join(dir, 'entry')), {
      text: undefined,
      reasons: ['it is a symbolic link'],
    })
  })

  for (const mode of [0o640, 0o604, 0o620, 0o602, 0o660]) {
    it(`ignores a file with mode ${mode.toString(8)}`, async () => {
      const file = path.join(await tempDir(), 'entry')
      await writeFile(file, 'exposed')
      await chmod(file, mode)
      const {text, reasons} = await read(file)
      assert.equal(text, undefined)
      assert.deepEqual(reasons, [`others may read or write it (mode 0${mode.toString(8)})`])
    })
  }

  it('ignores a directory', async () => {
    const dir = path.join(await tempDir(), 'entry')
    await mkdir(dir, {mode: 0o700})
    assert.deepEqual(await read(dir), {text: undefined, reasons: ['it is not a regular file']})
  })

  it('ignores a FIFO without waiting for a writer', {skip: process.platform === 'win32'}, async () => {
    const fifo = path.join(await tempDir(), 'entry')
    assert.equal(spawnSync('mkfifo', ['-m', '600', fifo]).status, 0)
    const {text, reasons} = await read(fifo)
    assert.equal(text, undefined)
    assert.equal(reasons.length, 1)
    assert.match(reasons[0]!, /not a regular file/)
  })

  it(
    'ignores a file of another user',
    {skip: process.getuid?.() !== 0 && 'needs root to chown'},
    async () => {
      const file = path.join(await tempDir(), 'entry')
      await writeFile(file, 'theirs', {mode: 0o600})
      await chown(file, 65534, 65534)
      assert.deepEqual(await read(file), {
        text: undefined,
        reasons: ['it belongs to another user (uid 65534)'],
      })
    },
  )
})
