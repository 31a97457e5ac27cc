// The built-in plugins against the real hub and spoke: run as kubectl runs them (KUBERNETES_EXEC_INFO,
// the hub in KUBECONFIG), by the real kubectl, and through `cpcred credential`.
import assert from 'node:assert/strict'
import {readFile, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {formatRfc3339} from '../../src/core/exec-credential/protocol.js'
import type {DoctorJson} from '../../src/core/doctor/report.js'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createNamespace,
  createServiceAccount,
  isolatedEnv,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
  tokenKubeconfig,
  uniqueName,
  writeProviderFile,
  type RunResult,
} from '../helpers/env.js'
import {kubeCall} from '../testenv/http.js'
import {hubConsumer} from '../helpers/hub-consumer.js'
import {documentedProviderFile, tokenRequestProfile} from '../helpers/fixtures.js'

const V1 = 'client.authentication.k8s.io/v1'
const V1BETA1 = 'client.authentication.k8s.io/v1beta1'
const EXEC_EXTENSION = 'client.authentication.k8s.io/exec'
const JWT = /eyJ[A-Za-z0-9_-]{10,}/

/** KUBERNETES_EXEC_INFO as kubectl builds it; without `config` the cluster has no exec extension. */
function execInfo(options: {server?: string; caData?: string; config?: unknown; apiVersion?: string} = {}) {
  const spec: Record<string, unknown> = {interactive: false}
  if (options.server) {
    spec.cluster = {
      server: options.server,
      'certificate-authority-data': options.caData,
      config: options.config ?? null,
    }
  }
  return JSON.stringify({apiVersion: options.apiVersion ?? V1, kind: 'ExecCredential', spec})
}

interface JwtClaims {
  aud: string[]
  sub: string
  iat: number
  exp: number
}

function claims(token: string): JwtClaims {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as JwtClaims
}

interface ExecCredentialOut {
  apiVersion: string
  kind: string
  status: {token: string; expirationTimestamp?: string}
}

function credentialOf(result: RunResult): ExecCredentialOut {
  assert.equal(result.code, 0, result.stderr)
  assert.ok(result.stdout.endsWith('}\n') && result.stdout.trim().split('\n').length === 1, 'one JSON line')
  return JSON.parse(result.stdout) as ExecCredentialOut
}

/** A failure: its exit code, nothing on stdout, one `error:` line and a hint, no token anywhere. */
function assertFailure(result: RunResult, code: number, pattern: RegExp, secrets: string[]): void {
  assert.equal(result.code, code, result.stderr)
  assert.equal(result.stdout, '')
  assert.match(result.stderr, pattern)
  assert.match(result.stderr, /^error: [^\n]+\n([^\n]+\n)?$/, 'one error line, at most one hint line')
  assert.doesNotMatch(result.stderr, JWT)
  for (const secret of secrets) assert.ok(!result.stderr.includes(secret), 'a secret reached stderr')
}

/** What the spoke makes of a bearer token, through the real kubectl. */
async function whoamiOnSpoke(token: string): Promise<RunResult & {username?: string}> {
  const {env} = await testEnv()
  const file = await tokenKubeconfig(await tempDir(), 'spoke', env.spoke.server, env.spoke.caData, token)
  const result = await runProgram('kubectl', ['--kubeconfig', file, 'auth', 'whoami', '-o', 'json'], {
    env: isolatedEnv,
  })
  const username =
    result.code === 0
      ? (JSON.parse(result.stdout) as {status: {userInfo: {username: string}}}).status.userInfo.username
      : undefined
  return {...result, username}
}

const runPlugin = (plugin: string, args: string[], env: NodeJS.ProcessEnv) =>
  cpcred(['plugin', plugin, ...args], env)

