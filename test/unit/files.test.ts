import assert from 'node:assert/strict'
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {ensurePrivateDir, makeDirectory, makeMissingDirectories} from '../../src/adapters/directories.js'
import {followSymlinks, readIfExists, writeFileAtomic} from '../../src/adapters/files.js'
import {isCpcredError} from '../../src/core/errors.js'

const SECRET = 'secret-token-0123456789'
const PRIVATE = {mode: 'private'} as const
const KEEP = {mode: 'keep'} as const

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
    ensurePrivateDir(leaf)
    assert.equal(await modeOf(leaf), 0o700)
    assert.equal(await modeOf(path.join(root, 'a')), 0o700)
  })

  it('narrows an existing directory with wider permissions to 0700', async () => {
    const dir = path.join(await tempDir(), 'wide')
    await mkdir(dir)
    await chmod(dir, 0o755)
    ensurePrivateDir(dir)
    assert.equal(await modeOf(dir), 0o700)
  })

  it('accepts an existing private directory as it is', async () => {
    const dir = path.join(await tempDir(), 'private')
    await mkdir(dir, {mode: 0o700})
    await writeFile(path.join(dir, 'kept'), 'x')
    ensurePrivateDir(dir)
    assert.equal(await modeOf(dir), 0o700)
    assert.deepEqual(await readdir(dir), ['kept'])
  })

  it('refuses a path that is a file', async () => {
    const file = path.join(await tempDir(), 'file')
    await writeFile(file, 'x')
    assert.throws(() => ensurePrivateDir(file), /exists but is not a directory/)
  })

  it('refuses a directory owned by another user', {skip: !isRoot && 'needs root to chown'}, async () => {
    const dir = path.join(await tempDir(), 'theirs')
    await mkdir(dir, {mode: 0o755})
    await chown(dir, 65534, 65534)
    assert.throws(() => ensurePrivateDir(dir), /belongs to another user \(uid 65534\)/)
    // Refused, not changed.
    assert.equal(await modeOf(dir), 0o755)
  })
})

describe('makeDirectory and makeMissingDirectories', () => {
  it('creates what is missing 0700 and leaves an existing directory as it is', async () => {
    const root = await tempDir()
    await chmod(root, 0o755)
    const leaf = path.join(root, 'reports', 'fleet')
    makeDirectory(leaf)
    assert.equal(await modeOf(leaf), 0o700)
    assert.equal(await modeOf(path.join(root, 'reports')), 0o700)
    assert.equal(await modeOf(root), 0o755)
  })

  it(
    'fails with a clear error where mkdir -p would never return (under /proc)',
    {timeout: 10_000},
    async () => {
      assert.throws(() => makeMissingDirectories('/proc/cpcred-nonexistent/x', 0o700), {code: 'ENOENT'})
      assert.throws(
        () => makeDirectory('/proc/cpcred-nonexistent'),
        (error) =>
          isCpcredError(error) &&
          /cannot create the directory \/proc\/cpcred-nonexistent \(ENOENT\)/.test(error.message),
      )
    },
  )

  it('says when a file is in the way', async () => {
    const root = await tempDir()
    const file = path.join(root, 'file')
    await writeFile(file, 'x')
    assert.throws(() => makeDirectory(file), /is not a directory/)
    assert.throws(() => makeMissingDirectories(path.join(file, 'below'), 0o700), {code: 'ENOTDIR'})
  })
})

describe('writeFileAtomic, private', () => {
  it('writes a new file with mode 0600 and leaves nothing else behind', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'creds.json')
    await writeFileAtomic(file, SECRET, PRIVATE)
    assert.equal(await readFile(file, 'utf8'), SECRET)
    assert.equal(await modeOf(file), 0o600)
    assert.deepEqual(await readdir(dir), ['creds.json'])
  })

  it('replaces an existing wider file with a 0600 one', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'config')
    await writeFile(file, 'old content that is longer than the new one', {mode: 0o644})
    await chmod(file, 0o644)
    await writeFileAtomic(file, Buffer.from('new'), PRIVATE)
    assert.equal(await readFile(file, 'utf8'), 'new')
    assert.equal(await modeOf(file), 0o600)
    assert.deepEqual(await readdir(dir), ['config'])
  })

  it('creates the file 0600 even under a permissive umask', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'creds')
    const previous = process.umask(0)
    try {
      await writeFileAtomic(file, SECRET, PRIVATE)
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
      writeFileAtomic(file, failing as unknown as Uint8Array, PRIVATE),
      (error: Error) => error.message === 'simulated write failure',
    )
    assert.equal(await readFile(file, 'utf8'), 'old')
    assert.deepEqual(await readdir(dir), ['creds.json'])
  })

  it('refuses to replace a directory, without the content in the error', async () => {
    const dir = await tempDir()
    const target = path.join(dir, 'target')
    await mkdir(target)
    await writeFile(path.join(target, 'inside'), 'x')
    await assert.rejects(writeFileAtomic(target, SECRET, PRIVATE), (error: Error) => {
      assert.ok(!error.message.includes(SECRET))
      return true
    })
    assert.deepEqual(await readdir(dir), ['target'])
    assert.deepEqual(await readdir(target), ['inside'])
  })

  it('fails when the directory does not exist, leaving nothing behind', async () => {
    const dir = await tempDir()
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing', 'f'), SECRET, PRIVATE), {code: 'ENOENT'})
    assert.deepEqual(await readdir(dir), [])
  })
})

