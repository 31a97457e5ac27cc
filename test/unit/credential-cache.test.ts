import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  CACHE_ENTRY_VERSION,
  DEFAULT_EXPIRY_MARGIN_SECONDS,
  cacheKey,
  cacheKeyInput,
  canonicalJson,
  createEntry,
  entryMargin,
  EXEC_MIN_LIFETIME_CAP_SECONDS,
  expiryFor,
  isUsable,
  lifetimeRule,
  parseEntry,
  serializeEntry,
  type CacheEntry,
  type CacheKeyInput,
} from '../../src/core/exec-credential/cache.js'
import {EXEC_API_V1, EXEC_API_V1BETA1, type ExecConfig} from '../../src/core/access/exec-config.js'
import type {Credential} from '../../src/core/exec-credential/protocol.js'

const base: CacheKeyInput = {
  hub: 'https://hub.example:6443|alice|hub-admin',
  provider: 'token-request',
  apiVersion: EXEC_API_V1,
  command: '/usr/local/bin/cpcred',
  args: ['plugin', 'token-request', '--service-account', 'ns/sa'],
  env: [
    {name: 'A', value: '1'},
    {name: 'B', value: '2'},
  ],
  provideClusterInfo: true,
  server: 'https://target.example:6443',
  certificateAuthorityData: 'Q0EtREFUQQ==',
  tlsServerName: 'api.target.internal',
  proxyUrl: 'http://proxy.example:3128',
  insecureSkipTlsVerify: false,
  execConfig: {clusterName: 'c1', audience: 'https://target.example:6443', nested: {list: [1, 2]}},
}

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps arrays in order', () => {
    assert.equal(
      canonicalJson({b: 1, a: {d: [3, {z: 1, y: 2}], c: null}}),
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    )
  })

  it('drops undefined members like JSON.stringify, and writes undefined array items as null', () => {
    assert.equal(canonicalJson({a: undefined, b: [undefined, 1]}), '{"b":[null,1]}')
  })

  it('escapes keys and strings as JSON', () => {
    assert.equal(canonicalJson({'a"b': 'x\ny'}), '{"a\\"b":"x\\ny"}')
  })
})

