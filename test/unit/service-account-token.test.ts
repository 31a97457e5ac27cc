// The provider file's serviceAccountToken block (pure core) and the cache key it adds to.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {parseProviderFile} from '../../src/core/access/provider-file.js'
import {
  federatedServiceAccount,
  type ServiceAccountTokenBlock,
} from '../../src/core/access/service-account-token.js'
import {
  describeFederationBlock,
  federationFields,
  type TokenAccess,
} from '../../src/core/describe/federation.js'
import {cacheKey, type CacheKeyInput} from '../../src/core/exec-credential/cache.js'
import {serviceAccountUidOfToken} from '../../src/core/kubeconfig/in-cluster.js'
import {HUB_CONTEXT_ENV, HUB_KUBECONFIG_ENV} from '../../src/core/profiles/hub-pin.js'

const V1 = 'client.authentication.k8s.io/v1'
const exec = {apiVersion: V1, command: 'aws', args: ['eks', 'get-token']}

function fileWith(block: unknown): string {
  return JSON.stringify({providers: [{name: 'eks', execConfig: exec, serviceAccountToken: block}]})
}

function usageError(action: () => unknown): CpcredError {
  try {
    action()
  } catch (error) {
    assert.ok(error instanceof CpcredError, String(error))
    assert.equal(error.exitCode, ExitCode.Usage)
    return error
  }
  assert.fail('expected a usage error')
}

