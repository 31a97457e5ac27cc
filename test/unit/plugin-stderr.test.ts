// A plugin that logs its credential on stderr and succeeds: the user still sees its stderr, but
// never the credential (CI logs keep stderr forever). Runs a real plugin process.
import assert from 'node:assert/strict'
import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {pluginRunner} from '../../src/adapters/process.js'
import {redactCredential, runPlugin} from '../../src/usecases/run-plugin.js'

const TOKEN = 'tok-3f9a8b7c6d5e4f3a2b1c'
const KEY =
  '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIKeyBodyLineOne0123456789abcdef\nKeyBodyLineTwo0123456789abcdefghij\n-----END EC PRIVATE KEY-----\n'
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBCertBodyLine0123456789abcdefghij\n-----END CERTIFICATE-----\n'

const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, {recursive: true, force: true}))))

async function plugin(stdout: unknown, stderr: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-plugin-stderr-'))
  dirs.push(dir)
  await writeFile(path.join(dir, 'out.json'), JSON.stringify(stdout))
  await writeFile(path.join(dir, 'err.txt'), stderr)
  const file = path.join(dir, 'plugin')
  await writeFile(file, `#!/bin/sh\ncat '${dir}/err.txt' >&2\ncat '${dir}/out.json'\n`)
  await chmod(file, 0o700)
  return file
}

describe("a successful plugin's stderr", () => {
  it('reaches the user without the token it returned', async () => {
    const command = await plugin(
      {apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: {token: TOKEN}},
      `fetching a token\ndebug: got token ${TOKEN}\nAuthorization: Bearer ${Buffer.from(TOKEN).toString('base64')}\n`,
    )
    let seen = ''
    const credential = await runPlugin(pluginRunner, {
      exec: {apiVersion: 'client.authentication.k8s.io/v1', command, args: [], interactiveMode: 'Never'},
      label: 'provider "p"',
      stdinIsTTY: false,
      onStderr: (text) => (seen += text),
    })
    assert.equal(credential.token, TOKEN, 'the credential itself is untouched')
    assert.match(seen, /^fetching a token\ndebug: got token <redacted>\nAuthorization: Bearer <redacted>\n$/)
  })

  it('reaches the user without the key or certificate data, whole or line by line', async () => {
    const command = await plugin(
      {
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        status: {clientCertificateData: CERT, clientKeyData: KEY},
      },
      `key:\n${KEY}one line: KeyBodyLineTwo0123456789abcdefghij\ncert: ${CERT}done\n`,
    )
    let seen = ''
    await runPlugin(pluginRunner, {
      exec: {apiVersion: 'client.authentication.k8s.io/v1', command, args: [], interactiveMode: 'Never'},
      label: 'provider "p"',
      stdinIsTTY: false,
      onStderr: (text) => (seen += text),
    })
    assert.doesNotMatch(seen, /KeyBodyLine|CertBodyLine/)
    assert.match(seen, /^key:\n<redacted>/)
    assert.match(seen, /done\n$/)
  })

  it('is left alone when it holds nothing of the credential', () => {
    assert.equal(redactCredential('all fine\n', {token: TOKEN}), 'all fine\n')
  })
})
