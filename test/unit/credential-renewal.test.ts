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

const credential = (token: string, expiresAt: number) =>
  JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: {token, expirationTimestamp: new Date(expiresAt).toISOString()},
  })

function target(refreshAt?: number): PreparedTarget {
  return {
    connection: {cluster: {server: 'https://eu.example:6443'}},
    credential: credential('first', Date.now() + 20_000),
    env: {CPCRED_PROFILE: 'eu', CPCRED_NAMESPACE: 'fleet'},
    ...(refreshAt === undefined
      ? {}
      : {refresh: {at: refreshAt, minLifetimeSeconds: 10, command: ['/cpcred', 'credential', 'fleet/eu']}}),
  }
}

describe("the credential file of exec's temporary kubeconfig", () => {
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
        return `${credential('second', Date.now() + 3_600_000)}\n`
      },
    }
    const warnings: string[] = []
    // Already due: the renewal comes as soon as renewals may (a couple of seconds).
    const written = await writeTarget(deps, target(Date.now() - 1000), (message) => warnings.push(message))
    const kubeconfig = JSON.parse(await readFile(written.kubeconfig, 'utf8')) as {
      users: {user: {exec: {command: string; args: string[]}}}[]
    }
    const {command, args} = kubeconfig.users[0]!.user.exec
    assert.match(command, /\/cat$/)
    assert.equal(path.dirname(args[0]!), path.dirname(written.kubeconfig))
    assert.equal((await stat(args[0]!)).mode & 0o777, 0o600)
    assert.match(await readFile(args[0]!, 'utf8'), /"token":"first"/)

    // The renewal timer does not hold the process (the command does, in a real run): this does.
    const alive = setInterval(() => undefined, 1000)
    await done.finally(() => clearInterval(alive))
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(asked, [['/cpcred', 'credential', 'fleet/eu', '--min-credential-lifetime=10s']])
    assert.match(await readFile(args[0]!, 'utf8'), /"token":"second"/)
    assert.deepEqual(warnings, [])
    await written.remove()
    await assert.rejects(stat(args[0]!), {code: 'ENOENT'})
    await assert.rejects(stat(written.kubeconfig), {code: 'ENOENT'})
    await temps.dispose()
  })

  it('is not renewed once the command has ended, nor when the credential does not expire', async () => {
    const temps = await temp()
    let asked = 0
    const deps = {temp: temps, renew: async () => (asked++, credential('x', Date.now() + 60_000))}
    const ended = await writeTarget(deps, target(Date.now()), () => undefined)
    await ended.remove()
    const fixed = await writeTarget(deps, target(), () => undefined)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await fixed.remove()
    assert.equal(asked, 0)
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
