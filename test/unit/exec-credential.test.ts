import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ProfileCluster} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {EXEC_API_V1, EXEC_API_V1BETA1} from '../../src/core/access/exec-config.js'
import type {ExecApiVersion, ExecConfig, InteractiveMode} from '../../src/core/access/exec-config.js'
import {
  buildExecInfo,
  decideInteractive,
  describeCredential,
  formatRfc3339,
  parseExecCredential,
  parseRfc3339,
  renderExecCredential,
} from '../../src/core/exec-credential/protocol.js'

const LABEL = 'provider "acme" (/usr/bin/acme-plugin)'
const TOKEN = 'tok-SECRET-0123456789'
const CERT = '-----BEGIN CERTIFICATE-----\nCERT-SECRET-abc\n-----END CERTIFICATE-----\n'
const KEY = '-----BEGIN PRIVATE KEY-----\nKEY-SECRET-xyz\n-----END PRIVATE KEY-----\n'
const SECRET_MARKERS = [TOKEN, 'SECRET']

function caught(fn: () => unknown): CpcredError {
  try {
    fn()
  } catch (error) {
    assert.ok(error instanceof CpcredError, `expected a CpcredError, got ${String(error)}`)
    return error
  }
  assert.fail('expected an error')
}

function assertNoSecret(error: CpcredError): void {
  const shown = `${error.message}\n${error.hint ?? ''}`
  for (const marker of SECRET_MARKERS) assert.ok(!shown.includes(marker), `secret leaked into: ${shown}`)
}

describe('decideInteractive', () => {
  const cases: Array<[InteractiveMode | undefined, ExecApiVersion, boolean, boolean]> = [
    ['Never', EXEC_API_V1, true, false],
    ['Never', EXEC_API_V1, false, false],
    ['Never', EXEC_API_V1BETA1, true, false],
    ['IfAvailable', EXEC_API_V1, true, true],
    ['IfAvailable', EXEC_API_V1, false, false],
    ['IfAvailable', EXEC_API_V1BETA1, true, true],
    ['Always', EXEC_API_V1, true, true],
    ['Always', EXEC_API_V1BETA1, true, true],
    // v1beta1 defaults to IfAvailable, as clientcmd's SetDefaults_ExecConfig does.
    [undefined, EXEC_API_V1BETA1, true, true],
    [undefined, EXEC_API_V1BETA1, false, false],
  ]
  for (const [mode, apiVersion, tty, expected] of cases) {
    it(`${mode ?? '(unset)'} with ${apiVersion} and stdin ${tty ? 'a TTY' : 'not a TTY'} → ${expected}`, () => {
      assert.equal(decideInteractive(mode, apiVersion, tty, LABEL), expected)
    })
  }

  for (const apiVersion of [EXEC_API_V1, EXEC_API_V1BETA1] as const) {
    it(`fails fast for Always without a TTY (${apiVersion}), naming the plugin`, () => {
      const error = caught(() => decideInteractive('Always', apiVersion, false, LABEL))
      assert.equal(error.exitCode, ExitCode.PluginFailed)
      assert.ok(error.message.includes(LABEL))
      assert.match(error.message, /needs an interactive terminal/)
      assert.match(error.hint ?? '', /IfAvailable or Never/)
    })
  }

  it('requires interactiveMode for v1, with or without a TTY', () => {
    for (const tty of [true, false]) {
      const error = caught(() => decideInteractive(undefined, EXEC_API_V1, tty, LABEL))
      assert.ok(error.message.includes(LABEL))
      assert.match(
        error.message,
        /no execConfig\.interactiveMode, which client\.authentication\.k8s\.io\/v1 requires/,
      )
      assert.match(error.hint ?? '', /Never, IfAvailable, Always/)
    }
  })

  it('rejects a mode client-go does not know', () => {
    const error = caught(() => decideInteractive('Sometimes' as InteractiveMode, EXEC_API_V1, true, LABEL))
    assert.match(error.message, /invalid execConfig\.interactiveMode "Sometimes"/)
  })

  it('rejects an apiVersion client-go does not accept', () => {
    const error = caught(() =>
      decideInteractive('Never', 'client.authentication.k8s.io/v1alpha1' as ExecApiVersion, true, LABEL),
    )
    assert.match(
      error.message,
      /unsupported execConfig\.apiVersion "client\.authentication\.k8s\.io\/v1alpha1"/,
    )
  })
})

