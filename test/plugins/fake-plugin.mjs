#!/usr/bin/env node
// A test exec credential plugin. It records what it was given (argv, chosen env, KUBERNETES_EXEC_INFO)
// as one JSON line in $PLUGIN_RECORD, then behaves as $PLUGIN_MODE says. The token it returns is read
// from the file $PLUGIN_TOKEN_FILE, so no secret ever appears on a command line.
import {appendFileSync, readFileSync} from 'node:fs'

const mode = process.env.PLUGIN_MODE ?? 'ok'
const info = process.env.KUBERNETES_EXEC_INFO
if (process.env.PLUGIN_RECORD) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => name.startsWith('FAKE_') || name === 'KUBECONFIG' || name.startsWith('CPCRED_'),
    ),
  )
  appendFileSync(
    process.env.PLUGIN_RECORD,
    JSON.stringify({
      argv: process.argv.slice(2),
      env,
      info: info ? JSON.parse(info) : null,
      pid: process.pid,
    }) + '\n',
  )
}
const apiVersion = info ? JSON.parse(info).apiVersion : 'client.authentication.k8s.io/v1'
const expirationTimestamp = new Date(Date.now() + Number(process.env.PLUGIN_TTL_SECONDS ?? 3600) * 1000)
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
const token = () => readFileSync(process.env.PLUGIN_TOKEN_FILE, 'utf8').trim()

switch (mode) {
  case 'ok':
    if (process.env.PLUGIN_DELAY_MS)
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.PLUGIN_DELAY_MS)))
    process.stderr.write('fake-plugin: issued a token\n')
    process.stdout.write(
      JSON.stringify({apiVersion, kind: 'ExecCredential', status: {token: token(), expirationTimestamp}}),
    )
    break
  case 'leaky':
    // A plugin that logs what it got, the token included, and succeeds.
    process.stderr.write(`fake-plugin: got token ${token()} from the identity provider\n`)
    process.stdout.write(
      JSON.stringify({apiVersion, kind: 'ExecCredential', status: {token: token(), expirationTimestamp}}),
    )
    break
  case 'hang':
    setInterval(() => {}, 1000)
    break
  case 'exit1':
    process.stderr.write('fake-plugin: the identity provider said no\n')
    process.exit(1)
    break
  case 'junk':
    process.stdout.write('Welcome! Your token is below.\n')
    break
  case 'cert':
    // A client certificate and its key, from the files $PLUGIN_CERT_FILE and $PLUGIN_KEY_FILE.
    process.stdout.write(
      JSON.stringify({
        apiVersion,
        kind: 'ExecCredential',
        status: {
          clientCertificateData: readFileSync(process.env.PLUGIN_CERT_FILE, 'utf8'),
          clientKeyData: readFileSync(process.env.PLUGIN_KEY_FILE, 'utf8'),
          expirationTimestamp,
        },
      }),
    )
    break
  case 'cert-no-key':
    process.stdout.write(
      JSON.stringify({
        apiVersion,
        kind: 'ExecCredential',
        status: {clientCertificateData: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'},
      }),
    )
    break
  case 'expired':
    process.stdout.write(
      JSON.stringify({
        apiVersion,
        kind: 'ExecCredential',
        status: {token: token(), expirationTimestamp: '2020-01-01T00:00:00Z'},
      }),
    )
    break
  case 'wrong-kind':
    process.stdout.write(JSON.stringify({apiVersion, kind: 'Secret', status: {token: token()}}))
    break
  case 'no-status':
    process.stdout.write(JSON.stringify({apiVersion, kind: 'ExecCredential'}))
    break
  case 'wrong-api':
    process.stdout.write(
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1alpha1',
        kind: 'ExecCredential',
        status: {token: token()},
      }),
    )
    break
  case 'flood':
    process.stdout.write('x'.repeat(3 * 1024 * 1024))
    break
  case 'signal':
    process.kill(process.pid, 'SIGKILL')
    break
  case 'hostile':
    // What a compromised or careless identity provider could make a plugin print.
    process.stderr.write('denied: \x1b]0;owned\x07\x1b[31mred\u202Eevil\n')
    process.exit(1)
    break
  default:
    process.stderr.write(`fake-plugin: unknown PLUGIN_MODE ${mode}\n`)
    process.exit(2)
}
