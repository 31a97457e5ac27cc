import assert from 'node:assert/strict'
import {chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {ensurePrivateDir, readIfExists, writePrivateFileAtomic} from '../../src/adapters/private-files.js'

const SECRET = 'secret-token-0123456789'

const created: string[] = []
after(() => Promise.all(created.map((dir) => rm(dir, {recursive: true, force: true}))))

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-private-files-'))
  created.push(dir)
  return dir
}

async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777
}

const isRoot = process.getuid?.() === 0

describe('ensurePrivateDir', () => {
  it('creates missing directories with mode 0700', async () => {
    const root = await tempDir()
    const leaf = path.join(root, 'a', 'b', 'c')
    await ensurePrivateDir(leaf)
    assert.equal(await modeOf(leaf), 0o700)
    assert.equal(await modeOf(path.join(root, 'a')), 0o700)
  })

  it('narrows an existing directory with wider permissions to 0700', async () => {
    const dir = path.join(await tempDir(), 'wide')
    await mkdir(dir)
    await chmod(dir, 0o755)
    await ensurePrivateDir(dir)
    assert.equal(await modeOf(dir), 0o700)
  })

  it('accepts an existing private directory as it is', async () => {
    const dir = path.join(await tempDir(), 'private')
    await mkdir(dir, {mode: 0o700})
    await writeFile(path.join(dir, 'kept'), 'x')
    await ensurePrivateDir(dir)
    assert.equal(await modeOf(dir), 0o700)
    assert.deepEqual(await readdir(dir), ['kept'])
  })

  it('refuses a path that is a file', async () => {
    const file = path.join(await tempDir(), 'file')
    await writeFile(file, 'x')
    await assert.rejects(ensurePrivateDir(file), /exists but is not a directory/)
  })

  it('refuses a directory owned by another user', {skip: !isRoot && 'needs root to chown'}, async () => {
    const dir = path.join(await tempDir(), 'theirs')
    await mkdir(dir, {mode: 0o755})
    await chown(dir, 65534, 65534)
    await assert.rejects(ensurePrivateDir(dir), /belongs to another user \(uid 65534\)/)
    // Refused, not changed.
    assert.equal(await modeOf(dir), 0o755)
  })
})

describe('writePrivateFileAtomic', () => {
  it('writes a new file with mode 0600 and leaves nothing else behind', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'creds.json')
    await writePrivateFileAtomic(file, SECRET)
    assert.equal(await readFile(file, 'utf8'), SECRET)
    assert.equal(await modeOf(file), 0o600)
    assert.deepEqual(await readdir(dir), ['creds.json'])
  })

  it('replaces an existing wider file with a 0600 one', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'config')
    await writeFile(file, 'old content that is longer than the new one', {mode: 0o644})
    await chmod(file, 0o644)
    await writePrivateFileAtomic(file, Buffer.from('new'))
    assert.equal(await readFile(file, 'utf8'), 'new')
    assert.equal(await modeOf(file), 0o600)
    assert.deepEqual(await readdir(dir), ['config'])
  })

  it('creates the file 0600 even under a permissive umask', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'creds')
    const previous = process.umask(0)
    try {
      await writePrivateFileAtomic(file, SECRET)
    } finally {
      process.umask(previous)
    }
    assert.equal(await modeOf(file), 0o600)
  })

  it('keeps the old target and removes the temp file when writing fails half-way', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'creds.json')
    await writeFile(file, 'old', {mode: 0o600})
    // Content that fails after part of it has reached the temp file, as a full disk would.
    const failing = (function* () {
      yield Buffer.from(`{"token":"${SECRET}`)
      throw new Error('simulated write failure')
    })()
    await assert.rejects(
      writePrivateFileAtomic(file, failing as unknown as Uint8Array),
      (error: Error) => error.message === 'simulated write failure',
    )
    assert.equal(await readFile(file, 'utf8'), 'old')
    assert.deepEqual(await readdir(dir), ['creds.json'])
  })

  it('removes the temp file when the rename fails, without the content in the error', async () => {
    const dir = await tempDir()
    // A non-empty directory cannot be replaced by a file.
    const target = path.join(dir, 'target')
    await mkdir(target)
    await writeFile(path.join(target, 'inside'), 'x')
    await assert.rejects(writePrivateFileAtomic(target, SECRET), (error: Error) => {
      assert.ok(!error.message.includes(SECRET))
      return true
    })
    assert.deepEqual(await readdir(dir), ['target'])
    assert.deepEqual(await readdir(target), ['inside'])
  })

  it('fails when the directory does not exist, leaving nothing behind', async () => {
    const dir = await tempDir()
    await assert.rejects(writePrivateFileAtomic(path.join(dir, 'missing', 'f'), SECRET), {code: 'ENOENT'})
    assert.deepEqual(await readdir(dir), [])
  })
})

describe('readIfExists', () => {
  it('returns the text of an existing file', async () => {
    const file = path.join(await tempDir(), 'f')
    await writeFile(file, 'hello')
    assert.equal(await readIfExists(file), 'hello')
  })

  it('returns undefined for a missing file or a path through a file', async () => {
    const dir = await tempDir()
    assert.equal(await readIfExists(path.join(dir, 'missing')), undefined)
    await writeFile(path.join(dir, 'plain'), 'x')
    assert.equal(await readIfExists(path.join(dir, 'plain', 'below')), undefined)
  })

  it('throws other errors, such as reading a directory', async () => {
    const dir = await tempDir()
    await assert.rejects(readIfExists(dir), {code: 'EISDIR'})
  })
})