describe('cpcred plugin token-request', () => {
  let namespace: string
  let consumer: {kubeconfig: string; token: string}
  let spoke: {server: string; caData: string}
  let secrets: string[]

  before(async () => {
    const {env, hub} = await testEnv()
    spoke = {server: env.spoke.server, caData: env.spoke.caData}
    namespace = await createNamespace(hub, 'token-request')
    await createServiceAccount(hub, namespace, 'deployer')
    await createServiceAccount(hub, namespace, 'other')
    // Only "create serviceaccounts/token" for deployer; the context's namespace is not the SA's.
    consumer = await hubConsumer(
      hub,
      namespace,
      'requester',
      [
        {
          apiGroups: [''],
          resources: ['serviceaccounts/token'],
          verbs: ['create'],
          resourceNames: ['deployer'],
        },
      ],
      'default',
      {verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'deployer'},
    )
    secrets = [consumer.token]
  })

  const asConsumer = (args: string[], info: string | undefined) =>
    runPlugin('token-request', args, {KUBECONFIG: consumer.kubeconfig, KUBERNETES_EXEC_INFO: info})

  it("issues a token of the config's ServiceAccount that the spoke maps to it, for the spoke's URL and an hour", async () => {
    const started = Math.floor(Date.now() / 1000)
    const credential = credentialOf(
      await asConsumer([], execInfo({...spoke, config: {serviceAccount: 'deployer', namespace}})),
    )
    assert.equal(credential.kind, 'ExecCredential')
    assert.equal(credential.apiVersion, V1)
    const jwt = claims(credential.status.token)
    assert.deepEqual(jwt.aud, [spoke.server])
    assert.equal(jwt.sub, `system:serviceaccount:${namespace}:deployer`)
    assert.equal(jwt.exp - jwt.iat, 3600)
    assert.ok(Math.abs(jwt.exp - (started + 3600)) <= 10, 'expires an hour from now')
    // The expiry the hub gave the token, so kubectl and the cpcred cache ask again in time.
    assert.equal(credential.status.expirationTimestamp, formatRfc3339(new Date(jwt.exp * 1000)))

    const whoami = await whoamiOnSpoke(credential.status.token)
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(whoami.username, `hub:system:serviceaccount:${namespace}:deployer`)
  })

  it('answers in the apiVersion kubectl asked for, and takes the lifetime from the config or the argument', async () => {
    const info = execInfo({
      ...spoke,
      apiVersion: V1BETA1,
      config: {serviceAccount: 'deployer', namespace, expirationSeconds: 1200},
    })
    const fromConfig = credentialOf(await asConsumer([], info))
    assert.equal(fromConfig.apiVersion, V1BETA1)
    const jwt = claims(fromConfig.status.token)
    assert.equal(jwt.exp - jwt.iat, 1200)

    const fromArgument = credentialOf(await asConsumer(['--expiration-seconds', '900'], info))
    const argumentJwt = claims(fromArgument.status.token)
    assert.equal(argumentJwt.exp - argumentJwt.iat, 900)
  })

  it('lets the arguments of the provider win over the profile config', async () => {
    const credential = credentialOf(
      await asConsumer(
        ['--service-account', 'deployer', '-n', namespace],
        execInfo({...spoke, config: {serviceAccount: 'other', namespace: 'elsewhere'}}),
      ),
    )
    assert.equal(claims(credential.status.token).sub, `system:serviceaccount:${namespace}:deployer`)
  })

  it('a token requested for another audience is rejected by the spoke', async () => {
    const config = {serviceAccount: 'deployer', namespace}
    const fromArgument = credentialOf(
      await asConsumer(['--audience', 'https://other.example'], execInfo({...spoke, config})),
    )
    assert.deepEqual(claims(fromArgument.status.token).aud, ['https://other.example'])
    const fromConfig = credentialOf(
      await asConsumer([], execInfo({...spoke, config: {...config, audience: `${spoke.server}/other`}})),
    )
    assert.deepEqual(claims(fromConfig.status.token).aud, [`${spoke.server}/other`])

    for (const token of [fromArgument.status.token, fromConfig.status.token]) {
      const whoami = await whoamiOnSpoke(token)
      assert.notEqual(whoami.code, 0)
      assert.equal(whoami.username, undefined)
      assert.match(whoami.stderr, /Unauthorized/)
    }
  })

  it('says which RBAC is missing when the hub forbids the token (exit 4)', async () => {
    const result = await asConsumer([], execInfo({...spoke, config: {serviceAccount: 'other', namespace}}))
    assertFailure(
      result,
      4,
      new RegExp(
        `^error: token-request: cannot create a token for ServiceAccount ${namespace}/other on the hub \\(context "hub" from kubectl's current context, https://127\\.0\\.0\\.1:\\d+\\): ` +
          `User "system:serviceaccount:${namespace}:requester" cannot create resource "serviceaccounts/token"`,
      ),
      secrets,
    )
    assert.match(
      result.stderr,
      new RegExp(
        `\\n.*"create" on serviceaccounts/token with resourceNames \\["other"\\] in namespace "${namespace}"`,
      ),
    )
  })

  it('names a ServiceAccount that does not exist (exit 1)', async () => {
    const {env} = await testEnv()
    const result = await runPlugin('token-request', [], {
      KUBECONFIG: env.hub.kubeconfig,
      KUBERNETES_EXEC_INFO: execInfo({...spoke, config: {serviceAccount: 'nobody', namespace}}),
    })
    assertFailure(
      result,
      1,
      new RegExp(`^error: token-request: no ServiceAccount ${namespace}/nobody on the hub`),
      secrets,
    )
  })

  it('refuses to guess: no audience, no ServiceAccount, a lifetime out of range (exit 2, before calling the hub)', async () => {
    const unreachableHub = {KUBECONFIG: '/nonexistent/hub.kubeconfig'}
    const noAudience = await runPlugin('token-request', ['--service-account', 'deployer', '-n', namespace], {
      ...unreachableHub,
      KUBERNETES_EXEC_INFO: execInfo(),
    })
    assertFailure(
      noAudience,
      2,
      /^error: token-request: no audience for the token: KUBERNETES_EXEC_INFO has no cluster information/,
      secrets,
    )
    assert.match(noAudience.stderr, /provideClusterInfo: true/)

    const noAccount = await runPlugin('token-request', [], {
      ...unreachableHub,
      KUBERNETES_EXEC_INFO: execInfo(spoke),
    })
    assertFailure(
      noAccount,
      2,
      /^error: token-request: no ServiceAccount to request a token for\n.*--service-account NAME/,
      secrets,
    )

    const tooShort = await runPlugin('token-request', ['--expiration-seconds', '300'], {
      ...unreachableHub,
      KUBERNETES_EXEC_INFO: execInfo({...spoke, config: {serviceAccount: 'deployer', namespace}}),
    })
    assertFailure(
      tooShort,
      2,
      /^error: token-request: --expiration-seconds 300 is out of range: use 600 to 86400/,
      secrets,
    )
  })

  it('kubectl runs it from a kubeconfig that pins the hub, even when KUBECONFIG names the target', async () => {
    const {env} = await testEnv()
    const file = path.join(await tempDir(), 'target.kubeconfig')
    await writeFile(
      file,
      YAML.stringify(
        execKubeconfig(
          {...spoke, extension: {serviceAccount: 'deployer', namespace}},
          {
            apiVersion: V1,
            command: process.execPath,
            args: [cpcredBin, 'plugin', 'token-request'],
            env: [
              {name: 'KUBECONFIG', value: consumer.kubeconfig},
              {name: 'CPCRED_HUB_CONTEXT', value: 'hub'},
            ],
            provideClusterInfo: true,
            interactiveMode: 'Never',
          },
        ),
      ),
      {mode: 0o600},
    )
    const whoami = await runProgram('kubectl', ['--kubeconfig', file, 'auth', 'whoami', '-o', 'json'], {
      env: {...isolatedEnv, KUBECONFIG: env.spoke.kubeconfig},
    })
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(
      JSON.parse(whoami.stdout).status.userInfo.username,
      `hub:system:serviceaccount:${namespace}:deployer`,
    )
  })
})

