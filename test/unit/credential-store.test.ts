import assert from 'node:assert/strict'
import {createHash} from 'node:crypto'
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {
  CredentialStore,
  defaultCredentialCacheDir,
  type CredentialStoreOptions,
} from '../../src/adapters/credential-store.js'
import {createEntry, lifetimeRule, serializeEntry} from '../../src/core/exec-credential/cache.js'
import type {Credential} from '../../src/core/exec-credential/protocol.js'

const T0 = new Date('2026-03-01T12:00:00Z')
const IN_ONE_HOUR = '2026-03-01T13:00:00Z'
const TOKEN = 'secret-token-0123456789'

const created: string[] = []
after(() => Promise.all(created.map((dir) => rm(dir, {recursive: true, force: true}))))

async function tempRoot(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-store-'))
  created.push(dir)
  return dir
}

function keyFor(label: string): string {
  return createHash('sha256').update(label).digest('hex')
}

/** null: a credential without expirationTimestamp. */
function credential(token = TOKEN, expirationTimestamp: string | null = IN_ONE_HOUR): Credential {
  return expirationTimestamp === null ? {token} : {token, expirationTimestamp}
}

/** A store in a fresh temp dir, with a settable clock and the problems it reported. */
async function setup(options: CredentialStoreOptions = {}, dirName = 'credentials') {
  const root = await tempRoot()
  const dir = path.join(root, dirName)
  const clock = {now: T0}
  const problems: string[] = []
  const open = (extra: CredentialStoreOptions = {}) =>
    new CredentialStore(dir, {
      clock: () => clock.now,
      onProblem: (message) => problems.push(message),
      ...options,
      ...extra,
    })
  return {root, dir, clock, problems, store: open(), open}
}

/** A fetch that counts its calls and resolves only after `delayMs`, so that callers overlap. */
function countingFetch(result: Credential = credential(), delayMs = 0) {
  const fetch = async () => {
    fetch.calls++
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    return result
  }
  fetch.calls = 0
  return fetch
}

async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}

function assertNoSecret(problems: string[]): void {
  for (const problem of problems) assert.ok(!problem.includes(TOKEN), `secret in problem: ${problem}`)
}

async function writeEntryFile(store: CredentialStore, key: string, entryKey = key, cred = credential()) {
  await mkdir(store.dir, {recursive: true, mode: 0o700})
  await writeFile(store.entryPath(key), serializeEntry(createEntry(entryKey, cred, T0)!), {mode: 0o600})
}

describe('defaultCredentialCacheDir', () => {
  it('uses XDG_CACHE_HOME when it is absolute', () => {
    assert.equal(
      defaultCredentialCacheDir({XDG_CACHE_HOME: '/x/cache', HOME: '/home/u'}),
      '/x/cache/cpcred/credentials',
    )
  })

  it('falls back to ~/.cache when XDG_CACHE_HOME is unset, empty or relative', () => {
    for (const XDG_CACHE_HOME of [undefined, '', 'relative/cache']) {
      assert.equal(
        defaultCredentialCacheDir({XDG_CACHE_HOME, HOME: '/home/u'}),
        '/home/u/.cache/cpcred/credentials',
      )
    }
  })
})

