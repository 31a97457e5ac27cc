import assert from 'node:assert/strict'
import {printerFor} from '../../src/adapters/printer.js'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {
  execClusterConfig,
  hubSelection,
  parseExecInfo,
  type ExecInfo,
} from '../../src/core/exec-credential/exec-info.js'
import {
  clusterNameFrom,
  requireExecInfo,
  tokenFromSecret,
} from '../../src/core/exec-credential/secretreader.js'
import {
  credentialFromTokenRequest,
  parseExpirationSeconds,
  planTokenRequest,
  tokenRequestSpec,
  type TokenRequestOptions,
} from '../../src/core/exec-credential/token-request.js'
import type {PluginIo} from '../../src/cli/plugins/common.js'
import {runBuiltinPlugin} from '../../src/cli/plugins/run.js'
import {parseSecretreader} from '../../src/cli/plugins/secretreader.js'
import {parseTokenRequest} from '../../src/cli/plugins/token-request.js'

const V1 = 'client.authentication.k8s.io/v1'
const V1BETA1 = 'client.authentication.k8s.io/v1beta1'
const SERVER = 'https://spoke.example:6443'
const TOKEN = 'eyJ-SECRET-token-0123456789'

function caught(fn: () => unknown): CpcredError {
  try {
    fn()
  } catch (error) {
    assert.ok(error instanceof CpcredError, `expected a CpcredError, got ${String(error)}`)
    return error
  }
  assert.fail('expected an error')
}

async function rejected(promise: Promise<unknown>): Promise<CpcredError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof CpcredError, `expected a CpcredError, got ${String(error)}`)
    return error
  }
  assert.fail('expected an error')
}

const shown = (error: CpcredError) => `${error.message}\n${error.hint ?? ''}`

function execInfo(config: unknown, apiVersion = V1): ExecInfo {
  return {
    apiVersion: apiVersion as ExecInfo['apiVersion'],
    interactive: false,
    cluster: {server: SERVER, config},
  }
}

describe('parseExecInfo', () => {
  it('is undefined when kubectl did not set it (run by hand)', () => {
    assert.equal(parseExecInfo(undefined), undefined)
    assert.equal(parseExecInfo('  '), undefined)
  })

  it('reads v1 and v1beta1 with the cluster and its config', () => {
    const text = JSON.stringify({
      apiVersion: V1BETA1,
      kind: 'ExecCredential',
      spec: {interactive: true, cluster: {server: SERVER, config: {clusterName: 'a'}}},
    })
    assert.deepEqual(parseExecInfo(text), {
      apiVersion: V1BETA1,
      interactive: true,
      cluster: {server: SERVER, config: {clusterName: 'a'}},
    })
  })

  it('treats a cluster without a server as no cluster information, like the upstream plugins', () => {
    const info = parseExecInfo(
      JSON.stringify({apiVersion: V1, kind: 'ExecCredential', spec: {cluster: {server: '', config: {}}}}),
    )
    assert.equal(info?.cluster, undefined)
  })

  for (const [what, text, pattern] of [
    ['not JSON', `{"token": "${TOKEN}"`, /is not valid JSON/],
    ['an array', '[]', /not a JSON object/],
    [
      'another kind',
      JSON.stringify({apiVersion: V1, kind: 'Pod'}),
      /is not an ExecCredential \(kind "Pod"\)/,
    ],
    [
      'an unknown version',
      JSON.stringify({apiVersion: 'client.authentication.k8s.io/v1alpha1', kind: 'ExecCredential'}),
      /apiVersion "client\.authentication\.k8s\.io\/v1alpha1"; supported: .*\/v1, .*\/v1beta1/,
    ],
  ] as const) {
    it(`refuses ${what} as a usage error without echoing the input`, () => {
      const error = caught(() => parseExecInfo(text))
      assert.equal(error.exitCode, ExitCode.Usage)
      assert.match(error.message, pattern)
      assert.ok(!shown(error).includes('SECRET'))
    })
  }

  it('takes a null config as no config, and refuses a config that is not an object', () => {
    assert.equal(execClusterConfig(execInfo(null)), undefined)
    assert.equal(execClusterConfig(undefined), undefined)
    const error = caught(() => execClusterConfig(execInfo(['clusterName'])))
    assert.equal(error.exitCode, ExitCode.Usage)
    assert.match(error.message, /spec\.cluster\.config .* is an array, not an object/)
  })
})