describe('cpcred plugin secretreader', () => {
  let namespace: string
  let spokeToken: string
  let reader: {kubeconfig: string; token: string}
  let secrets: string[]
  let spoke: {server: string; caData: string}
  const clusterName = 'spoke-1'
  const otherToken = 'other-SECRET-7f3a9c'
  const wrongKeyValue = 'kubeconfig-SECRET-51b2'

  before(async () => {
    const {env, hub} = await testEnv()
    spoke = {server: env.spoke.server, caData: env.spoke.caData}
    namespace = await createNamespace(hub, 'secretreader')
    // The identity the Secret's token gives on the spoke: a hub ServiceAccount token for the spoke's URL.
    await createServiceAccount(hub, namespace, 'deployer')
    spokeToken = await serviceAccountToken(hub, namespace, 'deployer', [env.spoke.server], 3600)
    const secret = (name: string, data: Record<string, string>) =>
      kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {name},
        data: Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
        ),
      })
    // As `kubectl create secret generic --from-file=token` stores a file: with its trailing newline.
    await secret(clusterName, {token: `${spokeToken}\n`})
    await secret('other', {token: otherToken})
    await secret('wrong-key', {kubeconfig: wrongKeyValue})
    reader = await hubConsumer(
      hub,
      namespace,
      'reader',
      [{apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [clusterName]}],
      namespace,
      {verb: 'get', resource: 'secrets', name: clusterName},
    )
    secrets = [spokeToken, reader.token, otherToken, wrongKeyValue]
  })

  const info = (config: unknown, apiVersion = V1) => execInfo({...spoke, config, apiVersion})
  const asReader = (args: string[], execInfoText: string | undefined, env: NodeJS.ProcessEnv = {}) =>
    runPlugin('secretreader', args, {
      KUBECONFIG: reader.kubeconfig,
      KUBERNETES_EXEC_INFO: execInfoText,
      ...env,
    })

  it('returns the token of Secret <context namespace>/<clusterName> with only get on that Secret', async () => {
    const credential = credentialOf(await asReader([], info({clusterName}, V1BETA1)))
    assert.deepEqual(credential, {kind: 'ExecCredential', apiVersion: V1BETA1, status: {token: spokeToken}})

    const whoami = await whoamiOnSpoke(credential.status.token)
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(whoami.username, `hub:system:serviceaccount:${namespace}:deployer`)

    // The consumer really has nothing more: it can neither list Secrets nor read another one.
    const list = await runProgram(
      'kubectl',
      ['--kubeconfig', reader.kubeconfig, 'get', 'secrets', '-n', namespace],
      {
        env: isolatedEnv,
      },
    )
    assert.notEqual(list.code, 0)
    assert.match(list.stderr, /forbidden/i)
  })

  it('reads the namespace from -n, else the context (a context without one means "default")', async () => {
    const {env} = await testEnv()
    const dir = await tempDir()
    const noNamespace = await tokenKubeconfig(dir, 'hub', env.hub.server, env.hub.caData, reader.token, '')
    const withFlag = credentialOf(
      await asReader(['-n', namespace], info({clusterName}), {KUBECONFIG: noNamespace}),
    )
    assert.equal(withFlag.status.token, spokeToken)

    const inDefault = await asReader([], info({clusterName}), {KUBECONFIG: noNamespace})
    assertFailure(
      inDefault,
      4,
      new RegExp(`^error: secretreader: cannot get Secret default/${clusterName} on the hub`),
      secrets,
    )
  })

  it('finds the hub from a KUBECONFIG list and CPCRED_HUB_CONTEXT, as cpcred pins it', async () => {
    const {env} = await testEnv()
    // The first file's current context is an unreachable cluster; the pinned context is the reader's.
    const elsewhere = await tokenKubeconfig(
      await tempDir(),
      'elsewhere',
      'https://127.0.0.1:1',
      env.hub.caData,
      'x',
    )
    const list = `${elsewhere}${path.delimiter}${reader.kubeconfig}`
    const pinned = await asReader([], info({clusterName}), {KUBECONFIG: list, CPCRED_HUB_CONTEXT: 'hub'})
    assert.equal(credentialOf(pinned).status.token, spokeToken)

    const current = await asReader([], info({clusterName}), {KUBECONFIG: list})
    assertFailure(
      current,
      3,
      /^error: secretreader: cannot reach the hub \(context "elsewhere" from kubectl's current context, https:\/\/127\.0\.0\.1:1\)/,
      secrets,
    )
  })

  it('says which RBAC is missing when the hub forbids the Secret (exit 4)', async () => {
    const result = await asReader([], info({clusterName: 'other'}))
    assertFailure(
      result,
      4,
      new RegExp(
        `^error: secretreader: cannot get Secret ${namespace}/other on the hub \\(context "hub" from kubectl's current context, https://127\\.0\\.0\\.1:\\d+\\): ` +
          `User "system:serviceaccount:${namespace}:reader" cannot get resource "secrets"`,
      ),
      secrets,
    )
    assert.match(
      result.stderr,
      new RegExp(`\\n.*"get" on secrets with resourceNames \\["other"\\] in namespace "${namespace}"`),
    )
  })

  it('names a missing Secret (exit 1) and a Secret without a token key, never its values (exit 1)', async () => {
    const {env} = await testEnv()
    const admin = {KUBECONFIG: env.hub.kubeconfig}
    const missing = await asReader(['-n', namespace], info({clusterName: 'absent'}), admin)
    assertFailure(
      missing,
      1,
      new RegExp(`^error: secretreader: no Secret ${namespace}/absent on the hub \\(context "hub"`),
      secrets,
    )

    const wrongKey = await asReader(['-n', namespace], info({clusterName: 'wrong-key'}), admin)
    assertFailure(
      wrongKey,
      1,
      new RegExp(
        `^error: secretreader: Secret ${namespace}/wrong-key on the hub has no "token" key \\(its keys: "kubeconfig"\\)`,
      ),
      secrets,
    )
  })

  it('explains missing exec info, cluster information or clusterName (exit 2, before calling the hub)', async () => {
    const unreachableHub = {KUBECONFIG: '/nonexistent/hub.kubeconfig'}
    const noInfo = await runPlugin('secretreader', [], unreachableHub)
    assertFailure(noInfo, 2, /^error: secretreader: KUBERNETES_EXEC_INFO is not set/, secrets)
    const noCluster = await runPlugin('secretreader', [], {
      ...unreachableHub,
      KUBERNETES_EXEC_INFO: execInfo(),
    })
    assertFailure(
      noCluster,
      2,
      /^error: secretreader: KUBERNETES_EXEC_INFO has no cluster information.*\n.*provideClusterInfo: true/,
      secrets,
    )
    const noName = await runPlugin('secretreader', [], {
      ...unreachableHub,
      KUBERNETES_EXEC_INFO: info({region: 'eu'}),
    })
    assertFailure(
      noName,
      2,
      /^error: secretreader: no clusterName in spec\.cluster\.config for https:\/\/127\.0\.0\.1:\d+\n/,
      secrets,
    )
  })

  it("works unchanged where the upstream plugin ran: its provider file's execConfig, run by the real kubectl", async () => {
    // The upstream README's provider entry, with only the command replaced by cpcred.
    const upstream = {
      name: 'secretreader',
      execConfig: {apiVersion: V1, command: '/usr/local/bin/secretreader-plugin', provideClusterInfo: true},
    }
    const execConfig = {
      ...upstream.execConfig,
      command: process.execPath,
      args: [cpcredBin, 'plugin', 'secretreader'],
    }
    const file = path.join(await tempDir(), 'target.kubeconfig')
    // A kubeconfig v1 user.exec needs interactiveMode; everything else is the provider's execConfig.
    await writeFile(
      file,
      YAML.stringify(
        execKubeconfig({...spoke, extension: {clusterName}}, {...execConfig, interactiveMode: 'Never'}),
      ),
      {mode: 0o600},
    )
    // Like the upstream plugin, it finds the hub in $KUBECONFIG (the consumer's) and its current context.
    const whoami = await runProgram('kubectl', ['--kubeconfig', file, 'auth', 'whoami', '-o', 'json'], {
      env: {...isolatedEnv, KUBECONFIG: reader.kubeconfig},
    })
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(
      JSON.parse(whoami.stdout).status.userInfo.username,
      `hub:system:serviceaccount:${namespace}:deployer`,
    )
  })
})