describe('serviceAccountToken in the provider file', () => {
  it('reads the block field by field, defaulting the lifetime to an hour', () => {
    const read = parseProviderFile(
      fileWith({
        audience: 'sts.amazonaws.com',
        fileEnv: 'AWS_WEB_IDENTITY_TOKEN_FILE',
        serviceAccount: 'ci/deployer',
        expirationSeconds: 7200,
      }),
      'providers.json',
    )
    assert.deepEqual(read.warnings, [])
    assert.deepEqual(read.providers[0]!.serviceAccountToken, {
      audience: 'sts.amazonaws.com',
      fileEnv: 'AWS_WEB_IDENTITY_TOKEN_FILE',
      serviceAccount: {namespace: 'ci', name: 'deployer'},
      expirationSeconds: 7200,
    })
    const bare = parseProviderFile(fileWith({audience: 'a', fileEnv: 'F'}), 'p.json')
    assert.deepEqual(bare.providers[0]!.serviceAccountToken, {
      audience: 'a',
      fileEnv: 'F',
      expirationSeconds: 3600,
    })
    // Absent or null: no block, and the provider is as before.
    assert.equal(parseProviderFile(fileWith(null), 'p.json').providers[0]!.serviceAccountToken, undefined)
  })

  it('is no longer an unknown field, but an unknown field inside it is a warning', () => {
    const read = parseProviderFile(fileWith({audience: 'a', fileEnv: 'F', audiences: ['b']}), 'p.json')
    assert.deepEqual(read.warnings, [
      'p.json: providers[0] ("eks"): serviceAccountToken: unknown field "audiences" is ignored',
    ])
  })

  const mistakes: Array<[string, unknown, RegExp]> = [
    ['not an object', 'sts', /providers\[0\] \("eks"\): serviceAccountToken must be an object/],
    ['no audience', {fileEnv: 'F'}, /serviceAccountToken\.audience must be a non-empty string/],
    ['an empty audience', {audience: ' ', fileEnv: 'F'}, /serviceAccountToken\.audience must be/],
    ['no fileEnv', {audience: 'a'}, /serviceAccountToken\.fileEnv is missing/],
    ['a fileEnv with =', {audience: 'a', fileEnv: 'A=B'}, /fileEnv "A=B" is not a variable name/],
    [
      'the exec protocol variable',
      {audience: 'a', fileEnv: 'KUBERNETES_EXEC_INFO'},
      /cannot be KUBERNETES_EXEC_INFO/,
    ],
    [
      'a name without namespace',
      {audience: 'a', fileEnv: 'F', serviceAccount: 'deployer'},
      /serviceAccount "deployer" is not "namespace\/name"/,
    ],
    [
      'three parts',
      {audience: 'a', fileEnv: 'F', serviceAccount: 'a/b/c'},
      /"a\/b\/c" is not "namespace\/name"/,
    ],
    [
      'an invalid name',
      {audience: 'a', fileEnv: 'F', serviceAccount: 'ci/Deployer'},
      /not "namespace\/name"/,
    ],
    ['a number', {audience: 'a', fileEnv: 'F', serviceAccount: 7}, /serviceAccount 7 is not/],
    [
      'a short lifetime',
      {audience: 'a', fileEnv: 'F', expirationSeconds: 60},
      /expirationSeconds 60 is out of range: use 600 to 86400/,
    ],
    [
      'a fractional lifetime',
      {audience: 'a', fileEnv: 'F', expirationSeconds: 600.5},
      /not a whole number of seconds/,
    ],
  ]
  // Names that choose which code runs or which hub and identity: the token file's path would replace them.
  for (const name of [
    'PATH',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'NODE_OPTIONS',
    'BASH_ENV',
    'ENV',
    'HOME',
    HUB_KUBECONFIG_ENV,
    HUB_CONTEXT_ENV,
  ]) {
    mistakes.push([
      `fileEnv ${name}`,
      {audience: 'a', fileEnv: name, serviceAccount: 'ci/deployer'},
      new RegExp(`serviceAccountToken\\.fileEnv cannot be ${name}: it decides which code the plugin runs`),
    ])
  }
  for (const [what, block, message] of mistakes) {
    it(`refuses ${what} with exit 2, naming the file, the provider and the field`, () => {
      const error = usageError(() => parseProviderFile(fileWith(block), 'providers.json'))
      assert.match(error.message, /^providers\.json: providers\[0\] \("eks"\): serviceAccountToken/)
      assert.match(error.message, message)
    })
  }

  it("refuses a fileEnv that the provider's own env sets, naming both fields", () => {
    const file = JSON.stringify({
      providers: [
        {
          name: 'eks',
          execConfig: {...exec, env: [{name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: '/var/run/token'}]},
          serviceAccountToken: {audience: 'a', fileEnv: 'AWS_WEB_IDENTITY_TOKEN_FILE'},
        },
      ],
    })
    const error = usageError(() => parseProviderFile(file, 'providers.json'))
    assert.match(
      error.message,
      /^providers\.json: providers\[0\] \("eks"\): serviceAccountToken\.fileEnv AWS_WEB_IDENTITY_TOKEN_FILE is also set by execConfig\.env/,
    )
    assert.match(error.hint ?? '', /remove AWS_WEB_IDENTITY_TOKEN_FILE from execConfig\.env/)
  })

  it("names the ServiceAccount: the block's, else the pod's own, else a usage error naming the provider", () => {
    const block = {audience: 'a', fileEnv: 'F', expirationSeconds: 3600}
    const pod = {namespace: 'jobs', name: 'runner'}
    assert.deepEqual(
      federatedServiceAccount({...block, serviceAccount: {namespace: 'ci', name: 'x'}}, 'eks', pod),
      {namespace: 'ci', name: 'x', podOwn: false},
    )
    assert.deepEqual(federatedServiceAccount(block, 'eks', pod), {
      namespace: 'jobs',
      name: 'runner',
      podOwn: true,
    })
    const error = usageError(() => federatedServiceAccount(block, 'eks', undefined))
    assert.match(
      error.message,
      /provider "eks": serviceAccountToken names no serviceAccount, and cpcred is not in a pod/,
    )
    assert.match(error.hint ?? '', /"serviceAccount": "namespace\/name"/)
  })
})