describe('CredentialStore.lookup', () => {
  it('finds nothing in a missing directory, without a problem', async () => {
    const {store, problems} = await setup()
    assert.equal(await store.lookup(keyFor('a')), undefined)
    assert.deepEqual(problems, [])
  })

  it('serves a fresh entry and stops serving it within the expiry margin', async () => {
    const {store, clock, problems} = await setup()
    const key = keyFor('a')
    await writeEntryFile(store, key)
    assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    clock.now = new Date('2026-03-01T12:58:30Z')
    assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    clock.now = new Date('2026-03-01T12:59:30Z')
    assert.equal(await store.lookup(key), undefined)
    clock.now = new Date('2026-03-01T14:00:00Z')
    assert.equal(await store.lookup(key), undefined)
    assert.deepEqual(problems, [])
  })

  it('treats a corrupt entry as missing and reports it', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    await mkdir(store.dir, {recursive: true})
    await writeFile(store.entryPath(key), `{"version":1,"key":"${key}","credential":{"token":"${TOKEN}"`, {
      mode: 0o600,
    })
    assert.equal(await store.lookup(key), undefined)
    assert.equal(problems.length, 1)
    assert.match(problems[0]!, /ignoring credential cache entry .*corrupt/)
    assertNoSecret(problems)
  })

  it('does not serve an entry written for another key', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    await writeEntryFile(store, key, keyFor('b'))
    assert.equal(await store.lookup(key), undefined)
    assert.equal(problems.length, 1)
  })

  it('reports an unreadable entry instead of throwing', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    await mkdir(store.entryPath(key), {recursive: true})
    assert.equal(await store.lookup(key), undefined)
    assert.match(problems[0]!, /ignoring credential cache entry .*: it is not a regular file/)
  })

  it('survives an onProblem that throws', async () => {
    const {dir} = await setup()
    const store = new CredentialStore(dir, {
      onProblem: () => {
        throw new Error('reporter broke')
      },
    })
    const key = keyFor('a')
    await mkdir(dir, {recursive: true})
    await writeFile(store.entryPath(key), 'not json')
    assert.equal(await store.lookup(key), undefined)
  })

  it('hashes a key that is not sha256 hex, so it cannot name another path', async () => {
    const {store} = await setup()
    const file = store.entryPath('../../etc/passwd')
    assert.equal(path.dirname(file), store.dir)
    assert.match(path.basename(file), /^[0-9a-f]{64}\.json$/)
  })
})