describe('hubSelection', () => {
  it('prefers --context, else CPCRED_HUB_CONTEXT (unless --kubeconfig is given), else the current context', () => {
    const env = {CPCRED_HUB_CONTEXT: 'pinned'}
    assert.deepEqual(hubSelection({kubeconfig: '/k', context: 'flag', namespace: 'ns'}, env), {
      kubeconfig: '/k',
      context: 'flag',
      namespace: 'ns',
      source: 'flags',
    })
    assert.equal(hubSelection({}, env).context, 'pinned')
    // Plugins choose by kubectl's rules and the pin only: never by the hub `cpcred hub use` keeps.
    assert.equal(hubSelection({}, env).source, 'env')
    assert.equal(hubSelection({}, {}).source, 'kubectl')
    // The pinned context goes with the pinned KUBECONFIG, not with a file named by --kubeconfig.
    assert.equal(hubSelection({kubeconfig: '/own'}, env).context, undefined)
    assert.equal(hubSelection({}, {CPCRED_HUB_CONTEXT: ''}).context, undefined)
    assert.equal(hubSelection({}, {}).context, undefined)
  })
})

describe('secretreader', () => {
  it('reads clusterName from spec.cluster.config, as upstream', () => {
    assert.equal(clusterNameFrom(execInfo({clusterName: 'eu-west-1', other: 1})), 'eu-west-1')
  })

  for (const [what, info, pattern, hint] of [
    ['no exec info', undefined, /KUBERNETES_EXEC_INFO is not set/, /provideClusterInfo: true/],
    [
      'no cluster information',
      {apiVersion: V1, interactive: false} satisfies ExecInfo,
      /has no cluster information/,
      /provideClusterInfo: true/,
    ],
    [
      'no config',
      execInfo(null),
      /no clusterName in spec\.cluster\.config/,
      /client\.authentication\.k8s\.io\/exec/,
    ],
    ['an empty clusterName', execInfo({clusterName: ''}), /no clusterName/, /clusterName: NAME/],
    [
      'a clusterName that is not a string',
      execInfo({clusterName: 7}),
      /clusterName is a number, not a string/,
      /^$/,
    ],
    [
      'a clusterName that is no Secret name',
      execInfo({clusterName: '../x'}),
      /"\.\.\/x" .* not a valid Secret name/,
      /^$/,
    ],
  ] as const) {
    it(`fails with a usage error for ${what}`, () => {
      const error = caught(() => clusterNameFrom(requireExecInfo(info as ExecInfo | undefined)))
      assert.equal(error.exitCode, ExitCode.Usage)
      assert.match(error.message, pattern)
      assert.match(error.hint ?? '', hint)
    })
  }

  const ref = {namespace: 'fleet', name: 'eu-west-1'}
  const b64 = (text: string) => Buffer.from(text).toString('base64')

  it('decodes key "token" and drops the newline a token file leaves', () => {
    assert.equal(tokenFromSecret({data: {token: b64(`${TOKEN}\n`), ca: b64('x')}}, ref), TOKEN)
  })

  for (const [what, secret, pattern] of [
    [
      'no token key',
      {data: {kubeconfig: b64(TOKEN), password: b64(TOKEN)}},
      /has no "token" key \(its keys: "kubeconfig", "password"\)/,
    ],
    ['no data', {}, /has no "token" key \(it has no data\)/],
    ['null data', {data: null}, /has no "token" key/],
    ['an empty token', {data: {token: ''}}, /has an empty "token" key/],
    ['a blank token', {data: {token: b64(' \n')}}, /has a blank "token" key/],
  ] as const) {
    it(`names the Secret, never a value, when it has ${what}`, () => {
      const error = caught(() => tokenFromSecret(secret, ref))
      assert.equal(error.exitCode, ExitCode.Failure)
      assert.match(error.message, /^Secret fleet\/eu-west-1 on the hub /)
      assert.match(error.message, pattern)
      assert.ok(!shown(error).includes(TOKEN) && !shown(error).includes(b64(TOKEN)))
    })
  }

  it('takes -n, --kubeconfig, --context and -v, and refuses anything else as a usage error', () => {
    assert.deepEqual(parseSecretreader(['-n', 'fleet', '--context=hub', '--kubeconfig', '/k', '-v']), {
      namespace: 'fleet',
      context: 'hub',
      kubeconfig: '/k',
      verbose: true,
    })
    const unknown = caught(() => parseSecretreader(['--token', TOKEN]))
    assert.equal(unknown.exitCode, ExitCode.Usage)
    assert.match(unknown.hint ?? '', /^usage: cpcred plugin secretreader/)
    const positional = caught(() => parseSecretreader(['extra']))
    assert.match(positional.message, /unexpected argument "extra"/)
  })
})

