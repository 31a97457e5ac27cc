import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  defaultProviderFile,
  mayBeAbsent,
  providerFilePath,
  providersFrom,
  requireProviders,
} from '../../src/core/access/provider-selection.js'
import {UsageError} from '../../src/core/errors.js'

const FILE = '/etc/cpcred/providers.json'
const text = JSON.stringify({
  providers: [
    {name: 'a', execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: './bin/a'}},
    {name: 'b', execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'b'}},
  ],
})

describe('where providers come from', () => {
  it('reads the flag, then CPCRED_PROVIDER_FILE, then XDG_CONFIG_HOME, then ~/.config', () => {
    assert.equal(
      providerFilePath({providerFile: '/x.json'}, {CPCRED_PROVIDER_FILE: '/y.json'}, '/h'),
      '/x.json',
    )
    assert.equal(providerFilePath({}, {CPCRED_PROVIDER_FILE: '/y.json'}, '/h'), '/y.json')
    assert.equal(defaultProviderFile({XDG_CONFIG_HOME: '/c'}, '/h'), '/c/cpcred/providers.json')
    assert.equal(defaultProviderFile({}, '/h'), '/h/.config/cpcred/providers.json')
  })

  it('lets only the default file be absent', () => {
    assert.equal(mayBeAbsent({}, {}), true)
    assert.equal(mayBeAbsent({providerFile: '/x'}, {}), false)
    assert.equal(mayBeAbsent({}, {CPCRED_PROVIDER_FILE: '/y'}), false)
  })

  it('puts a flag in place of the file entry of the same name, and resolves relative commands', () => {
    const loaded = providersFrom(FILE, text, {accessProviders: ['b=/opt/b --x', 'c=/opt/c']}, '/work')
    assert.deepEqual(
      loaded.providers.map((provider) => [provider.name, provider.execConfig.command]),
      [
        ['a', '/etc/cpcred/bin/a'],
        ['b', '/opt/b'],
        ['c', '/opt/c'],
      ],
    )
    assert.equal(loaded.source, `${FILE} and --access-provider flags`)
    assert.equal(loaded.file, FILE)
  })

  it('says that no file was read, and refuses to run without providers', () => {
    const loaded = providersFrom(FILE, undefined, {}, '/work')
    assert.equal(loaded.source, `no provider file (${FILE} does not exist)`)
    assert.equal(loaded.file, undefined)
    assert.throws(
      () => requireProviders(loaded, FILE),
      (error: unknown) => {
        assert.ok(error instanceof UsageError)
        assert.match(error.message, /no credential providers configured/)
        return true
      },
    )
  })
})