describe('buildExecInfo', () => {
  const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n'
  const CA_B64 = Buffer.from(CA_PEM).toString('base64')
  const fullCluster: ProfileCluster = {
    server: 'https://target.example:6443',
    'certificate-authority': '/hub/only/path/ca.crt',
    'certificate-authority-data': CA_B64,
    'tls-server-name': 'api.target.internal',
    'insecure-skip-tls-verify': true,
    'proxy-url': 'http://proxy.example:3128',
    'disable-compression': true,
    extensions: [{name: 'client.authentication.k8s.io/exec', extension: {clusterName: 'ignored-here'}}],
  }
  const exec = (apiVersion: ExecApiVersion, provideClusterInfo?: boolean): ExecConfig => ({
    apiVersion,
    command: '/usr/bin/acme-plugin',
    interactiveMode: 'Never',
    provideClusterInfo,
  })

  for (const apiVersion of [EXEC_API_V1, EXEC_API_V1BETA1] as const) {
    it(`leaves the cluster out unless provideClusterInfo is true (${apiVersion})`, () => {
      for (const provide of [undefined, false]) {
        assert.equal(
          buildExecInfo(exec(apiVersion, provide), fullCluster, {clusterName: 'x'}, false),
          `{"kind":"ExecCredential","apiVersion":"${apiVersion}","spec":{"interactive":false}}`,
        )
      }
    })

    it(`passes every cluster field in client-go's names and order (${apiVersion})`, () => {
      const info = buildExecInfo(exec(apiVersion, true), fullCluster, {clusterName: 'c1'}, true)
      assert.equal(
        info,
        `{"kind":"ExecCredential","apiVersion":"${apiVersion}","spec":{"cluster":{` +
          `"server":"https://target.example:6443","tls-server-name":"api.target.internal",` +
          `"insecure-skip-tls-verify":true,"certificate-authority-data":"${CA_B64}",` +
          `"proxy-url":"http://proxy.example:3128","disable-compression":true,` +
          `"config":{"clusterName":"c1"}},"interactive":true}}`,
      )
    })
  }

  it('omits empty strings and false flags, and sends config null without the exec extension', () => {
    const info = buildExecInfo(
      exec(EXEC_API_V1, true),
      {
        server: 'https://t',
        'tls-server-name': '',
        'insecure-skip-tls-verify': false,
        'disable-compression': false,
      },
      undefined,
      false,
    )
    assert.equal(
      info,
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://t","config":null},"interactive":false}}',
    )
  })

  it('passes the exec extension config verbatim, whatever its shape', () => {
    const config = {
      audience: 'https://t',
      nested: {list: [3, 1, 2], flag: false, empty: {}, nothing: null},
      'odd key/with.dots': 'v',
    }
    const info = JSON.parse(buildExecInfo(exec(EXEC_API_V1, true), {server: 'https://t'}, config, false))
    assert.deepEqual(info.spec.cluster.config, config)
    const scalar = JSON.parse(
      buildExecInfo(exec(EXEC_API_V1, true), {server: 'https://t'}, 'just-a-string', false),
    )
    assert.equal(scalar.spec.cluster.config, 'just-a-string')
  })

  it('re-encodes CA data as client-go does (bytes → base64), dropping YAML line breaks', () => {
    const wrapped = CA_B64.replace(/(.{16})/g, '$1\n')
    assert.notEqual(wrapped, CA_B64)
    const info = JSON.parse(
      buildExecInfo(
        exec(EXEC_API_V1, true),
        {server: 'https://t', 'certificate-authority-data': wrapped},
        undefined,
        false,
      ),
    )
    assert.equal(info.spec.cluster['certificate-authority-data'], CA_B64)
    assert.equal(Buffer.from(info.spec.cluster['certificate-authority-data'], 'base64').toString(), CA_PEM)
  })

  it('rejects CA data that is not base64', () => {
    const error = caught(() =>
      buildExecInfo(
        exec(EXEC_API_V1, true),
        {server: 'https://t', 'certificate-authority-data': '-----BEGIN'},
        undefined,
        false,
      ),
    )
    assert.match(error.message, /certificate-authority-data of the cluster https:\/\/t is not valid base64/)
  })

  it('refuses provideClusterInfo without a cluster to provide', () => {
    const error = caught(() => buildExecInfo(exec(EXEC_API_V1, true), undefined, undefined, false))
    assert.match(error.message, /provideClusterInfo is set for \/usr\/bin\/acme-plugin/)
  })

  it('never passes the hub-side certificate-authority file path', () => {
    const info = buildExecInfo(exec(EXEC_API_V1, true), fullCluster, undefined, false)
    assert.ok(!info.includes('/hub/only/path'))
    assert.ok(!info.includes('"certificate-authority"'))
  })
})