describe('the built-in plugins through cpcred credential', () => {
  it('serve both profiles from a provider file, with the hub pinned and the expiring token cached', async () => {
    const {env, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'builtin')
    await createServiceAccount(hub, namespace, 'deployer')
    const spokeToken = await serviceAccountToken(hub, namespace, 'deployer', [env.spoke.server], 3600)
    // The admin context has no namespace, so the Secret is looked up in "default", as upstream would.
    const secretName = uniqueName('spoke')
    await kubeCall(hub, 'POST', '/api/v1/namespaces/default/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {name: secretName},
      stringData: {token: spokeToken},
    })
    const profile = (name: string, provider: string, extension: unknown) =>
      applyProfile(hub, {
        metadata: {name, namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: provider,
              cluster: {
                server: env.spoke.server,
                'certificate-authority-data': env.spoke.caData,
                extensions: [{name: EXEC_EXTENSION, extension}],
              },
            },
          ],
        },
      })
    await profile('by-secret', 'secretreader', {clusterName: secretName})
    await profile('by-token', 'token-request', {serviceAccount: 'deployer', namespace})
    const providerFile = await writeProviderFile(await tempDir(), [
      {
        name: 'token-request',
        execConfig: {
          apiVersion: V1,
          command: process.execPath,
          args: [cpcredBin, 'plugin', 'token-request'],
          provideClusterInfo: true,
          interactiveMode: 'Never',
        },
      },
      // The upstream secretreader's provider entry, only the command replaced.
      {
        name: 'secretreader',
        execConfig: {
          apiVersion: V1,
          command: process.execPath,
          args: [cpcredBin, 'plugin', 'secretreader'],
          provideClusterInfo: true,
        },
      },
    ])
    const cacheHome = await tempDir('cpcred-cache-')
    // KUBECONFIG names the target, as under kubectl: the hub reaches the plugins only through the pin.
    const credential = (profileName: string, ...args: string[]) =>
      cpcred(
        [
          'credential',
          `${namespace}/${profileName}`,
          '--provider-file',
          providerFile,
          '--kubeconfig',
          env.hub.kubeconfig,
          ...args,
        ],
        {KUBECONFIG: env.spoke.kubeconfig, XDG_CACHE_HOME: cacheHome},
      )

    const bySecret = credentialOf(await credential('by-secret', '--no-cache'))
    assert.equal(bySecret.status.token, spokeToken)

    const first = await credential('by-token', '-v')
    const byToken = credentialOf(first)
    assert.match(first.stderr, /from the plugin/)
    const jwt = claims(byToken.status.token)
    assert.deepEqual(jwt.aud, [env.spoke.server])
    assert.equal(jwt.sub, `system:serviceaccount:${namespace}:deployer`)
    assert.equal(byToken.status.expirationTimestamp, formatRfc3339(new Date(jwt.exp * 1000)))
    const whoami = await whoamiOnSpoke(byToken.status.token)
    assert.equal(whoami.username, `hub:system:serviceaccount:${namespace}:deployer`)

    const again = await credential('by-token', '-v')
    assert.equal(credentialOf(again).status.token, byToken.status.token)
    assert.match(again.stderr, /from the cache/)
  })
})