describe('cacheKey', () => {
  it('is a hex sha256', () => {
    assert.match(cacheKey(base), /^[0-9a-f]{64}$/)
  })

  it('is the same for the same input, however its objects were built', () => {
    const reordered: CacheKeyInput = {
      execConfig: {nested: {list: [1, 2]}, audience: 'https://target.example:6443', clusterName: 'c1'},
      insecureSkipTlsVerify: false,
      proxyUrl: 'http://proxy.example:3128',
      tlsServerName: 'api.target.internal',
      certificateAuthorityData: 'Q0EtREFUQQ==',
      server: 'https://target.example:6443',
      provideClusterInfo: true,
      env: [
        {value: '1', name: 'A'},
        {value: '2', name: 'B'},
      ],
      args: ['plugin', 'token-request', '--service-account', 'ns/sa'],
      command: '/usr/local/bin/cpcred',
      apiVersion: EXEC_API_V1,
      provider: 'token-request',
      hub: 'https://hub.example:6443|alice|hub-admin',
    }
    assert.equal(cacheKey(reordered), cacheKey(base))
    assert.equal(cacheKey(structuredClone(base)), cacheKey(base))
  })

  // Every identity input, each changed in every way that must give another credential.
  const mutations: Array<[keyof CacheKeyInput, string, Partial<CacheKeyInput>]> = [
    ['hub', 'another hub server', {hub: 'https://other-hub:6443|alice|hub-admin'}],
    ['hub', 'another hub user', {hub: 'https://hub.example:6443|bob|hub-admin'}],
    ['provider', 'another provider name', {provider: 'secretreader'}],
    ['apiVersion', 'another apiVersion', {apiVersion: EXEC_API_V1BETA1}],
    ['command', 'another command', {command: '/usr/bin/other-plugin'}],
    ['args', 'one more argument', {args: [...base.args, '--verbose']}],
    ['args', 'a changed argument', {args: ['plugin', 'token-request', '--service-account', 'ns/other']}],
    [
      'args',
      'the same arguments in another order',
      {args: ['token-request', 'plugin', '--service-account', 'ns/sa']},
    ],
    ['args', 'arguments joined differently', {args: ['plugin token-request', '--service-account', 'ns/sa']}],
    ['args', 'no arguments', {args: []}],
    [
      'env',
      'a changed value',
      {
        env: [
          {name: 'A', value: '1'},
          {name: 'B', value: '3'},
        ],
      },
    ],
    [
      'env',
      'a changed name',
      {
        env: [
          {name: 'A', value: '1'},
          {name: 'C', value: '2'},
        ],
      },
    ],
    ['env', 'one more variable', {env: [...base.env, {name: 'C', value: '3'}]}],
    [
      'env',
      'the variables in another order',
      {
        env: [
          {name: 'B', value: '2'},
          {name: 'A', value: '1'},
        ],
      },
    ],
    [
      'env',
      'name and value swapped',
      {
        env: [
          {name: '1', value: 'A'},
          {name: 'B', value: '2'},
        ],
      },
    ],
    ['provideClusterInfo', 'no cluster info for the plugin', {provideClusterInfo: false}],
    ['server', 'another target server', {server: 'https://other-target:6443'}],
    ['certificateAuthorityData', 'another CA', {certificateAuthorityData: 'T1RIRVI='}],
    ['certificateAuthorityData', 'no CA', {certificateAuthorityData: undefined}],
    ['tlsServerName', 'another TLS server name', {tlsServerName: 'other.internal'}],
    ['tlsServerName', 'no TLS server name', {tlsServerName: undefined}],
    ['proxyUrl', 'another proxy', {proxyUrl: 'http://other-proxy:3128'}],
    ['proxyUrl', 'no proxy', {proxyUrl: undefined}],
    ['insecureSkipTlsVerify', 'TLS verification off', {insecureSkipTlsVerify: true}],
    [
      'execConfig',
      'another cluster name in the exec config',
      {execConfig: {...(base.execConfig as object), clusterName: 'c2'}},
    ],
    [
      'execConfig',
      'a nested change in the exec config',
      {execConfig: {clusterName: 'c1', audience: 'https://target.example:6443', nested: {list: [2, 1]}}},
    ],
    ['execConfig', 'no exec config', {execConfig: undefined}],
  ]

  it('has a mutation for every field of CacheKeyInput', () => {
    const covered = new Set(mutations.map(([field]) => field))
    assert.deepEqual(
      Object.keys(base).filter((field) => !covered.has(field as keyof CacheKeyInput)),
      [],
    )
  })

  for (const [field, change, patch] of mutations) {
    it(`changes with ${change} (${field})`, () => {
      assert.notEqual(cacheKey({...base, ...patch}), cacheKey(base))
    })
  }

  it('gives every mutation its own key', () => {
    const keys = mutations.map(([, , patch]) => cacheKey({...base, ...patch}))
    assert.equal(new Set(keys).size, keys.length)
  })

  it('treats values that mean the same to client-go as the same', () => {
    const bare: CacheKeyInput = {
      ...base,
      tlsServerName: undefined,
      proxyUrl: undefined,
      insecureSkipTlsVerify: undefined,
    }
    assert.equal(
      cacheKey({...bare, tlsServerName: '', proxyUrl: '', insecureSkipTlsVerify: false}),
      cacheKey(bare),
    )
    assert.equal(cacheKey({...base, execConfig: null}), cacheKey({...base, execConfig: undefined}))
  })

  describe('cacheKeyInput', () => {
    const exec: ExecConfig = {
      apiVersion: EXEC_API_V1,
      command: '/usr/local/bin/cpcred',
      args: ['plugin', 'token-request', '--service-account', 'ns/sa'],
      env: [
        {name: 'A', value: '1'},
        {name: 'B', value: '2'},
      ],
      provideClusterInfo: true,
      interactiveMode: 'Never',
    }
    const cluster = {
      server: 'https://target.example:6443',
      'certificate-authority-data': 'Q0EtREFUQQ==',
      'tls-server-name': 'api.target.internal',
      'proxy-url': 'http://proxy.example:3128',
      'insecure-skip-tls-verify': false,
    }

    it('takes every identity field from the exec config and the cluster', () => {
      const input = cacheKeyInput(base.hub, base.provider, exec, cluster, base.execConfig)
      assert.deepEqual(input, base)
      assert.equal(cacheKey(input), cacheKey(base))
    })

    it('ignores how the plugin talks to the user and transport tuning', () => {
      const key = cacheKey(cacheKeyInput(base.hub, base.provider, exec, cluster, base.execConfig))
      const other = cacheKey(
        cacheKeyInput(
          base.hub,
          base.provider,
          {...exec, interactiveMode: 'Always', installHint: 'brew install it'},
          {...cluster, 'disable-compression': true},
          base.execConfig,
        ),
      )
      assert.equal(other, key)
    })

    it('defaults missing args, env and provideClusterInfo to "none"', () => {
      const input = cacheKeyInput('h', 'p', {apiVersion: EXEC_API_V1, command: '/c'}, undefined, undefined)
      assert.deepEqual([input.args, input.env, input.provideClusterInfo, input.server], [[], [], false, ''])
    })
  })
})