describe('CredentialStore.obtain', () => {
  it('fetches on a cold cache, stores a 0600 entry in a 0700 directory, then serves it', async () => {
    const {store, dir, problems} = await setup()
    const key = keyFor('a')
    const fetch = countingFetch()
    const first = await store.obtain(key, fetch)
    assert.equal(first.credential.token, TOKEN)
    assert.equal(first.fromCache, false)
    assert.equal(await modeOf(dir), 0o700)
    assert.equal(await modeOf(store.entryPath(key)), 0o600)
    assert.deepEqual(await readdir(dir), [`${key}.json`])

    const second = await store.obtain(key, fetch)
    assert.equal(second.credential.token, TOKEN)
    assert.equal(second.fromCache, true)
    assert.equal(fetch.calls, 1)
    assert.deepEqual(problems, [])
  })

  it('narrows a cache directory that existed with wider permissions', async () => {
    const {store, dir} = await setup()
    await mkdir(dir, {recursive: true})
    await chmod(dir, 0o755)
    await store.obtain(keyFor('a'), countingFetch())
    assert.equal(await modeOf(dir), 0o700)
  })

  it('fetches again once the entry expired and replaces it, still 0600', async () => {
    const {store, clock} = await setup()
    const key = keyFor('a')
    await store.obtain(key, countingFetch())
    clock.now = new Date('2026-03-01T13:30:00Z')
    const renewed = credential('renewed-token', '2026-03-01T14:30:00Z')
    const fetch = countingFetch(renewed)
    const result = await store.obtain(key, fetch)
    assert.equal(fetch.calls, 1)
    assert.equal(result.credential.token, 'renewed-token')
    assert.equal((await store.lookup(key))?.credential.token, 'renewed-token')
    assert.equal(await modeOf(store.entryPath(key)), 0o600)
  })

  it('runs the plugin again when the entry has less left than the lifetime rule asks, and says until when it serves', async () => {
    const {store, clock} = await setup()
    const key = keyFor('rule')
    const exec = lifetimeRule(undefined, true)
    const first = await store.obtain(key, countingFetch(), undefined, exec)
    // A one-hour credential: exec starts commands with it until 5 minutes before it expires.
    assert.deepEqual(first.cachedUntil, new Date('2026-03-01T12:55:00Z'))
    assert.deepEqual(first.obtainedAt, T0)
    clock.now = new Date('2026-03-01T12:54:00Z')
    const early = countingFetch(credential('early', '2026-03-01T14:00:00Z'))
    assert.equal((await store.obtain(key, early, undefined, exec)).credential.token, TOKEN)
    assert.equal(early.calls, 0)
    clock.now = new Date('2026-03-01T12:56:00Z')
    // kubectl's `cpcred credential` would still get it (one-minute margin) ...
    assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    // ... a command that may run a while does not.
    const renewed = countingFetch(credential('renewed', '2026-03-01T13:56:00Z'))
    const result = await store.obtain(key, renewed, undefined, exec)
    assert.equal(renewed.calls, 1)
    assert.equal(result.credential.token, 'renewed')
    assert.equal(result.fromCache, false)
  })

  it('replaces a corrupt entry with a fresh one', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    await mkdir(store.dir, {recursive: true})
    await writeFile(store.entryPath(key), 'garbage', {mode: 0o600})
    const fetch = countingFetch()
    await store.obtain(key, fetch)
    assert.equal(fetch.calls, 1)
    assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    assert.equal(problems.length, 1)
  })

  it('does not cache a credential without expiry unless a TTL is given', async () => {
    const {store} = await setup()
    const key = keyFor('a')
    const fetch = countingFetch(credential(TOKEN, null))
    await store.obtain(key, fetch)
    assert.equal(await exists(store.entryPath(key)), false)
    await store.obtain(key, fetch, 300)
    const cached = await store.lookup(key)
    assert.equal(cached?.expiresAt.toISOString(), '2026-03-01T12:05:00.000Z')
    assert.equal(fetch.calls, 2)
  })

  it('with a TTL of 0 fetches every time and writes nothing', async () => {
    const {store, dir} = await setup()
    const fetch = countingFetch()
    await store.obtain(keyFor('a'), fetch, 0)
    await store.obtain(keyFor('a'), fetch, 0)
    assert.equal(fetch.calls, 2)
    assert.equal(await exists(dir), false)
  })

  it('rejects an invalid TTL before running the plugin', async () => {
    const {store} = await setup()
    const fetch = countingFetch()
    await assert.rejects(store.obtain(keyFor('a'), fetch, -1), RangeError)
    await assert.rejects(store.obtain(keyFor('a'), fetch, Number.NaN), RangeError)
    assert.equal(fetch.calls, 0)
  })

  it('runs fetch exactly once for 20 concurrent callers on a cold cache', async () => {
    const {open, dir, problems} = await setup()
    const key = keyFor('a')
    const fetch = countingFetch(credential(), 100)
    // One store per caller, as separate `cpcred credential` processes would have.
    const results = await Promise.all(Array.from({length: 20}, () => open().obtain(key, fetch)))
    assert.equal(fetch.calls, 1)
    assert.ok(results.every((result) => result.credential.token === TOKEN))
    assert.equal(results.filter((result) => !result.fromCache).length, 1)
    assert.deepEqual(problems, [])
    assert.deepEqual(await readdir(dir), [`${key}.json`])
  })

  it('recovers a stale lock left by a dead process', async () => {
    const {store, dir, problems} = await setup({lockTimeoutMs: 60_000})
    const key = keyFor('a')
    await mkdir(dir, {recursive: true, mode: 0o700})
    // proper-lockfile's lock is a directory; a holder that died stopped refreshing its mtime.
    await mkdir(store.lockPath(key))
    const anHourAgo = new Date(Date.now() - 3600_000)
    await utimes(store.lockPath(key), anHourAgo, anHourAgo)
    const fetch = countingFetch()
    const result = await store.obtain(key, fetch)
    assert.equal(result.credential.token, TOKEN)
    assert.equal(fetch.calls, 1)
    // Stored, so the lock was taken (a timed-out waiter fetches without caching), and no timeout was reported.
    assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    assert.deepEqual(problems, [])
    assert.equal(await exists(store.lockPath(key)), false)
  })

  it('falls back to fetching when the lock is held past the timeout', async () => {
    const {store, dir, problems} = await setup({lockTimeoutMs: 100, staleLockMs: 600_000})
    const key = keyFor('a')
    await mkdir(dir, {recursive: true, mode: 0o700})
    // Fresh and far from stale: a live holder that never finishes.
    await mkdir(store.lockPath(key))
    const fetch = countingFetch()
    const result = await store.obtain(key, fetch)
    assert.equal(result.credential.token, TOKEN)
    assert.equal(result.fromCache, false)
    assert.equal(fetch.calls, 1)
    assert.equal(problems.length, 1)
    assert.match(problems[0]!, /credential cache not used \(gave up after 100 ms waiting for the lock/)
    // Not ours: neither the lock is removed nor an entry written without holding it.
    assert.equal(await exists(store.lockPath(key)), true)
    assert.equal(await exists(store.entryPath(key)), false)
  })

  it('falls back to fetching when the cache directory cannot be created', async () => {
    const root = await tempRoot()
    await writeFile(path.join(root, 'not-a-dir'), 'x')
    const problems: string[] = []
    const store = new CredentialStore(path.join(root, 'not-a-dir', 'credentials'), {
      onProblem: (message) => problems.push(message),
    })
    const fetch = countingFetch()
    const result = await store.obtain(keyFor('a'), fetch)
    assert.equal(result.credential.token, TOKEN)
    assert.equal(fetch.calls, 1)
    assert.equal(problems.length, 1)
    assert.match(problems[0]!, /credential cache not used/)
    assertNoSecret(problems)
  })

  it('serves the credential when the entry cannot be written, and reports it', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    // A non-empty directory where the entry belongs: reading and replacing it both fail.
    await mkdir(path.join(store.entryPath(key), 'x'), {recursive: true})
    const fetch = countingFetch()
    const result = await store.obtain(key, fetch)
    assert.equal(result.credential.token, TOKEN)
    assert.equal(fetch.calls, 1)
    assert.equal(problems.length, 2)
    assert.match(problems[0]!, /ignoring credential cache entry .*: it is not a regular file/)
    assert.match(problems[1]!, /could not write credential cache entry/)
    assertNoSecret(problems)
    assert.equal(await exists(store.lockPath(key)), false)
    assert.deepEqual((await readdir(store.dir)).sort(), [`${key}.json`])
  })

  it('propagates a fetch failure unchanged and releases the lock', async () => {
    const {store, problems, open} = await setup({lockTimeoutMs: 0})
    const key = keyFor('a')
    const failure = new Error('plugin exited 1')
    await assert.rejects(
      store.obtain(key, async () => {
        throw failure
      }),
      (error) => error === failure,
    )
    assert.equal(await exists(store.lockPath(key)), false)
    assert.equal(await exists(store.entryPath(key)), false)
    // With no wait allowed, a lock left behind would show up as a timeout problem here.
    const fetch = countingFetch()
    assert.equal((await open().obtain(key, fetch)).fromCache, false)
    assert.equal(fetch.calls, 1)
    assert.deepEqual(problems, [])
  })

  it('propagates a fetch failure unchanged when the cache is bypassed', async () => {
    const root = await tempRoot()
    await writeFile(path.join(root, 'file'), 'x')
    const store = new CredentialStore(path.join(root, 'file', 'credentials'))
    const failure = new Error('plugin timed out')
    await assert.rejects(
      store.obtain(keyFor('a'), async () => {
        throw failure
      }),
      (error) => error === failure,
    )
  })
})