/** A kubeconfig for the spoke whose user runs `exec`, with the exec extension on the cluster. */
function execKubeconfig(
  cluster: {server: string; caData: string; extension: unknown},
  exec: Record<string, unknown>,
) {
  const name = uniqueName('target')
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: cluster.server,
          'certificate-authority-data': cluster.caData,
          extensions: [{name: EXEC_EXTENSION, extension: cluster.extension}],
        },
      },
    ],
    users: [{name, user: {exec}}],
    contexts: [{name, context: {cluster: name, user: name}}],
    'current-context': name,
  }
}

describe('the documented provider file, where no cpcred is on PATH', () => {
  // krew puts only kubectl-cpcred on PATH, and the archive may be run from its folder: the provider
  // file of docs/examples/providers.json names "command": "cpcred", which cpcred runs as itself.
  it('runs the built-in plugins for exec, whoami, doctor and a --mode plugin kubeconfig kubectl reads', async () => {
    const {env} = await testEnv()
    const {namespace, username} = await tokenRequestProfile('selfnamed')
    // Only kubectl and Node: the machine's own directories hold no cpcred.
    const tools = await tempDir('cpcred-tools-')
    const kubectl = (await runProgram('sh', ['-c', 'command -v kubectl'])).stdout.trim()
    await symlink(kubectl, path.join(tools, 'kubectl'))
    await symlink(process.execPath, path.join(tools, 'node'))
    const PATH = [tools, '/usr/bin', '/bin'].join(path.delimiter)
    const found = await runProgram('sh', ['-c', 'command -v cpcred kubectl-cpcred'], {env: {PATH}})
    assert.equal(found.stdout, '', 'a cpcred is on the PATH this test hides it from')

    const selection = [
      `${namespace}/target`,
      '--kubeconfig',
      env.hub.kubeconfig,
      '--provider-file',
      documentedProviderFile,
    ]
    const exec = await cpcred(['exec', ...selection, '--', 'kubectl', 'auth', 'whoami', '-o', 'json'], {PATH})
    assert.equal(exec.code, 0, exec.stderr)
    assert.equal(JSON.parse(exec.stdout).status.userInfo.username, username)

    const whoami = await cpcred(['whoami', ...selection, '-o', 'json'], {PATH})
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, username)

    const doctor = await cpcred(['doctor', ...selection, '-o', 'json'], {PATH})
    const report = JSON.parse(doctor.stdout) as DoctorJson
    const checks = report.profiles[0]!.checks
    assert.deepEqual(
      checks.filter((check) => check.id.startsWith('plugin')).map((check) => [check.id, check.status]),
      [
        ['plugin-command', 'ok'],
        ['plugin-run', 'ok'],
      ],
      doctor.stdout,
    )
    assert.equal(doctor.code, 0, `${doctor.stdout}\n${doctor.stderr}`)

    // kubectl runs the entry itself: it must name this cpcred, not a "cpcred" PATH lacks.
    const kubeconfig = path.join(tools, 'target.yaml')
    const written = await cpcred(
      ['kubeconfig', ...selection, '--mode', 'plugin', '--output-file', kubeconfig],
      {
        PATH,
      },
    )
    assert.equal(written.code, 0, written.stderr)
    const user = YAML.parse(await readFile(kubeconfig, 'utf8')).users[0].user.exec
    assert.equal(user.command, cpcredBin)
    assert.deepEqual(user.args, ['plugin', 'token-request'])
    const viaKubectl = await runProgram(
      'kubectl',
      ['auth', 'whoami', '-o', 'json', '--kubeconfig', kubeconfig],
      {
        env: {...isolatedEnv, PATH},
      },
    )
    assert.equal(viaKubectl.code, 0, viaKubectl.stderr)
    assert.equal(JSON.parse(viaKubectl.stdout).status.userInfo.username, username)
  })
})