describe('parseExecCredential', () => {
  const envelope = (status: unknown, apiVersion: string = EXEC_API_V1): string =>
    JSON.stringify({apiVersion, kind: 'ExecCredential', status})

  it('reads a token with its expiry, keeping the timestamp as given', () => {
    const credential = parseExecCredential(
      envelope({token: TOKEN, expirationTimestamp: '2030-01-02T03:04:05+02:00'}),
      EXEC_API_V1,
      LABEL,
    )
    assert.deepEqual(credential, {
      token: TOKEN,
      expirationTimestamp: '2030-01-02T03:04:05+02:00',
      expiresAt: new Date('2030-01-02T01:04:05Z'),
    })
  })

  it('reads a client certificate and key (v1beta1), without expiry', () => {
    const credential = parseExecCredential(
      `\n  ${envelope({clientCertificateData: CERT, clientKeyData: KEY}, EXEC_API_V1BETA1)}\n\n`,
      EXEC_API_V1BETA1,
      LABEL,
    )
    assert.deepEqual(credential, {clientCertificateData: CERT, clientKeyData: KEY})
  })

  it('accepts a token together with a certificate, as client-go does', () => {
    const credential = parseExecCredential(
      envelope({token: TOKEN, clientCertificateData: CERT, clientKeyData: KEY}),
      EXEC_API_V1,
      LABEL,
    )
    assert.deepEqual(credential, {token: TOKEN, clientCertificateData: CERT, clientKeyData: KEY})
  })

  it('treats JSON nulls as absent fields, like Go', () => {
    const credential = parseExecCredential(
      envelope({token: TOKEN, clientCertificateData: null, clientKeyData: null, expirationTimestamp: null}),
      EXEC_API_V1,
      LABEL,
    )
    assert.deepEqual(credential, {token: TOKEN})
  })

  it('ignores spec and unknown fields, as client-go does', () => {
    const stdout = JSON.stringify({
      kind: 'ExecCredential',
      apiVersion: EXEC_API_V1,
      spec: {interactive: false},
      status: {token: TOKEN, somethingNew: 1},
    })
    assert.deepEqual(parseExecCredential(stdout, EXEC_API_V1, LABEL), {token: TOKEN})
  })

  const valid = envelope({token: TOKEN})
  const invalid: Array<[string, string, RegExp]> = [
    ['empty stdout', '', /nothing on stdout/],
    ['only whitespace', ' \n\t\n', /nothing on stdout/],
    ['plain text', `${TOKEN} is your token`, /stdout is not JSON \(\d+ characters\)/],
    [
      'a log line before the JSON',
      `Opening browser {maybe}...\n${valid}`,
      /other output before the ExecCredential JSON/,
    ],
    ['text after the JSON', `${valid}\ndone, token ${TOKEN}`, /other output after the ExecCredential JSON/],
    ['two JSON documents', `${valid}\n${valid}`, /other output after the ExecCredential JSON/],
    ['truncated JSON', valid.slice(0, -3), /stdout is not valid JSON/],
    ['malformed JSON', `{"token" "${TOKEN}"}`, /stdout is not valid JSON \(at character \d+\)/],
    ['a JSON array', `[${valid}]`, /JSON but not an object/],
    ['JSON null', 'null', /JSON but not an object/],
    ['a JSON string', JSON.stringify(TOKEN), /JSON but not an object/],
    [
      'no kind',
      JSON.stringify({apiVersion: EXEC_API_V1, status: {token: TOKEN}}),
      /has no kind, expected "ExecCredential"/,
    ],
    [
      'another kind',
      JSON.stringify({kind: 'Secret', apiVersion: EXEC_API_V1, status: {token: TOKEN}}),
      /kind is "Secret", expected "ExecCredential"/,
    ],
    [
      'the token as kind',
      JSON.stringify({kind: TOKEN, apiVersion: EXEC_API_V1, status: {token: TOKEN}}),
      /kind is not "ExecCredential"$/,
    ],
    [
      'a numeric kind',
      JSON.stringify({kind: 7, apiVersion: EXEC_API_V1, status: {token: TOKEN}}),
      /kind is a number/,
    ],
    [
      'no apiVersion',
      JSON.stringify({kind: 'ExecCredential', status: {token: TOKEN}}),
      /has no apiVersion, expected "client\.authentication\.k8s\.io\/v1"/,
    ],
    [
      'another apiVersion',
      envelope({token: TOKEN}, EXEC_API_V1BETA1),
      /apiVersion is "client\.authentication\.k8s\.io\/v1beta1", but the plugin was run with "client\.authentication\.k8s\.io\/v1"/,
    ],
    [
      'a secret as apiVersion',
      envelope({token: TOKEN}, TOKEN),
      /apiVersion is not "client\.authentication\.k8s\.io\/v1", the version the plugin was run with$/,
    ],
    ['no status', JSON.stringify({kind: 'ExecCredential', apiVersion: EXEC_API_V1}), /has no status/],
    ['null status', envelope(null), /has no status/],
    ['an array status', envelope([TOKEN]), /status is not an object/],
    ['a string status', envelope(TOKEN), /status is not an object/],
    ['a numeric token', envelope({token: 12345}), /status\.token is not a string/],
    [
      'an object certificate',
      envelope({clientCertificateData: {pem: CERT}, clientKeyData: KEY}),
      /status\.clientCertificateData is not a string/,
    ],
    ['an empty status', envelope({}), /neither a token nor a client certificate and key/],
    ['an empty token', envelope({token: ''}), /neither a token nor a client certificate and key/],
    ['only an expiry', envelope({expirationTimestamp: '2030-01-01T00:00:00Z'}), /neither a token nor/],
    [
      'a certificate without key',
      envelope({clientCertificateData: CERT}),
      /clientCertificateData but no clientKeyData/,
    ],
    [
      'a token and a certificate without key',
      envelope({token: TOKEN, clientCertificateData: CERT}),
      /clientCertificateData but no clientKeyData/,
    ],
    [
      'a key without certificate',
      envelope({clientKeyData: KEY}),
      /clientKeyData but no clientCertificateData/,
    ],
    [
      'an empty expiry',
      envelope({token: TOKEN, expirationTimestamp: ''}),
      /expirationTimestamp "" is not an RFC 3339 time/,
    ],
    [
      'a date without time',
      envelope({token: TOKEN, expirationTimestamp: '2030-01-01'}),
      /expirationTimestamp "2030-01-01" is not an RFC 3339 time/,
    ],
    [
      'no zone',
      envelope({token: TOKEN, expirationTimestamp: '2030-01-01T00:00:00'}),
      /is not an RFC 3339 time/,
    ],
    [
      'lower-case t and z',
      envelope({token: TOKEN, expirationTimestamp: '2030-01-01t00:00:00z'}),
      /is not an RFC 3339 time/,
    ],
    [
      'month 13',
      envelope({token: TOKEN, expirationTimestamp: '2030-13-01T00:00:00Z'}),
      /is not an RFC 3339 time/,
    ],
    [
      '30 February',
      envelope({token: TOKEN, expirationTimestamp: '2032-02-30T00:00:00Z'}),
      /is not an RFC 3339 time/,
    ],
    [
      'hour 24',
      envelope({token: TOKEN, expirationTimestamp: '2030-01-01T24:00:00Z'}),
      /is not an RFC 3339 time/,
    ],
    [
      'second 60',
      envelope({token: TOKEN, expirationTimestamp: '2030-01-01T23:59:60Z'}),
      /is not an RFC 3339 time/,
    ],
    [
      'a Unix time',
      envelope({token: TOKEN, expirationTimestamp: 1893456000}),
      /expirationTimestamp is not a string/,
    ],
    [
      'the token as expiry',
      envelope({token: TOKEN, expirationTimestamp: TOKEN}),
      /gave invalid output: status\.expirationTimestamp is not an RFC 3339 time$/,
    ],
  ]
  for (const [name, stdout, expected] of invalid) {
    it(`rejects ${name}, naming the plugin and never a secret`, () => {
      const error = caught(() => parseExecCredential(stdout, EXEC_API_V1, LABEL))
      assert.equal(error.exitCode, ExitCode.PluginFailed)
      assert.ok(error.message.startsWith(`${LABEL} gave invalid output: `), error.message)
      assert.match(error.message, expected)
      assertNoSecret(error)
      assert.equal(error.cause, undefined)
    })
  }

  it('tells the user where other output belongs', () => {
    const error = caught(() => parseExecCredential(`log\n${valid}`, EXEC_API_V1, LABEL))
    assert.match(error.hint ?? '', /logs and prompts belong on stderr/)
  })
})