describe('token-request planning', () => {
  const none: TokenRequestOptions = {verbose: false}

  it('takes the ServiceAccount, namespace, audience and lifetime from the exec extension', () => {
    const plan = planTokenRequest(
      none,
      execInfo({serviceAccount: 'deployer', namespace: 'ci', audience: 'spoke', expirationSeconds: 1200}),
    )
    assert.deepEqual(plan, {
      serviceAccount: 'deployer',
      namespace: 'ci',
      audience: 'spoke',
      audienceOrigin: 'config',
      expirationSeconds: 1200,
    })
  })

  it("defaults the audience to the target's server URL, exactly, and the lifetime to an hour", () => {
    const plan = planTokenRequest(none, execInfo({serviceAccount: 'deployer'}))
    assert.equal(plan.audience, SERVER)
    assert.equal(plan.audienceOrigin, 'server')
    assert.equal(plan.expirationSeconds, 3600)
    assert.equal(plan.namespace, undefined, "no namespace: the hub context's")
  })

  it('lets arguments win over the config, key by key', () => {
    const plan = planTokenRequest(
      {...none, serviceAccount: 'mine', namespace: 'own', audience: 'aud', expirationSeconds: 900},
      execInfo({serviceAccount: 'theirs', namespace: 'other', audience: 'x', expirationSeconds: 1200}),
    )
    assert.deepEqual(plan, {
      serviceAccount: 'mine',
      namespace: 'own',
      audience: 'aud',
      audienceOrigin: 'argument',
      expirationSeconds: 900,
    })
  })

  it('never pairs --service-account with a namespace from the profile', () => {
    const plan = planTokenRequest({...none, serviceAccount: 'mine'}, execInfo({namespace: 'other'}))
    assert.equal(plan.namespace, undefined)
    const withConfigAccount = planTokenRequest(
      {...none, namespace: 'own'},
      execInfo({serviceAccount: 'x', namespace: 'other'}),
    )
    assert.deepEqual([withConfigAccount.serviceAccount, withConfigAccount.namespace], ['x', 'own'])
  })

  it('works from arguments alone when run by hand (no exec info)', () => {
    const plan = planTokenRequest(
      {...none, serviceAccount: 'sa', namespace: 'ns', audience: 'aud'},
      undefined,
    )
    assert.deepEqual(tokenRequestSpec(plan), {audiences: ['aud'], expirationSeconds: 3600})
  })

  for (const [what, options, info, pattern, hint] of [
    [
      'no ServiceAccount',
      none,
      execInfo({audience: 'x'}),
      /^no ServiceAccount to request a token for$/,
      /--service-account NAME/,
    ],
    [
      'no ServiceAccount and no cluster info',
      none,
      {apiVersion: V1, interactive: false},
      /^no ServiceAccount/,
      /with provideClusterInfo: true/,
    ],
    [
      'no audience (no cluster information)',
      {...none, serviceAccount: 'sa'},
      {apiVersion: V1, interactive: false},
      /^no audience for the token: KUBERNETES_EXEC_INFO has no cluster information/,
      /provideClusterInfo: true/,
    ],
    [
      'no audience (run by hand)',
      {...none, serviceAccount: 'sa'},
      undefined,
      /KUBERNETES_EXEC_INFO is not set/,
      /--audience/,
    ],
    [
      'an invalid ServiceAccount name',
      none,
      execInfo({serviceAccount: 'a/b'}),
      /ServiceAccount name "a\/b" is not a valid name/,
      /^$/,
    ],
    [
      'an invalid namespace',
      {...none, namespace: 'Not_OK'},
      execInfo({serviceAccount: 'sa'}),
      /namespace "Not_OK" is not a valid/,
      /^$/,
    ],
    [
      'a ServiceAccount that is not a string',
      none,
      execInfo({serviceAccount: ['a']}),
      /serviceAccount is an array/,
      /^$/,
    ],
    [
      'a lifetime below the API minimum',
      none,
      execInfo({serviceAccount: 'sa', expirationSeconds: 599}),
      /expirationSeconds 599 is out of range: use 600 to 86400/,
      /^$/,
    ],
    [
      'a lifetime over a day',
      none,
      execInfo({serviceAccount: 'sa', expirationSeconds: '86401'}),
      /86401 is out of range/,
      /^$/,
    ],
    [
      'a fractional lifetime',
      none,
      execInfo({serviceAccount: 'sa', expirationSeconds: 900.5}),
      /900\.5 is not a whole number of seconds/,
      /^$/,
    ],
  ] as const) {
    it(`fails with a usage error for ${what}`, () => {
      const error = caught(() =>
        planTokenRequest(options as TokenRequestOptions, info as ExecInfo | undefined),
      )
      assert.equal(error.exitCode, ExitCode.Usage)
      assert.match(error.message, pattern)
      assert.match(error.hint ?? '', hint)
    })
  }

  it('parses its arguments, bounding --expiration-seconds', () => {
    assert.deepEqual(
      parseTokenRequest([
        '--service-account',
        'sa',
        '-n',
        'ns',
        '--audience=aud',
        '--expiration-seconds',
        '7200',
      ]),
      {
        kubeconfig: undefined,
        context: undefined,
        namespace: 'ns',
        serviceAccount: 'sa',
        audience: 'aud',
        expirationSeconds: 7200,
        verbose: false,
      },
    )
    for (const bad of ['60', '1h', '-5', '']) {
      const error = caught(() => parseTokenRequest([`--expiration-seconds=${bad}`]))
      assert.equal(error.exitCode, ExitCode.Usage, bad)
      assert.match(error.message, /^--expiration-seconds /)
    }
    assert.equal(parseExpirationSeconds(' 600 ', 'x'), 600)
    assert.equal(parseExpirationSeconds(86_400, 'x'), 86_400)
    const unknown = caught(() => parseTokenRequest(['--bogus']))
    assert.equal(unknown.exitCode, ExitCode.Usage)
    assert.match(unknown.message, /^unknown flag: --bogus$/)
    assert.match(unknown.hint ?? '', /^usage: cpcred plugin token-request/)
  })
})