describe('writeFileAtomic through symlinks, keeping mode and owner', () => {
  it('writes through a symlink to its target and leaves the link in place', async () => {
    const dir = await tempDir()
    const real = path.join(dir, 'dotfiles', 'kube-config')
    await mkdir(path.dirname(real))
    await writeFile(real, 'old', {mode: 0o600})
    const link = path.join(dir, 'config')
    await symlink('dotfiles/kube-config', link)
    await writeFileAtomic(link, 'new', KEEP)
    assert.ok((await lstat(link)).isSymbolicLink(), 'the link is still a link')
    assert.equal(await readlink(link), 'dotfiles/kube-config')
    assert.equal(await readFile(real, 'utf8'), 'new')
    // The temp file was made beside the real file, and nothing is left over anywhere.
    assert.deepEqual(await readdir(path.dirname(real)), ['kube-config'])
    assert.deepEqual((await readdir(dir)).sort(), ['config', 'dotfiles'])
  })

  it('follows a chain of links, and creates the target of a dangling one', async () => {
    const dir = await tempDir()
    await symlink('b', path.join(dir, 'a'))
    await symlink(path.join(dir, 'c'), path.join(dir, 'b'))
    assert.equal(await followSymlinks(path.join(dir, 'a')), path.join(dir, 'c'))
    await writeFileAtomic(path.join(dir, 'a'), 'created', KEEP)
    assert.equal(await readFile(path.join(dir, 'c'), 'utf8'), 'created')
    assert.equal(await modeOf(path.join(dir, 'c')), 0o600)
    assert.ok((await lstat(path.join(dir, 'a'))).isSymbolicLink())
  })

  it('refuses a loop of links', async () => {
    const dir = await tempDir()
    await symlink('y', path.join(dir, 'x'))
    await symlink('x', path.join(dir, 'y'))
    await assert.rejects(writeFileAtomic(path.join(dir, 'x'), 'z', KEEP), /too many levels of symbolic links/)
  })

  it('keeps the mode of an existing file, and makes a new one 0600', async () => {
    const dir = await tempDir()
    const shared = path.join(dir, 'shared')
    await writeFile(shared, 'old')
    await chmod(shared, 0o640)
    await writeFileAtomic(shared, 'new', KEEP)
    assert.equal(await modeOf(shared), 0o640)
    await writeFileAtomic(path.join(dir, 'fresh'), 'x', KEEP)
    assert.equal(await modeOf(path.join(dir, 'fresh')), 0o600)
  })

  it('leaves a read-only file byte for byte as it was', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'locked')
    await writeFile(file, 'precious')
    await chmod(file, 0o400)
    await assert.rejects(writeFileAtomic(file, 'new', KEEP), /locked is read-only/)
    assert.equal(await readFile(file, 'utf8'), 'precious')
    assert.deepEqual(await readdir(dir), ['locked'])
  })

  it('keeps the owner of a file it replaces', {skip: !isRoot && 'needs root to chown'}, async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'theirs')
    await writeFile(file, 'old', {mode: 0o644})
    await chown(file, 65534, 65534)
    await writeFileAtomic(file, 'new', KEEP)
    const info = await stat(file)
    assert.deepEqual([info.uid, info.gid, info.mode & 0o777], [65534, 65534, 0o644])
    assert.equal(await readFile(file, 'utf8'), 'new')
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

describe('files cpcred owns and files it creates are never written through a link', () => {
  it('private mode replaces a symlink at the path with a private file, leaving its target alone', async () => {
    const dir = await tempDir()
    const victim = path.join(dir, 'victim')
    await writeFile(victim, 'precious', {mode: 0o644})
    const entry = path.join(dir, 'entry.json')
    await symlink(victim, entry)
    await writeFileAtomic(entry, SECRET, PRIVATE)
    assert.equal(await readFile(victim, 'utf8'), 'precious')
    assert.ok((await lstat(entry)).isFile())
    assert.equal(await modeOf(entry), 0o600)
  })

  it('refuses a report path that is a symlink, naming it, and leaves the link and its target', async () => {
    const dir = await tempDir()
    const victim = path.join(dir, 'victim')
    await writeFile(victim, 'precious')
    const report = path.join(dir, 'report.xml')
    await symlink(victim, report)
    await assert.rejects(
      writeFileAtomic(report, '<x/>', {mode: 'keep', refuseSymlink: true}),
      (error: Error) => {
        assert.ok(isCpcredError(error))
        assert.match(error.message, /report\.xml is a symbolic link; cpcred does not write through it/)
        return true
      },
    )
    assert.equal(await readFile(victim, 'utf8'), 'precious')
    assert.ok((await lstat(report)).isSymbolicLink())
  })
})