describe('parseRfc3339', () => {
  const cases: Array<[string, string | undefined]> = [
    ['2030-01-02T03:04:05Z', '2030-01-02T03:04:05.000Z'],
    ['2030-01-02T03:04:05.123456789Z', '2030-01-02T03:04:05.123Z'],
    ['2030-01-02T03:04:05.5Z', '2030-01-02T03:04:05.500Z'],
    ['2030-01-02T03:04:05-07:30', '2030-01-02T10:34:05.000Z'],
    ['2030-01-01T00:30:00+01:00', '2029-12-31T23:30:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000Z'],
    ['2029-02-29T00:00:00Z', undefined],
    ['1900-02-29T00:00:00Z', undefined],
    ['2030-04-31T00:00:00Z', undefined],
    ['2030-01-01T00:00:00+24:00', undefined],
    ['2030-01-01T00:00:00.Z', undefined],
    ['2030-01-01 00:00:00Z', undefined],
    [' 2030-01-01T00:00:00Z', undefined],
  ]
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${expected ?? 'invalid'}`, () => {
      assert.equal(parseRfc3339(text)?.toISOString(), expected)
    })
  }
})

describe('renderExecCredential', () => {
  it("prints kind, apiVersion and status in client-go's shape, expiry in whole UTC seconds", () => {
    const output = renderExecCredential(
      {
        token: TOKEN,
        expirationTimestamp: '2030-01-02T03:04:05.999+01:00',
        expiresAt: new Date('2030-01-02T02:04:05.999Z'),
      },
      EXEC_API_V1,
    )
    assert.equal(
      output,
      `{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"expirationTimestamp":"2030-01-02T02:04:05Z","token":"${TOKEN}"}}`,
    )
  })

  it('prints certificate and key in the order client-go writes them, without expiry when there is none', () => {
    const output = JSON.parse(
      renderExecCredential({clientKeyData: KEY, clientCertificateData: CERT, token: TOKEN}, EXEC_API_V1BETA1),
    )
    assert.equal(output.apiVersion, EXEC_API_V1BETA1)
    assert.deepEqual(Object.keys(output.status), ['token', 'clientCertificateData', 'clientKeyData'])
    assert.equal(output.status.expirationTimestamp, undefined)
  })

  it('uses expirationTimestamp when the parsed date is missing', () => {
    const output = JSON.parse(
      renderExecCredential({token: TOKEN, expirationTimestamp: '2030-01-01T00:00:00Z'}, EXEC_API_V1),
    )
    assert.equal(output.status.expirationTimestamp, '2030-01-01T00:00:00Z')
  })

  it('is read back by parseExecCredential unchanged', () => {
    for (const apiVersion of [EXEC_API_V1, EXEC_API_V1BETA1] as const) {
      const credential = {
        token: TOKEN,
        clientCertificateData: CERT,
        clientKeyData: KEY,
        expirationTimestamp: '2030-05-06T07:08:09Z',
        expiresAt: new Date('2030-05-06T07:08:09Z'),
      }
      assert.deepEqual(
        parseExecCredential(renderExecCredential(credential, apiVersion), apiVersion, LABEL),
        credential,
      )
    }
  })
})

describe('formatRfc3339', () => {
  it('truncates toward the past, never later than the real instant', () => {
    assert.equal(formatRfc3339(new Date('2030-01-01T00:00:00.999Z')), '2030-01-01T00:00:00Z')
  })
})

describe('describeCredential', () => {
  const cases: Array<[Parameters<typeof describeCredential>[0], string]> = [
    [
      {token: TOKEN, expiresAt: new Date('2030-01-01T00:00:00.500Z')},
      'bearer token, expires 2030-01-01T00:00:00Z',
    ],
    [{clientCertificateData: CERT, clientKeyData: KEY}, 'client certificate, no expiry'],
    [
      {
        token: TOKEN,
        clientCertificateData: CERT,
        clientKeyData: KEY,
        expirationTimestamp: '2030-01-01T01:00:00+01:00',
      },
      'bearer token and client certificate, expires 2030-01-01T00:00:00Z',
    ],
    [{}, 'empty credential, no expiry'],
  ]
  for (const [credential, expected] of cases) {
    it(`says "${expected}" and nothing secret`, () => {
      const described = describeCredential(credential)
      assert.equal(described, expected)
      assert.ok(!described.includes('SECRET'))
    })
  }
})
