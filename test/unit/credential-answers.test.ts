import assert from 'node:assert/strict'
import {chmod, mkdtemp, readdir, stat, symlink, unlink, utimes, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {
  answerKey,
  answersDir,
  fileSignature,
  findAnswer,
  keepAnswer,
} from '../../src/adapters/credential-answers.js'

const env = {KUBECONFIG: '/hub', HOME: '/home/me', KUBERNETES_EXEC_INFO: '{"apiVersion":"v1"}'}

async function setUp() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-answers-'))
  const input = path.join(dir, 'providers.json')
  await writeFile(input, '{"providers":[]}')
  const key = answerKey({command: 'credential', words: ['ns/c', '--cache-ttl', '5m']}, env, '/work')
  const keep = (notAfter = Date.now() + 60_000) =>
    keepAnswer(
      dir,
      {key, notAfter, payload: '{"kind":"ExecCredential"}\n'},
      new Map([[input, fileSignature(input)]]),
    )
  return {dir, input, key, keep}
}

describe('credential answers', () => {
  it('are keyed by the arguments, the directory and every environment variable the credential path reads', () => {
    const base = answerKey({command: 'credential', words: ['ns/c']}, env, '/work')
    assert.equal(answerKey({command: 'credential', words: ['ns/c']}, {...env}, '/work'), base)
    assert.notEqual(answerKey({command: 'credential', words: ['ns/d']}, env, '/work'), base)
    assert.notEqual(answerKey({command: 'credential', words: ['ns/c', '-n', 'x']}, env, '/work'), base)
    assert.notEqual(answerKey({command: 'credential', words: ['ns/c']}, env, '/elsewhere'), base)
    for (const name of [
      'KUBECONFIG',
      'HOME',
      'XDG_CONFIG_HOME',
      'XDG_CACHE_HOME',
      'CPCRED_PROVIDER_FILE',
      'KUBERNETES_EXEC_INFO',
    ]) {
      assert.notEqual(
        answerKey({command: 'credential', words: ['ns/c']}, {...env, [name]: 'other'}, '/work'),
        base,
        name,
      )
    }
    assert.equal(answerKey({command: 'credential', words: ['ns/c']}, {...env, UNRELATED: 'x'}, '/work'), base)
    assert.notEqual(answerKey({command: 'exec', words: ['ns/c']}, env, '/work'), base)
  })

  it('are given again while the key, the time and every input file still match', async () => {
    const {dir, key, keep} = await setUp()
    await keep()
    assert.equal(findAnswer(dir, key, Date.now())?.payload, '{"kind":"ExecCredential"}\n')
    const [file] = await readdir(answersDir(dir))
    assert.equal((await stat(path.join(answersDir(dir), file!))).mode & 0o777, 0o600)
    assert.equal((await stat(answersDir(dir))).mode & 0o777, 0o700)
    assert.equal(
      findAnswer(dir, answerKey({command: 'credential', words: ['ns/other']}, env, '/work'), Date.now()),
      undefined,
    )
  })

  it('are not given once they expire', async () => {
    const {dir, key, keep} = await setUp()
    const notAfter = Date.now() + 1000
    await keep(notAfter)
    assert.ok(findAnswer(dir, key, notAfter - 1))
    assert.equal(findAnswer(dir, key, notAfter), undefined)
  })

  it('are not given when an input file was written, touched, replaced or removed', async () => {
    for (const change of [
      (file: string) => writeFile(file, '{"providers":[{}]}'),
      (file: string) => utimes(file, new Date(), new Date(Date.now() + 5000)),
      async (file: string) => {
        await unlink(file)
        await writeFile(file, '{"providers":[]}')
      },
      (file: string) => unlink(file),
    ]) {
      const {dir, input, key, keep} = await setUp()
      await keep()
      await change(input)
      assert.equal(findAnswer(dir, key, Date.now()), undefined, String(change))
    }
  })

  it('are ignored when the file is not private to this user, or is a link', async () => {
    const {dir, key, keep} = await setUp()
    await keep()
    const [name] = await readdir(answersDir(dir))
    const file = path.join(answersDir(dir), name!)
    await chmod(file, 0o644)
    assert.equal(findAnswer(dir, key, Date.now()), undefined)
    await chmod(file, 0o600)
    assert.ok(findAnswer(dir, key, Date.now()))
    const real = path.join(dir, 'planted.json')
    await writeFile(real, '{}', {mode: 0o600})
    await unlink(file)
    await symlink(real, file)
    assert.equal(findAnswer(dir, key, Date.now()), undefined)
  })

  it('are not kept when an input cannot be signed', async () => {
    const {dir, key} = await setUp()
    await keepAnswer(dir, {key, notAfter: Date.now() + 60_000, payload: 'x'}, new Map([['/x', undefined]]))
    assert.equal(findAnswer(dir, key, Date.now()), undefined)
  })
})