describe('CredentialStore.clear', () => {
  it('returns 0 when there is no cache directory', async () => {
    const {store} = await setup()
    assert.equal(await store.clear(), 0)
  })

  it('removes the given entries, or all, with leftover temp and abandoned lock files', async () => {
    const {store, dir} = await setup()
    const [a, b, c] = [keyFor('a'), keyFor('b'), keyFor('c')]
    for (const key of [a, b, c]) await store.obtain(key, countingFetch())
    const anHourAgo = new Date(Date.now() - 3600_000)
    await mkdir(store.lockPath(a))
    await utimes(store.lockPath(a), anHourAgo, anHourAgo)
    await mkdir(store.lockPath(b))
    await utimes(store.lockPath(b), anHourAgo, anHourAgo)
    await writeFile(path.join(dir, `.${a}.json.0123abcd.tmp`), 'partial')
    await writeFile(path.join(dir, 'README'), 'not ours to remove')

    assert.equal(await store.clear([a, keyFor('never stored')]), 1)
    assert.deepEqual((await readdir(dir)).sort(), ['README', `${b}.json`, `${b}.lock`, `${c}.json`].sort())

    assert.equal(await store.clear(), 2)
    assert.deepEqual(await readdir(dir), ['README'])
    assert.equal(await store.lookup(b), undefined)
  })

  it('leaves a lock alone while its holder is fetching', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    let started!: () => void
    const fetchStarted = new Promise<void>((resolve) => (started = resolve))
    let finish!: () => void
    const fetchMayFinish = new Promise<void>((resolve) => (finish = resolve))
    const pending = store.obtain(key, async () => {
      started()
      await fetchMayFinish
      return credential()
    })
    await fetchStarted
    assert.equal(await store.clear(), 0)
    assert.equal(await exists(store.lockPath(key)), true)
    finish()
    assert.equal((await pending).credential.token, TOKEN)
    assert.equal(await exists(store.lockPath(key)), false)
    assert.deepEqual(problems, [])
    assert.equal(JSON.parse(await readFile(store.entryPath(key), 'utf8')).key, key)
  })
})