const T0 = new Date('2030-01-01T00:00:00Z')
const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000)
const TOKEN = 'tok-SECRET-cache'
const expiring = (seconds: number): Credential => ({
  token: TOKEN,
  expirationTimestamp: at(seconds).toISOString().replace('.000Z', 'Z'),
  expiresAt: at(seconds),
})

describe('expiryFor', () => {
  it("uses the credential's own expiry", () => {
    assert.deepEqual(expiryFor(expiring(3600), T0), at(3600))
  })

  it('reads expirationTimestamp when the parsed date is missing', () => {
    assert.deepEqual(expiryFor({token: TOKEN, expirationTimestamp: '2030-01-01T01:00:00+01:00'}, T0), T0)
  })

  it('caps the expiry by a shorter TTL, and ignores a longer one', () => {
    assert.deepEqual(expiryFor(expiring(3600), T0, 600), at(600))
    assert.deepEqual(expiryFor(expiring(3600), T0, 7200), at(3600))
  })

  it('does not cache a credential without expiry unless a TTL is given', () => {
    assert.equal(expiryFor({token: TOKEN}, T0), undefined)
    assert.deepEqual(expiryFor({token: TOKEN}, T0, 300), at(300))
  })

  it('turns caching off with a TTL of 0', () => {
    assert.equal(expiryFor(expiring(3600), T0, 0), undefined)
  })

  it('rejects a negative or non-numeric TTL', () => {
    assert.throws(() => expiryFor({token: TOKEN}, T0, -1), RangeError)
    assert.throws(() => expiryFor({token: TOKEN}, T0, Number.NaN), RangeError)
    assert.throws(() => expiryFor({token: TOKEN}, T0, Number.POSITIVE_INFINITY), RangeError)
  })
})

describe('isUsable', () => {
  const entry = createEntry('k', expiring(600), T0) as CacheEntry

  it('defaults to a 60 second margin', () => {
    assert.equal(DEFAULT_EXPIRY_MARGIN_SECONDS, 60)
  })

  const cases: Array<[string, number, number | undefined, boolean]> = [
    ['right after it was obtained', 0, undefined, true],
    ['with more than the margin left', 539, undefined, true],
    ['with exactly the margin left', 540, undefined, false],
    ['inside the margin', 570, undefined, false],
    ['after expiry', 601, undefined, false],
    ['with a custom margin of 0 just before expiry', 599, 0, true],
    ['with a custom margin of 0 at expiry', 600, 0, false],
    ['with a custom margin of 300 at 301s left', 299, 300, true],
    ['with a custom margin of 300 at 300s left', 300, 300, false],
    ['when the clock went back by less than the margin', -30, undefined, true],
    ['when the clock went back by more than the margin', -61, undefined, false],
  ]
  for (const [name, now, margin, expected] of cases) {
    it(`${expected ? 'serves' : 'refuses'} an entry ${name}`, () => {
      assert.equal(isUsable(entry, at(now), margin), expected)
    })
  }

  it("honours the credential's expiry even if the entry claims longer", () => {
    const tampered: CacheEntry = {...entry, expiresAt: at(7200)}
    assert.equal(isUsable(tampered, at(1000)), false)
  })

  it('serves a TTL-only entry until its TTL', () => {
    const ttlEntry = createEntry('k', {token: TOKEN}, T0, 300) as CacheEntry
    assert.equal(isUsable(ttlEntry, at(239)), true)
    assert.equal(isUsable(ttlEntry, at(240)), false)
  })
})