describe('the cache key of a federated provider', () => {
  const base: CacheKeyInput = {
    hub: 'hub',
    provider: 'eks',
    apiVersion: V1,
    command: 'aws',
    args: [],
    env: [],
    provideClusterInfo: false,
    server: 'https://eks.example',
  }
  const identity = {namespace: 'ci', name: 'a', uid: 'u-1', audience: 'sts.amazonaws.com', fileEnv: 'F'}

  it('keeps the keys of other providers as they were', () => {
    assert.equal(cacheKey({...base, serviceAccount: undefined}), cacheKey(base))
  })

  it('differs for each part of the identity, so two never share an entry', () => {
    const keys = new Set([
      cacheKey(base),
      cacheKey({...base, serviceAccount: identity}),
      cacheKey({...base, serviceAccount: {...identity, name: 'b'}}),
      cacheKey({...base, serviceAccount: {...identity, namespace: 'other'}}),
      // The same name made again is another ServiceAccount.
      cacheKey({...base, serviceAccount: {...identity, uid: 'u-2'}}),
      cacheKey({...base, serviceAccount: {...identity, audience: 'api://AzureADTokenExchange'}}),
      cacheKey({...base, serviceAccount: {...identity, fileEnv: 'G'}}),
    ])
    assert.equal(keys.size, 7)
    assert.equal(
      cacheKey({...base, serviceAccount: {...identity}}),
      cacheKey({...base, serviceAccount: identity}),
    )
  })

  it('reads the UID from a projected token without verifying it', () => {
    const jwt = (payload: object) =>
      `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2ln`
    assert.equal(
      serviceAccountUidOfToken(
        jwt({'kubernetes.io': {namespace: 'ci', serviceaccount: {name: 'a', uid: 'u-9'}}}),
      ),
      'u-9',
    )
    assert.equal(serviceAccountUidOfToken(jwt({sub: 'system:serviceaccount:ci:a'})), undefined)
    assert.equal(serviceAccountUidOfToken('not-a-jwt'), undefined)
  })
})

describe('what describe says about a serviceAccountToken block', () => {
  const block = {
    audience: 'sts.amazonaws.com',
    fileEnv: 'AWS_WEB_IDENTITY_TOKEN_FILE',
    serviceAccount: {namespace: 'ci', name: 'deployer'},
    expirationSeconds: 3600,
  }
  const fields = (access?: TokenAccess, b: ServiceAccountTokenBlock = block) =>
    Object.fromEntries(federationFields(describeFederationBlock(b, access)))

  it('names the ServiceAccount, the audience and the variable, and whether the caller may create the token', () => {
    assert.deepEqual(fields({serviceAccount: 'ci/deployer', podOwn: false, allowed: true}), {
      'Federates As': 'ServiceAccount ci/deployer',
      'Token Audience': 'sts.amazonaws.com',
      'Token File In': '$AWS_WEB_IDENTITY_TOKEN_FILE (3600s, private, removed after the run)',
      'May Create Token': 'yes',
    })
    assert.equal(
      fields({serviceAccount: 'ci/deployer', podOwn: false, allowed: false})['May Create Token'],
      'no: needs "create" on serviceaccounts/token',
    )
    // Not asked (the review failed): the block's own ServiceAccount, and "unknown".
    assert.equal(fields(undefined)['Federates As'], 'ServiceAccount ci/deployer')
    assert.equal(fields(undefined)['May Create Token'], 'unknown')
  })

  it("says the pod's own, and what is missing outside a pod", () => {
    const {serviceAccount: _named, ...unnamed} = block
    assert.equal(
      fields({serviceAccount: 'jobs/runner', podOwn: true, allowed: true}, unnamed)['Federates As'],
      "ServiceAccount jobs/runner (the pod's own)",
    )
    assert.equal(
      fields({podOwn: false}, unnamed)['Federates As'],
      'ServiceAccount <none: name serviceAccount outside a pod>',
    )
  })
})