// docs/design.md §5: what cpcred reads back must be a regular, private file of the user; anything else
// is ignored and replaced, never written through.
describe('CredentialStore: the private-file rule', () => {
  it('does not serve an entry through a symlink, and replaces the link without touching its target', async () => {
    const {store, problems} = await setup()
    const key = keyFor('a')
    await writeEntryFile(store, key)
    const elsewhere = path.join(path.dirname(store.dir), 'victim')
    await writeFile(elsewhere, 'do not overwrite', {mode: 0o600})
    await rm(store.entryPath(key))
    await symlink(elsewhere, store.entryPath(key))
    const fetch = countingFetch()
    const result = await store.obtain(key, fetch)
    assert.equal(fetch.calls, 1, 'the link is not a cache hit')
    assert.equal(result.fromCache, false)
    assert.equal(await readFile(elsewhere, 'utf8'), 'do not overwrite')
    assert.ok((await lstat(store.entryPath(key))).isFile(), 'the link was replaced by a regular file')
    assert.equal(await modeOf(store.entryPath(key)), 0o600)
    assert.match(
      problems[0]!,
      /ignoring credential cache entry .*: it is a symbolic link; it will be replaced/,
    )
    assertNoSecret(problems)
  })

  for (const mode of [0o640, 0o604, 0o660]) {
    it(`ignores an entry with mode ${mode.toString(8)} and replaces it with a private one`, async () => {
      const {store, problems} = await setup()
      const key = keyFor('a')
      await writeEntryFile(store, key)
      await chmod(store.entryPath(key), mode)
      assert.equal(await store.lookup(key), undefined)
      assert.match(problems[0]!, /others may read or write it/)
      const fetch = countingFetch()
      await store.obtain(key, fetch)
      assert.equal(fetch.calls, 1)
      assert.equal(await modeOf(store.entryPath(key)), 0o600)
      assert.equal((await store.lookup(key))?.credential.token, TOKEN)
    })
  }
})