describe('cache entries', () => {
  const key = 'a'.repeat(64)

  it('are not created for credentials that must not be cached', () => {
    assert.equal(createEntry(key, {token: TOKEN}, T0), undefined)
    assert.equal(createEntry(key, expiring(600), T0, 0), undefined)
  })

  it('read back what was written, with the expiry re-parsed', () => {
    const credential: Credential = {
      token: TOKEN,
      clientCertificateData: 'CERT',
      clientKeyData: 'KEY',
      expirationTimestamp: '2030-01-01T00:10:00+00:00',
      expiresAt: at(600),
    }
    const entry = createEntry(key, credential, T0, 300) as CacheEntry
    assert.deepEqual(entry, {
      version: CACHE_ENTRY_VERSION,
      key,
      credential,
      obtainedAt: T0,
      expiresAt: at(300),
    })
    assert.deepEqual(parseEntry(serializeEntry(entry), key), entry)
  })

  it('store the timestamp as the plugin gave it, not the parsed date', () => {
    const entry = createEntry(key, expiring(600), T0) as CacheEntry
    const stored = JSON.parse(serializeEntry(entry))
    assert.deepEqual(stored, {
      version: 1,
      key,
      obtainedAt: '2030-01-01T00:00:00.000Z',
      expiresAt: '2030-01-01T00:10:00.000Z',
      credential: {token: TOKEN, expirationTimestamp: '2030-01-01T00:10:00Z'},
    })
  })

  const good = JSON.parse(serializeEntry(createEntry(key, expiring(600), T0) as CacheEntry))
  const withChange = (patch: Record<string, unknown>): string => JSON.stringify({...good, ...patch})
  const unreadable: Array<[string, string, string]> = [
    ['an empty file', '', key],
    ['a truncated file', serializeEntry(createEntry(key, expiring(600), T0) as CacheEntry).slice(0, 40), key],
    ['not JSON', 'token=abc', key],
    ['a JSON array', '[]', key],
    ['JSON null', 'null', key],
    ['another key', JSON.stringify(good), 'b'.repeat(64)],
    ['no version', withChange({version: undefined}), key],
    ['a newer version', withChange({version: 2}), key],
    ['a version as string', withChange({version: '1'}), key],
    ['no obtainedAt', withChange({obtainedAt: undefined}), key],
    ['a bad expiresAt', withChange({expiresAt: 'tomorrow'}), key],
    ['no credential', withChange({credential: undefined}), key],
    [
      'a credential without token or certificate',
      withChange({credential: {expirationTimestamp: '2030-01-01T00:10:00Z'}}),
      key,
    ],
    ['a certificate without key', withChange({credential: {clientCertificateData: 'CERT'}}), key],
    ['a key without certificate', withChange({credential: {token: TOKEN, clientKeyData: 'KEY'}}), key],
    ['an empty token', withChange({credential: {token: ''}}), key],
    ['a numeric token', withChange({credential: {token: 42}}), key],
    [
      'a bad credential expiry',
      withChange({credential: {token: TOKEN, expirationTimestamp: '2030-01-01'}}),
      key,
    ],
    ['an entry outliving its credential', withChange({expiresAt: '2030-01-01T02:00:00.000Z'}), key],
  ]
  for (const [name, text, lookupKey] of unreadable) {
    it(`are dropped, not fatal, when the file has ${name}`, () => {
      assert.equal(parseEntry(text, lookupKey), undefined)
    })
  }

  it('read the untouched fixture the cases above are built from', () => {
    assert.notEqual(parseEntry(JSON.stringify(good), key), undefined)
  })
})

describe('lifetimeRule', () => {
  it('asks exec for the lesser of 5 minutes and half the lifetime', () => {
    const rule = lifetimeRule(undefined, true)
    assert.equal(EXEC_MIN_LIFETIME_CAP_SECONDS, 300)
    assert.equal(rule(3600), 300)
    assert.equal(rule(600), 300)
    assert.equal(rule(120), 60)
    assert.equal(rule(20), 10)
  })

  it('asks credential (kubectl refreshes on its own) for the cache margin only', () => {
    assert.equal(lifetimeRule(undefined, false)(3600), DEFAULT_EXPIRY_MARGIN_SECONDS)
  })

  it('takes --min-credential-lifetime as it is, for either', () => {
    assert.equal(lifetimeRule(900, true)(3600), 900)
    assert.equal(lifetimeRule(10, false)(3600), 10)
  })

  it('measures an entry from when it was obtained to its expiry', () => {
    const entry = createEntry('k', expiring(600), T0) as CacheEntry
    const rule = lifetimeRule(undefined, true)
    assert.equal(entryMargin(entry, rule), 300)
    // 20 minutes into a 25-minute credential: the rule still asks for 5 minutes left.
    const long = createEntry('k', expiring(1500), T0) as CacheEntry
    assert.equal(isUsable(long, at(1199), entryMargin(long, rule)), true)
    assert.equal(isUsable(long, at(1200), entryMargin(long, rule)), false)
    assert.equal(entryMargin(entry, undefined), DEFAULT_EXPIRY_MARGIN_SECONDS)
  })

  it('measures a TTL-only entry by its TTL', () => {
    const ttlEntry = createEntry('k', {token: TOKEN}, T0, 120) as CacheEntry
    assert.equal(entryMargin(ttlEntry, lifetimeRule(undefined, true)), 60)
  })
})
