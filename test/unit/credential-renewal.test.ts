import assert from 'node:assert/strict'
import {mkdtemp, readFile, rm, stat} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {tempKubeconfigs} from '../../src/adapters/temp-kubeconfigs.js'
import {renewalTime, writeTarget, type PreparedTarget} from '../../src/usecases/exec-target-files.js'

const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, {recursive: true, force: true}))))

async function temp() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cpcred-renewal-'))
  dirs.push(root)
  return tempKubeconfigs({...process.env, XDG_RUNTIME_DIR: root})
}

const credential = (status: Record<string, string>, expiresAt: number) =>
  JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: {...status, expirationTimestamp: new Date(expiresAt).toISOString()},
  })
const tokenCredential = (token: string, expiresAt: number) => credential({token}, expiresAt)

function target(refreshAt?: number, first: PreparedTarget['credential'] = {token: 'first'}): PreparedTarget {
  return {
    connection: {cluster: {server: 'https://eu.example:6443'}},
    credential: first,
    env: {CPCRED_PROFILE: 'eu', CPCRED_NAMESPACE: 'fleet'},
    ...(refreshAt === undefined
      ? {}
      : {refresh: {at: refreshAt, minLifetimeSeconds: 10, command: ['/cpcred', 'credential', 'fleet/eu']}}),
  }
}

describe("the credential files of exec's temporary kubeconfig", () => {
  it('is private, named by the kubeconfig, and renewed through cpcred credential when its time comes', async () => {
    const temps = await temp()
    const asked: string[][] = []
    let renewed!: () => void
    const done = new Promise<void>((resolve) => (renewed = resolve))
    const deps = {
      temp: temps,
      renew: async (command: string[]) => {
        asked.push(command)
        setImmediate(renewed)
        return `${tokenCredential('second', Date.now() + 3_600_000)}\n`
      },
    }
    const warnings: string[] = []
    // Already due: the renewal comes as soon as renewals may (a couple of seconds).
    const written = await writeTarget(deps, target(Date.now() - 1000), (message) => warnings.push(message))
    const kubeconfig = JSON.parse(await readFile(written.kubeconfig, 'utf8')) as {
      users: {user: Record<string, string>}[]
    }
    const {user} = kubeconfig.users[0]!
    // A token file and nothing that runs: kubectl's credential plugin policy cannot refuse it.
    assert.deepEqual(Object.keys(user), ['tokenFile'])
    const file = user.tokenFile!
    assert.equal(path.dirname(file), path.dirname(written.kubeconfig))
    assert.equal((await stat(file)).mode & 0o777, 0o600)
    assert.equal(await readFile(file, 'utf8'), 'first')

    // The renewal timer does not hold the process (the command does, in a real run): this does.
    const alive = setInterval(() => undefined, 1000)
    await done.finally(() => clearInterval(alive))
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(asked, [['/cpcred', 'credential', 'fleet/eu', '--min-credential-lifetime=10s']])
    assert.equal(await readFile(file, 'utf8'), 'second')
    assert.deepEqual(warnings, [])
    await written.remove()
    await assert.rejects(stat(file), {code: 'ENOENT'})
    await assert.rejects(stat(written.kubeconfig), {code: 'ENOENT'})
    await temps.dispose()
  })

  it('is not renewed once the command has ended, nor when the credential does not expire', async () => {
    const temps = await temp()
    let asked = 0
    const deps = {temp: temps, renew: async () => (asked++, tokenCredential('x', Date.now() + 60_000))}
    const ended = await writeTarget(deps, target(Date.now()), () => undefined)
    await ended.remove()
    const fixed = await writeTarget(deps, target(), () => undefined)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await fixed.remove()
    assert.equal(asked, 0)
    await temps.dispose()
  })

  it('keeps a client certificate and its key in one file, named as both, renewed by one rename', async () => {
    const temps = await temp()
    const pem = (name: string) =>
      `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nK${name}\n-----END PRIVATE KEY-----\n`
    let renewed!: () => void
    const done = new Promise<void>((resolve) => (renewed = resolve))
    const deps = {
      temp: temps,
      renew: async () => {
        setImmediate(renewed)
        return credential(
          {
            clientCertificateData: '-----BEGIN CERTIFICATE-----\nsecond\n-----END CERTIFICATE-----\n',
            clientKeyData: '-----BEGIN PRIVATE KEY-----\nKsecond\n-----END PRIVATE KEY-----\n',
          },
          Date.now() + 3_600_000,
        )
      },
    }
    const written = await writeTarget(
      deps,
      target(Date.now() - 1000, {certificate: pem('first')}),
      () => undefined,
    )
    const {user} = (
      JSON.parse(await readFile(written.kubeconfig, 'utf8')) as {users: {user: Record<string, string>}[]}
    ).users[0]!
    assert.deepEqual(Object.keys(user).sort(), ['client-certificate', 'client-key'])
    const file = user['client-certificate']!
    assert.equal(user['client-key'], file)
    assert.equal((await stat(file)).mode & 0o777, 0o600)
    assert.equal(await readFile(file, 'utf8'), pem('first'))
    const alive = setInterval(() => undefined, 1000)
    await done.finally(() => clearInterval(alive))
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(await readFile(file, 'utf8'), pem('second'))
    await written.remove()
    await assert.rejects(stat(file), {code: 'ENOENT'})
    await temps.dispose()
  })

  it('keeps the file and warns when the renewal has no credential of the kind the kubeconfig names', async () => {
    const temps = await temp()
    let renewed!: () => void
    const done = new Promise<void>((resolve) => (renewed = resolve))
    const deps = {
      temp: temps,
      renew: async () => {
        setImmediate(renewed)
        return credential({clientCertificateData: 'C', clientKeyData: 'K'}, Date.now() + 3_600_000)
      },
    }
    const warnings: string[] = []
    const written = await writeTarget(deps, target(Date.now() - 1000), (message) => warnings.push(message))
    const file = (
      JSON.parse(await readFile(written.kubeconfig, 'utf8')) as {users: {user: {tokenFile: string}}[]}
    ).users[0]!.user.tokenFile
    const alive = setInterval(() => undefined, 1000)
    await done.finally(() => clearInterval(alive))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await written.remove()
    assert.equal(warnings.length, 1)
    assert.match(warnings[0]!, /fleet\/eu.*printed no token/)
    await assert.rejects(stat(file), {code: 'ENOENT'})
    await temps.dispose()
  })
})

describe('renewalTime', () => {
  const now = Date.parse('2026-03-01T12:00:00Z')
  it('renews when the minimum lifetime is left', () => {
    // A one-hour credential with a 5-minute minimum: 55 minutes from now.
    assert.equal(renewalTime(now + 3_600_000, 300, now), now + 3_300_000)
  })

  it('waits at least half of what is left, for credentials that live less than the minimum', () => {
    assert.equal(renewalTime(now + 120_000, 300, now), now + 60_000)
  })
})
