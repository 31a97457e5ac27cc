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
import {missingCommandHint} from '../../src/core/access/plugin-commands.js'

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

  it('runs cpcred itself for a command naming cpcred, as the documented provider file does', () => {
    const self = '/home/u/.krew/bin/kubectl-cpcred'
    const named = (command: string, args = ['plugin', 'token-request']) => ({
      name: command,
      execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command, args},
    })
    const file = JSON.stringify({
      providers: [named('cpcred'), named('kubectl-cpcred'), named('/opt/old/cpcred'), named('cpcred-x')],
    })
    const loaded = providersFrom(
      FILE,
      file,
      {accessProviders: ['flag=cpcred plugin secretreader']},
      '/w',
      self,
    )
    assert.deepEqual(
      loaded.providers.map((provider) => [
        provider.name,
        provider.execConfig.command,
        provider.execConfig.args,
      ]),
      [
        ['cpcred', self, ['plugin', 'token-request']],
        ['kubectl-cpcred', self, ['plugin', 'token-request']],
        // A path names one file on purpose, and another name is another program.
        ['/opt/old/cpcred', '/opt/old/cpcred', ['plugin', 'token-request']],
        ['cpcred-x', 'cpcred-x', ['plugin', 'token-request']],
        ['flag', self, ['plugin', 'secretreader']],
      ],
    )
    // Without a known self (no caller gives one), the name stays for PATH to find.
    assert.equal(providersFrom(FILE, file, {}, '/w').providers[0]!.execConfig.command, 'cpcred')
  })

  it('says where the built-in plugins are when a path to a cpcred is gone', () => {
    assert.match(missingCommandHint('/opt/old/cpcred', 'install it'), /"command": "cpcred"/)
    assert.equal(missingCommandHint('kubelogin', 'install it'), 'install it')
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
