// The one cluster-connection model: what an entry may be, and each mapping derived from it. A new
// field added to the model must show up in every mapping; these tables say which.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  checkProfileCluster,
  clusterConnection,
  connectionWarnings,
  entryConnectionWarnings,
  holdsPemCertificate,
  isHttps,
  toClientEndpoint,
  toExecInfoCluster,
  toKubeconfigCluster,
  type ClusterConnection,
} from '../../src/core/access/connection.js'
import {CpcredError} from '../../src/core/errors.js'

const PEM_DATA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString(
  'base64',
)

const FULL: ClusterConnection = {
  server: 'https://c.example:6443',
  'certificate-authority-data': PEM_DATA,
  'tls-server-name': 'c.internal',
  'proxy-url': 'socks5://proxy:1080',
  'disable-compression': true,
}

describe('checkProfileCluster', () => {
  const refused: Array<[string, unknown, string]> = [
    ['no cluster', undefined, 'it has no cluster'],
    ['no server', {}, 'it has no cluster.server'],
    ['a server that is not a string', {server: 1}, 'its cluster.server is not a string'],
    ['a password in the server', {server: 'https://u:p@h'}, 'user information in the server URL'],
    ['an empty user in the server', {server: 'https://@h'}, 'user information in the server URL'],
    ['a control character', {server: 'https://h\n'}, 'control characters or whitespace in the server URL'],
    ['a relative server', {server: 'h:6443'}, 'the server URL is not http or https'],
    [
      'a non-string CA',
      {server: 'https://h', 'certificate-authority-data': 1},
      'its cluster.certificate-authority-data is not a string',
    ],
    [
      'a non-boolean flag',
      {server: 'https://h', 'insecure-skip-tls-verify': 'yes'},
      'its cluster.insecure-skip-tls-verify is not a boolean',
    ],
    [
      'an ftp proxy',
      {server: 'https://h', 'proxy-url': 'ftp://p'},
      'the proxy URL is not http, https or socks5',
    ],
  ]
  for (const [label, cluster, reason] of refused) {
    it(`refuses ${label}`, () => assert.equal(checkProfileCluster(cluster), reason))
  }

  it('takes a plain http server and every field of the model', () => {
    assert.equal(checkProfileCluster({server: 'http://h'}), undefined)
    assert.equal(checkProfileCluster({...FULL, 'insecure-skip-tls-verify': false}), undefined)
  })
})

describe('isHttps and holdsPemCertificate', () => {
  it('tells https from the rest, in any case', () => {
    assert.equal(isHttps('HTTPS://h'), true)
    assert.equal(isHttps('http://h'), false)
  })

  it('wants base64 of a PEM certificate, whitespace allowed', () => {
    assert.equal(holdsPemCertificate(PEM_DATA.replace(/(.{8})/g, '$1\n')), true)
    assert.equal(holdsPemCertificate(Buffer.from('not pem').toString('base64')), false)
    assert.equal(holdsPemCertificate('%%%%'), false)
  })
})

describe('clusterConnection', () => {
  it('keeps the CA and drops insecure-skip-tls-verify when both are set, as kubectl refuses both', () => {
    const connection = clusterConnection({
      server: 'https://h',
      'certificate-authority-data': PEM_DATA,
      'insecure-skip-tls-verify': true,
    })
    assert.deepEqual(connection, {server: 'https://h', 'certificate-authority-data': PEM_DATA})
  })

  it('leaves out empty values and a certificate-authority file', () => {
    const connection = clusterConnection({
      server: 'https://h',
      'tls-server-name': '',
      'certificate-authority': '/etc/ca.pem',
      'disable-compression': false,
    })
    assert.deepEqual(connection, {server: 'https://h'})
  })
})

describe('connection warnings', () => {
  it('names insecure TLS, plain http and a local file, for a resolution', () => {
    const warnings = connectionWarnings('P', {
      server: 'http://h',
      'insecure-skip-tls-verify': true,
      'certificate-authority': '/ca',
    })
    assert.equal(warnings.length, 3)
    assert.match(warnings[0]!, /^P sets insecure-skip-tls-verify: the server's certificate is not checked/)
    assert.match(warnings[1]!, /^P has server http:\/\/h, which is not https/)
    assert.match(warnings[2]!, /^P names a certificate-authority file/)
  })

  it('says when insecure TLS comes with a CA, which kubectl refuses', () => {
    assert.match(
      connectionWarnings('P', {...FULL, 'insecure-skip-tls-verify': true})[0]!,
      /sets both certificate-authority-data and insecure-skip-tls-verify/,
    )
    assert.deepEqual(entryConnectionWarnings(FULL.server, {...FULL, 'insecure-skip-tls-verify': true}), [
      'insecure-skip-tls-verify is set together with certificate-authority-data, which kubectl refuses',
    ])
  })

  it('gives no warning for a verified https connection', () => {
    assert.deepEqual(connectionWarnings('P', FULL), [])
    assert.deepEqual(entryConnectionWarnings(FULL.server, FULL), [])
  })
})

describe('mappings', () => {
  it('a kubeconfig cluster entry: every field, keys in kubectl order, extensions in their place', () => {
    const cluster = toKubeconfigCluster({...FULL, 'insecure-skip-tls-verify': true}, [
      {name: 'e', extension: 1},
    ])
    assert.deepEqual(Object.keys(cluster), [
      'certificate-authority-data',
      'disable-compression',
      'extensions',
      'insecure-skip-tls-verify',
      'proxy-url',
      'server',
      'tls-server-name',
    ])
    assert.deepEqual(Object.keys(toKubeconfigCluster({server: 'https://h'})), ['server'])
  })

  it('the exec info cluster: every field, the CA re-encoded and the extension as config', () => {
    const info = toExecInfoCluster(
      {...FULL, 'certificate-authority-data': `${PEM_DATA.slice(0, 8)}\n${PEM_DATA.slice(8)}`},
      undefined,
    )
    assert.deepEqual(info, {...FULL, config: null})
    assert.deepEqual(toExecInfoCluster({server: 'https://h'}, {a: 1}), {server: 'https://h', config: {a: 1}})
  })

  it('the exec info cluster refuses CA data that is not base64', () => {
    assert.throws(
      () => toExecInfoCluster({server: 'https://h', 'certificate-authority-data': '%%'}, undefined),
      CpcredError,
    )
  })

  it('a client endpoint: the CA as PEM, or the PEM given', () => {
    assert.deepEqual(toClientEndpoint(FULL), {
      server: FULL.server,
      caPem: Buffer.from(PEM_DATA, 'base64').toString('utf8'),
      insecureSkipTLSVerify: false,
      tlsServerName: 'c.internal',
      proxyUrl: 'socks5://proxy:1080',
      disableCompression: true,
    })
    assert.equal(toClientEndpoint({server: 'https://h'}, 'PEM').caPem, 'PEM')
  })
})
