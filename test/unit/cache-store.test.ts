import assert from 'node:assert/strict'
import {execFileSync} from 'node:child_process'
import {chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {CacheStore} from '../../src/adapters/cache-store.js'
import {isRecord} from '../../src/core/json.js'

interface Entry {
  n: number
}
const isEntry = (value: unknown): value is Entry => isRecord(value) && typeof value.n === 'number'

const dirs: string[] = []
after(async () => {
  for (const dir of dirs) await rm(dir, {recursive: true, force: true})
})

async function store(version = 1) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cpcred-store-'))
  dirs.push(root)
  return new CacheStore(path.join(root, 'entries'), {version, isValue: isEntry})
}

/** Writes an entry's file by hand, private unless told otherwise. */
async function plant(cache: CacheStore<Entry>, name: string, text: string, mode = 0o600) {
  await mkdir(cache.dir, {recursive: true, mode: 0o700})
  await writeFile(cache.file(name), text, {mode})
  await chmod(cache.file(name), mode)
}

/** Both ways of reading agree. */
async function readBoth(cache: CacheStore<Entry>, name: string) {
  const value = await cache.read(name)
  assert.deepEqual(cache.readSync(name), value)
  return value
}

describe('CacheStore: what is never read back', () => {
  it('nothing there: no directory, no file', async () => {
    const cache = await store()
    assert.equal(await readBoth(cache, 'a'), undefined)
  })

  it('a corrupt file, a file of another shape, or JSON that is not an entry', async () => {
    const cache = await store()
    for (const text of [
      '',
      '{"version": 1, "value": ',
      'null',
      '[1]',
      '7',
      '{"version": 1}',
      '{"version": 1, "value": {"n": "7"}}',
      '{"version": 1, "value": null}',
      '{"n": 7}',
    ]) {
      await plant(cache, 'a', text)
      assert.equal(await readBoth(cache, 'a'), undefined, text)
    }
  })

  it('an entry of another version', async () => {
    const old = await store(1)
    assert.ok(await old.write('a', {n: 1}))
    const next = new CacheStore(old.dir, {version: 2, isValue: isEntry})
    assert.equal(await readBoth(next, 'a'), undefined)
    assert.deepEqual(await readBoth(old, 'a'), {n: 1})
  })

  it('a file others may read or write', async () => {
    const cache = await store()
    for (const mode of [0o644, 0o640, 0o602]) {
      await plant(cache, 'a', '{"version": 1, "value": {"n": 1}}', mode)
      assert.equal(await readBoth(cache, 'a'), undefined, mode.toString(8))
    }
  })

  it('a symbolic link, even to a private entry of this user', async () => {
    const cache = await store()
    await plant(cache, 'real', '{"version": 1, "value": {"n": 1}}')
    await symlink(cache.file('real'), cache.file('link'))
    assert.deepEqual(await readBoth(cache, 'real'), {n: 1})
    assert.equal(await readBoth(cache, 'link'), undefined)
  })

  it('a directory or a FIFO at the path, without waiting for a writer', async () => {
    const cache = await store()
    await mkdir(cache.file('dir'), {recursive: true})
    assert.equal(await readBoth(cache, 'dir'), undefined)
    execFileSync('mkfifo', ['-m', '600', cache.file('fifo')])
    assert.equal(await readBoth(cache, 'fifo'), undefined)
  })

  it(
    'a directory that cannot be searched: absent, not an error',
    {skip: process.getuid?.() === 0 && 'root may search any directory, so the case cannot arise'},
    async () => {
      const cache = await store()
      assert.ok(await cache.write('a', {n: 1}))
      await chmod(cache.dir, 0o000)
      try {
        assert.equal(await readBoth(cache, 'a'), undefined)
      } finally {
        await chmod(cache.dir, 0o700)
      }
    },
  )
})

describe('CacheStore: writing', () => {
  it('says false, and throws nothing, when the entry cannot be written', async () => {
    const cache = await store()
    await writeFile(cache.dir, 'a file where the directory should be')
    assert.equal(await cache.write('a', {n: 1}), false)
    assert.equal(await readBoth(cache, 'a'), undefined)
  })

  it('replaces a planted link instead of writing through it', async () => {
    const cache = await store()
    const target = path.join(path.dirname(cache.dir), 'victim')
    await writeFile(target, 'keep me', {mode: 0o644})
    await mkdir(cache.dir, {recursive: true, mode: 0o700})
    await symlink(target, cache.file('a'))
    assert.ok(await cache.write('a', {n: 2}))
    assert.equal(await readFile(target, 'utf8'), 'keep me')
    assert.ok((await lstat(cache.file('a'))).isFile())
    assert.deepEqual(await readBoth(cache, 'a'), {n: 2})
  })

  it('replaces an entry that was ignored for its mode with a private one', async () => {
    const cache = await store()
    await plant(cache, 'a', '{"version": 1, "value": {"n": 1}}', 0o644)
    assert.ok(await cache.write('a', {n: 3}))
    assert.equal((await stat(cache.file('a'))).mode & 0o777, 0o600)
    assert.deepEqual(await readBoth(cache, 'a'), {n: 3})
  })

  it('keeps entries as {version, value} in 0600 files in a 0700 directory', async () => {
    const cache = await store(4)
    assert.ok(await cache.write('a', {n: 1}))
    assert.deepEqual(JSON.parse(await readFile(cache.file('a'), 'utf8')), {version: 4, value: {n: 1}})
    assert.equal(cache.file('a'), path.join(cache.dir, 'a.json'))
    assert.equal((await stat(cache.file('a'))).mode & 0o777, 0o600)
    assert.equal((await stat(cache.dir)).mode & 0o777, 0o700)
    assert.deepEqual(await readBoth(cache, 'a'), {n: 1})
  })
})