describe('token-request answer', () => {
  it('returns the token with the expiry the hub gave it', () => {
    const credential = credentialFromTokenRequest(
      {status: {token: TOKEN, expirationTimestamp: '2030-01-02T03:04:05Z'}},
      'ns/sa',
    )
    assert.deepEqual(credential, {
      token: TOKEN,
      expirationTimestamp: '2030-01-02T03:04:05Z',
      expiresAt: new Date('2030-01-02T03:04:05Z'),
    })
  })

  for (const [what, status, pattern] of [
    ['no token', {expirationTimestamp: '2030-01-02T03:04:05Z'}, /without a token/],
    ['no expiry', {token: TOKEN}, /without a valid expirationTimestamp/],
    ['a bad expiry', {token: TOKEN, expirationTimestamp: 'tomorrow'}, /without a valid expirationTimestamp/],
  ] as const) {
    it(`refuses an answer with ${what}, without showing the token`, () => {
      const error = caught(() => credentialFromTokenRequest({status}, 'ns/sa'))
      assert.match(error.message, pattern)
      assert.match(error.message, /ns\/sa/)
      assert.ok(!shown(error).includes(TOKEN))
    })
  }
})

describe('runBuiltinPlugin', () => {
  function io(env: NodeJS.ProcessEnv): PluginIo & {out: string[]; hubsOpened: number} {
    const out: string[] = []
    const fake = {
      env,
      out,
      hubsOpened: 0,
      printer: printerFor({stdout: {write: (text: string) => out.push(text)}, stderr: {write: () => true}}),
      openHub: () => {
        fake.hubsOpened++
        return Promise.reject(new Error('no hub in this test'))
      },
    }
    return fake
  }

  it('names the plugin in its errors and keeps their exit code; fails before any hub call', async () => {
    const fake = io({KUBECONFIG: '/nonexistent/hub'})
    const error = await rejected(runBuiltinPlugin(fake, ['secretreader']))
    assert.equal(error.exitCode, ExitCode.Usage)
    assert.match(error.message, /^secretreader: KUBERNETES_EXEC_INFO is not set/)
    const range = await rejected(runBuiltinPlugin(fake, ['token-request', '--expiration-seconds', '60']))
    assert.match(range.message, /^token-request: --expiration-seconds 60 is out of range/)
    assert.deepEqual(fake.out, [], 'nothing on stdout')
    assert.equal(fake.hubsOpened, 0, 'no hub opened')
  })

  it('refuses an unknown plugin', async () => {
    const error = await rejected(runBuiltinPlugin(io({}), ['aws']))
    assert.equal(error.exitCode, ExitCode.Usage)
    assert.match(error.hint ?? '', /secretreader, token-request/)
  })
})
