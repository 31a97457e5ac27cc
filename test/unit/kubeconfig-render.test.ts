import assert from 'node:assert/strict'
import {providersFrom} from '../../src/core/access/provider-selection.js'
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  type AccessProvider,
  type ClusterProfile,
} from '../../src/core/profiles/cluster-profile.js'
import {ExitCode, UsageError} from '../../src/core/errors.js'
import {emitKubeconfig} from '../../src/core/kubeconfig/text.js'
import {
  federatedEntryNotes,
  hubPinWarnings,
  renderKubeconfig,
  type KubeconfigEntryInput,
  type RenderKubeconfigOptions,
} from '../../src/core/kubeconfig/render.js'
import type {KubeconfigDocument} from '../../src/core/kubeconfig/document.js'
import {mergeIntoKubeconfig} from '../../src/core/kubeconfig/merge.js'
import {HUB_CONTEXT_ENV, HUB_KUBECONFIG_ENV} from '../../src/core/profiles/hub-pin.js'
import {
  parseAccessProviderFlag,
  parseProviderFile,
  type Provider,
} from '../../src/core/access/provider-file.js'
import {resolveAccess} from '../../src/core/access/resolve-access.js'

const GOLDEN_DIR = fileURLToPath(new URL('../fixtures/kubeconfig/', import.meta.url))
// A real (throwaway, self-signed) CA certificate: kubectl parses certificate-authority-data.
const CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUZ1BM3vehURKOKRL8EWO/Kap/KogwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNZmxlZXQtdGVzdC1jYTAgFw0yNjExMjIwNDU1NDRaGA8yMTI2
MTAyOTA0NTU0NFowGDEWMBQGA1UEAwwNZmxlZXQtdGVzdC1jYTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABMs+/ny5SNyJWFOJE2g3If87+hfAXiKugb/vjQgHnjv2
FZ+ASvk3Sl4ih0aPpmbrfK8AJlq6TMwp6eMINs4bXiWjUzBRMB0GA1UdDgQWBBT3
zKFOZ2kakBtcIXeu4qqT2DxfDzAfBgNVHSMEGDAWgBT3zKFOZ2kakBtcIXeu4qqT
2DxfDzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIGRA+/Wo3h5o
Yjx2ZyfX/yLY6rgQuyaaUyH4RXkWXxZ6AiAgL17TLrs/5kAS9bKUg4yR5Z/4kaJv
oyTksnKK6UauCA==
-----END CERTIFICATE-----
`
const CA_DATA = Buffer.from(CA_PEM).toString('base64')
const HUB: RenderKubeconfigOptions['hub'] = {
  kubeconfigPaths: ['/home/ada/.kube/hub.yaml'],
  context: 'hub-admin',
}
const CPCRED = ['/opt/cpcred/bin/node', '/opt/cpcred/bin/run.js']

/** Compares the kubeconfig printed as kubectl would with its golden file; UPDATE_GOLDEN=1 rewrites it. */
async function assertGolden(name: string, document: unknown): Promise<void> {
  const file = path.join(GOLDEN_DIR, `${name}.yaml`)
  const text = await emitKubeconfig(document)
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(GOLDEN_DIR, {recursive: true})
    writeFileSync(file, text)
    return
  }
  let golden: string
  try {
    golden = readFileSync(file, 'utf8')
  } catch {
    assert.fail(`golden file ${file} is missing; run the tests with UPDATE_GOLDEN=1 to write it`)
  }
  assert.equal(text, golden, `${file} differs; if the change is intended, run with UPDATE_GOLDEN=1`)
}

function providers(list: unknown[]): Provider[] {
  return parseProviderFile(JSON.stringify({providers: list}), 'providers.json').providers
}

function profile(key: string, accessProviders: AccessProvider[]): ClusterProfile {
  const [namespace, name] = key.split('/') as [string, string]
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, namespace, labels: {'x-k8s.io/cluster-manager': 'fleet-manager'}},
    spec: {clusterManager: {name: 'fleet-manager'}},
    status: {accessProviders},
  }
}

/** A provider of this name whose cluster is `https://<name>.<namespace>.example`. */
function simpleProfile(key: string, provider = 'token'): ClusterProfile {
  const [namespace, name] = key.split('/') as [string, string]
  return profile(key, [{name: provider, cluster: {server: `https://${name}.${namespace}.example`}}])
}

const TOKEN_PROVIDERS = providers([
  {
    name: 'token',
    execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/usr/bin/token-plugin'},
  },
])

function entries(profiles: ClusterProfile[], from: Provider[] = TOKEN_PROVIDERS): KubeconfigEntryInput[] {
  return profiles.map((item) => ({resolution: resolveAccess(item, from)}))
}

function expectUsageError(action: () => unknown, ...patterns: RegExp[]): UsageError {
  let caught: unknown
  try {
    action()
  } catch (error) {
    caught = error
  }
  assert.ok(caught instanceof UsageError, `expected a UsageError, got ${String(caught)}`)
  assert.equal(caught.exitCode, ExitCode.Usage)
  for (const pattern of patterns) assert.match(`${caught.message}\n${caught.hint ?? ''}`, pattern)
  return caught
}

// A profile that uses every cluster field and every reserved extension, and a consumer that opted in
// to profile-sourced args and env: the whole pipeline from ClusterProfile to kubeconfig.
const FULL_PROFILE = profile('fleet/prod-eu', [
  {
    name: 'secretreader',
    cluster: {
      server: 'https://prod-eu.fleet.example:6443',
      'certificate-authority-data': CA_DATA,
      'tls-server-name': 'api.prod-eu.internal',
      'proxy-url': 'socks5://proxy.fleet.example:1080',
      'disable-compression': true,
      extensions: [
        {
          name: EXEC_EXTENSION,
          extension: {audience: 'https://prod-eu.fleet.example', clusterName: 'prod-eu'},
        },
        {name: ADDITIONAL_ARGS_EXTENSION, extension: ['--region', 'eu-west-1']},
        {name: ADDITIONAL_ENVS_EXTENSION, extension: {TRACE: '1', REGION: 'eu-west-1'}},
      ],
    },
  },
])
const FULL_PROVIDERS = providers([
  {
    name: 'secretreader',
    execConfig: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: '/usr/local/bin/secretreader-plugin',
      args: ['--verbosity', '2'],
      env: [{name: 'LOG_FORMAT', value: 'json'}],
      provideClusterInfo: true,
      interactiveMode: 'IfAvailable',
      installHint: 'go install sigs.k8s.io/cluster-inventory-api/cmd/secretreader-plugin@latest',
    },
    profileSourcedCLIArgsPolicy: 'Append',
    profileSourcedEnvVarsPolicy: 'AppendIfNotExists',
  },
])

// kubectl refuses CA data together with insecure-skip-tls-verify, so that field gets its own profile.
const INSECURE_PROFILE = profile('fleet/staging', [
  {name: 'token', cluster: {server: 'https://staging.fleet.example', 'insecure-skip-tls-verify': true}},
])

describe('renderKubeconfig --mode plugin', () => {
  it('writes every cluster field, the exec extension and the resolved plugin', async () => {
    const document = renderKubeconfig(
      [...entries([FULL_PROFILE], FULL_PROVIDERS), ...entries([INSECURE_PROFILE])],
      {mode: 'plugin', hub: HUB},
    )
    await assertGolden('plugin-mode', document)

    const [full, minimal] = document.clusters
    assert.deepEqual(full?.cluster, {
      'certificate-authority-data': CA_DATA,
      'disable-compression': true,
      extensions: [
        {
          extension: {audience: 'https://prod-eu.fleet.example', clusterName: 'prod-eu'},
          name: EXEC_EXTENSION,
        },
      ],
      'proxy-url': 'socks5://proxy.fleet.example:1080',
      server: 'https://prod-eu.fleet.example:6443',
      'tls-server-name': 'api.prod-eu.internal',
    })
    assert.deepEqual(minimal?.cluster, {
      'insecure-skip-tls-verify': true,
      server: 'https://staging.fleet.example',
    })
    const exec = document.users[0]?.user.exec
    assert.deepEqual(exec?.args, ['--verbosity', '2', '--region', 'eu-west-1'])
    assert.deepEqual(exec?.env, [
      {name: 'LOG_FORMAT', value: 'json'},
      {name: 'REGION', value: 'eu-west-1'},
      {name: 'TRACE', value: '1'},
      {name: HUB_KUBECONFIG_ENV, value: '/home/ada/.kube/hub.yaml'},
      {name: HUB_CONTEXT_ENV, value: 'hub-admin'},
    ])
    assert.equal(document['current-context'], 'fleet/prod-eu')
  })

  it('orders keys as kubectl config view prints them and keeps the fields client-go never omits', () => {
    const document = renderKubeconfig(entries([simpleProfile('fleet/staging')]), {
      mode: 'plugin',
      hub: HUB,
      pinHub: false,
    })
    assert.deepEqual(Object.keys(document), [
      'apiVersion',
      'clusters',
      'contexts',
      'current-context',
      'kind',
      'users',
    ])
    assert.deepEqual(Object.keys(document.clusters[0] ?? {}), ['cluster', 'name'])
    assert.deepEqual(Object.keys(document.contexts[0] ?? {}), ['context', 'name'])
    assert.deepEqual(Object.keys(document.users[0] ?? {}), ['name', 'user'])
    // args, env and provideClusterInfo have no omitempty in clientcmd/api/v1; installHint does.
    assert.deepEqual(document.users[0]?.user.exec, {
      apiVersion: 'client.authentication.k8s.io/v1',
      args: [],
      command: '/usr/bin/token-plugin',
      env: [],
      interactiveMode: 'Never',
      provideClusterInfo: false,
    })
    assert.deepEqual(Object.keys(document.users[0]?.user.exec ?? {}), [
      'apiVersion',
      'args',
      'command',
      'env',
      'interactiveMode',
      'provideClusterInfo',
    ])
    const full = renderKubeconfig(entries([FULL_PROFILE], FULL_PROVIDERS), {mode: 'plugin', hub: HUB})
    assert.deepEqual(Object.keys(full.users[0]?.user.exec ?? {}), [
      'apiVersion',
      'args',
      'command',
      'env',
      'installHint',
      'interactiveMode',
      'provideClusterInfo',
    ])
    assert.deepEqual(Object.keys(full.clusters[0]?.cluster ?? {}), [
      'certificate-authority-data',
      'disable-compression',
      'extensions',
      'proxy-url',
      'server',
      'tls-server-name',
    ])
    const insecure = renderKubeconfig(entries([INSECURE_PROFILE]), {mode: 'plugin', hub: HUB})
    assert.deepEqual(Object.keys(insecure.clusters[0]?.cluster ?? {}), ['insecure-skip-tls-verify', 'server'])
  })

  it('passes the exec extension verbatim, key order and all, and only when the profile has one', () => {
    const extension = {zeta: [3, 1, 2], clusterName: 'c1', nested: {b: null, a: {deep: true}}}
    const withExtension = profile('fleet/c1', [
      {
        name: 'token',
        cluster: {server: 'https://c1.example', extensions: [{name: EXEC_EXTENSION, extension}]},
      },
    ])
    const document = renderKubeconfig(entries([withExtension, simpleProfile('fleet/c2')]), {
      mode: 'plugin',
      hub: HUB,
    })
    const [named] = document.clusters[0]?.cluster.extensions ?? []
    assert.deepEqual(Object.keys(named ?? {}), ['extension', 'name'])
    assert.equal(named?.name, 'client.authentication.k8s.io/exec')
    assert.equal(JSON.stringify(named?.extension), JSON.stringify(extension))
    assert.equal('extensions' in (document.clusters[1]?.cluster ?? {}), false)
  })

  it('leaves out the profile extensions that only feed the resolution', () => {
    const document = renderKubeconfig(entries([FULL_PROFILE], FULL_PROVIDERS), {mode: 'plugin', hub: HUB})
    assert.deepEqual(
      document.clusters[0]?.cluster.extensions?.map((extension) => extension.name),
      [EXEC_EXTENSION],
    )
  })

  it('writes a profile only once when it is named twice', () => {
    const document = renderKubeconfig(entries([simpleProfile('fleet/a'), simpleProfile('fleet/a')]), {
      mode: 'plugin',
      hub: HUB,
    })
    assert.deepEqual(
      document.contexts.map((context) => context.name),
      ['fleet/a'],
    )
  })

  it('renders an empty kubeconfig for no profiles', () => {
    const document = renderKubeconfig([], {mode: 'plugin', hub: HUB})
    assert.deepEqual(document, {
      apiVersion: 'v1',
      clusters: [],
      contexts: [],
      'current-context': '',
      kind: 'Config',
      users: [],
    })
  })
})

describe('renderKubeconfig: hub pinning', () => {
  const envOf = (document: KubeconfigDocument, index = 0) => document.users[index]?.user.exec.env

  it('adds KUBECONFIG and CPCRED_HUB_CONTEXT last, after the resolved env', () => {
    const document = renderKubeconfig(
      entries(
        [simpleProfile('fleet/a')],
        providers([
          {
            name: 'token',
            execConfig: {
              apiVersion: 'client.authentication.k8s.io/v1',
              command: '/usr/bin/token-plugin',
              env: [
                {name: 'B', value: '2'},
                {name: 'A', value: '1'},
              ],
            },
          },
        ]),
      ),
      {mode: 'plugin', hub: {kubeconfigPaths: ['/etc/hub/one.yaml', '/etc/hub/two.yaml'], context: 'hub'}},
    )
    assert.deepEqual(envOf(document), [
      {name: 'B', value: '2'},
      {name: 'A', value: '1'},
      {name: 'KUBECONFIG', value: `/etc/hub/one.yaml${path.delimiter}/etc/hub/two.yaml`},
      {name: 'CPCRED_HUB_CONTEXT', value: 'hub'},
    ])
  })

  it('adds nothing with pinHub false: the exec entry is exactly what resolveAccess produced', () => {
    const resolved = entries([FULL_PROFILE], FULL_PROVIDERS)
    const document = renderKubeconfig(resolved, {mode: 'plugin', hub: HUB, pinHub: false})
    const {execConfig} = resolved[0]!.resolution
    assert.deepEqual(document.users[0]?.user.exec, {
      apiVersion: execConfig.apiVersion,
      args: execConfig.args,
      command: execConfig.command,
      env: execConfig.env,
      installHint: execConfig.installHint,
      interactiveMode: execConfig.interactiveMode,
      provideClusterInfo: execConfig.provideClusterInfo,
    })
  })

  it('adds neither variable when the provider sets one of them', () => {
    for (const preset of ['KUBECONFIG', 'CPCRED_HUB_CONTEXT']) {
      const env = [{name: preset, value: '/etc/controller/hub.yaml'}]
      const document = renderKubeconfig(
        entries(
          [simpleProfile('fleet/a')],
          providers([
            {
              name: 'token',
              execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/p', env},
            },
          ]),
        ),
        {mode: 'plugin', hub: HUB},
      )
      assert.deepEqual(envOf(document), env, `provider sets ${preset}`)
    }
  })

  it('never lets a profile choose the hub: its KUBECONFIG is refused and the pin is added', () => {
    const fromProfile = profile('fleet/a', [
      {
        name: 'token',
        cluster: {
          server: 'https://a.example',
          extensions: [
            {name: ADDITIONAL_ENVS_EXTENSION, extension: {KUBECONFIG: '/home/ada/.kube/prod', ZONE: 'b'}},
          ],
        },
      },
    ])
    const consumer = providers([
      {
        name: 'token',
        execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/p'},
        profileSourcedEnvVarsPolicy: 'AppendIfNotExists',
      },
    ])
    const resolved = entries([fromProfile], consumer)
    assert.ok(!resolved[0]?.resolution.execConfig.env?.some((variable) => variable.name === 'KUBECONFIG'))
    assert.match(resolved[0]!.resolution.warnings.join('\n'), /tries to set KUBECONFIG/)
    assert.deepEqual(envOf(renderKubeconfig(resolved, {mode: 'plugin', hub: HUB})), [
      {name: 'ZONE', value: 'b'},
      {name: 'KUBECONFIG', value: '/home/ada/.kube/hub.yaml'},
      {name: 'CPCRED_HUB_CONTEXT', value: 'hub-admin'},
    ])
    assert.deepEqual(envOf(renderKubeconfig(resolved, {mode: 'plugin', hub: HUB, pinHub: false})), [
      {name: 'ZONE', value: 'b'},
    ])
  })

  it('refuses a relative hub kubeconfig path, which kubectl would resolve against the wrong directory', () => {
    assert.throws(
      () =>
        renderKubeconfig(entries([simpleProfile('fleet/a')]), {
          mode: 'plugin',
          hub: {kubeconfigPaths: ['hub.yaml'], context: 'h'},
        }),
      /hub kubeconfig path "hub.yaml" is not absolute/,
    )
  })

  it('warns when plugins that read KUBECONFIG as one file would miss the hub', () => {
    const resolved = entries([simpleProfile('fleet/a')])
    const twoFiles = {kubeconfigPaths: ['/a/hub', '/b/hub'], context: 'hub', currentContext: 'hub'}
    const otherCurrent = {kubeconfigPaths: ['/a/hub'], context: 'hub', currentContext: 'dev'}
    assert.match(
      hubPinWarnings(resolved, {mode: 'plugin', hub: twoFiles}).join('\n'),
      /2 kubeconfig files.*secretreader/,
    )
    assert.match(
      hubPinWarnings(resolved, {mode: 'plugin', hub: otherCurrent}).join('\n'),
      /"hub" is not the current context \("dev"\)/,
    )
    assert.deepEqual(
      hubPinWarnings(resolved, {mode: 'plugin', hub: {...otherCurrent, currentContext: 'hub'}}),
      [],
    )
    assert.deepEqual(hubPinWarnings(resolved, {mode: 'plugin', hub: twoFiles, pinHub: false}), [])
    assert.deepEqual(hubPinWarnings(resolved, {mode: 'cpcred', hub: twoFiles, cpcredCommand: CPCRED}), [])
  })

  it("warns for no entry whose plugin is cpcred's own, which reads both pins as cpcred does", () => {
    const file = JSON.stringify({
      providers: [
        {
          name: 'token',
          execConfig: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: 'cpcred',
            args: ['plugin', 'token-request'],
          },
        },
      ],
    })
    const builtin = providersFrom('/p/providers.json', file, {}, '/w', '/opt/cpcred/cpcred').providers
    const twoFiles = {kubeconfigPaths: ['/a/hub', '/b/hub'], context: 'hub', currentContext: 'dev'}
    assert.deepEqual(
      hubPinWarnings(entries([simpleProfile('fleet/a')], builtin), {mode: 'plugin', hub: twoFiles}),
      [],
    )
    // One other plugin among them is enough to warn.
    const mixed = [...entries([simpleProfile('fleet/a')], builtin), ...entries([simpleProfile('fleet/b')])]
    assert.equal(hubPinWarnings(mixed, {mode: 'plugin', hub: twoFiles}).length, 2)
  })
})

describe('renderKubeconfig --mode cpcred', () => {
  const options = (extra: Partial<RenderKubeconfigOptions> = {}): RenderKubeconfigOptions => ({
    mode: 'cpcred',
    hub: HUB,
    cpcredCommand: CPCRED,
    providerFile: '/home/ada/.config/cpcred/providers.json',
    ...extra,
  })

  it('runs cpcred credential with the hub and the provider file pinned by absolute path', async () => {
    const document = renderKubeconfig(entries([FULL_PROFILE], FULL_PROVIDERS), options())
    await assertGolden('cpcred-mode', document)
    assert.deepEqual(document.users[0]?.user.exec, {
      apiVersion: 'client.authentication.k8s.io/v1',
      args: [
        '/opt/cpcred/bin/run.js',
        'credential',
        'fleet/prod-eu',
        '--kubeconfig=/home/ada/.kube/hub.yaml',
        '--context=hub-admin',
        '--provider-file=/home/ada/.config/cpcred/providers.json',
      ],
      command: '/opt/cpcred/bin/node',
      env: [],
      installHint:
        'cpcred obtains the credentials for fleet/prod-eu, but /opt/cpcred/bin/node was not found. ' +
        'Install cpcred, then write this kubeconfig again with: cpcred kubeconfig fleet/prod-eu --mode cpcred',
      interactiveMode: 'IfAvailable',
      provideClusterInfo: false,
    })
    // The cluster is the same as in plugin mode: only who runs the plugin changes.
    const plugin = renderKubeconfig(entries([FULL_PROFILE], FULL_PROVIDERS), {mode: 'plugin', hub: HUB})
    assert.deepEqual(document.clusters, plugin.clusters)
  })

  it('passes a hub made of several files as KUBECONFIG, since --kubeconfig takes one file', () => {
    const document = renderKubeconfig(
      entries([simpleProfile('fleet/a')]),
      options({hub: {kubeconfigPaths: ['/a/hub', '/b/hub'], context: 'hub'}}),
    )
    const exec = document.users[0]?.user.exec
    assert.deepEqual(exec?.args, [
      '/opt/cpcred/bin/run.js',
      'credential',
      'fleet/a',
      '--context=hub',
      '--provider-file=/home/ada/.config/cpcred/providers.json',
    ])
    assert.deepEqual(exec?.env, [{name: 'KUBECONFIG', value: `/a/hub${path.delimiter}/b/hub`}])
  })

  it('repeats providers given as flags so cpcred credential resolves the same way', () => {
    const flag = "token='/usr/bin/token-plugin --audience spoke'"
    const document = renderKubeconfig(
      entries([simpleProfile('fleet/a')], [parseAccessProviderFlag(flag)]),
      options({providerFile: undefined, accessProviders: [flag, '-odd=/bin/x']}),
    )
    assert.deepEqual(document.users[0]?.user.exec.args.slice(-3), [
      '--context=hub-admin',
      `--access-provider=${flag}`,
      '--access-provider=-odd=/bin/x',
    ])
  })

  it('writes every value as --flag=value, so one that starts with "-" stays a value', () => {
    const document = renderKubeconfig(
      entries([simpleProfile('fleet/a')]),
      options({hub: {kubeconfigPaths: ['/hub'], context: '-dash-context'}}),
    )
    const args = document.users[0]?.user.exec.args ?? []
    assert.ok(args.includes('--context=-dash-context'), JSON.stringify(args))
    assert.equal(args.includes('-dash-context'), false)
  })

  it('asks kubectl for a terminal only when the plugin may use one', () => {
    const modes = [
      ['Never', 'Never'],
      ['IfAvailable', 'IfAvailable'],
      // A cached credential needs no terminal; cpcred credential fails fast itself without one.
      ['Always', 'IfAvailable'],
    ]
    for (const [inner, outer] of modes) {
      const from = providers([
        {
          name: 'token',
          execConfig: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: '/bin/p',
            interactiveMode: inner,
          },
        },
      ])
      const document = renderKubeconfig(entries([simpleProfile('fleet/a')], from), options())
      assert.equal(document.users[0]?.user.exec.interactiveMode, outer, `inner ${inner}`)
    }
  })

  it('refuses a launcher given as a relative path, and takes a bare name', () => {
    assert.throws(
      () => renderKubeconfig(entries([simpleProfile('fleet/a')]), options({cpcredCommand: ['bin/cpcred']})),
      /cpcred command path "bin\/cpcred" is not absolute/,
    )
    // A bare name is kubectl's to find on PATH.
    const bare = renderKubeconfig(entries([simpleProfile('fleet/a')]), options({cpcredCommand: ['cpcred']}))
    assert.equal(bare.users[0]?.user.exec.command, 'cpcred')
    assert.throws(
      () => renderKubeconfig(entries([simpleProfile('fleet/a')]), options({providerFile: 'providers.json'})),
      /provider file path "providers.json" is not absolute/,
    )
    assert.throws(
      () => renderKubeconfig(entries([simpleProfile('fleet/a')]), options({cpcredCommand: []})),
      /needs cpcredCommand/,
    )
  })
})

describe('renderKubeconfig: a federated provider (serviceAccountToken) in plugin mode', () => {
  // Its plugin needs a hub token in a file that only cpcred mints: run directly by kubectl it would
  // get none, so its entry runs cpcred credential; the other entries keep running their plugins.
  const FEDERATED = providers([
    ...TOKEN_PROVIDERS.map(({name, execConfig}) => ({name, execConfig})),
    {
      name: 'eks',
      execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'aws', args: ['eks', 'get-token']},
      serviceAccountToken: {
        audience: 'sts.amazonaws.com',
        fileEnv: 'AWS_WEB_IDENTITY_TOKEN_FILE',
        serviceAccount: 'fleet/deployer',
      },
    },
  ])
  const PROVIDER_FILE = '/home/ada/.config/cpcred/providers.json'
  const options = (extra: Partial<RenderKubeconfigOptions> = {}): RenderKubeconfigOptions => ({
    mode: 'plugin',
    hub: HUB,
    cpcredCommand: CPCRED,
    providerFile: PROVIDER_FILE,
    ...extra,
  })
  const fleet = () => entries([simpleProfile('fleet/a', 'eks'), simpleProfile('fleet/b')], FEDERATED)

  it("writes the federated profile's entry in cpcred mode and says why; the others run their plugin", () => {
    const document = renderKubeconfig(fleet(), options())
    const exec = (name: string) => document.users.find((user) => user.name === name)?.user.exec
    assert.equal(exec('fleet/a')?.command, CPCRED[0])
    assert.deepEqual(exec('fleet/a')?.args, [
      ...CPCRED.slice(1),
      'credential',
      'fleet/a',
      '--kubeconfig=/home/ada/.kube/hub.yaml',
      '--context=hub-admin',
      `--provider-file=${PROVIDER_FILE}`,
    ])
    assert.equal(exec('fleet/b')?.command, '/usr/bin/token-plugin')
    assert.deepEqual(federatedEntryNotes(fleet(), options()), [
      'provider "eks" federates through serviceAccountToken, a hub token only cpcred can hand its plugin, ' +
        "so the entries of fleet/a run 'cpcred credential' (as with --mode cpcred)",
    ])
    // Nothing to say in cpcred mode, or without a federated provider.
    assert.deepEqual(federatedEntryNotes(fleet(), options({mode: 'cpcred'})), [])
    assert.deepEqual(federatedEntryNotes(entries([simpleProfile('fleet/b')], FEDERATED), options()), [])
  })

  it('does not warn about the hub pin for an entry that is not pinned', () => {
    const spread = options({hub: {...HUB, kubeconfigPaths: ['/a/hub.yaml', '/b/hub.yaml']}})
    assert.deepEqual(hubPinWarnings(entries([simpleProfile('fleet/a', 'eks')], FEDERATED), spread), [])
    assert.equal(hubPinWarnings(fleet(), spread).length, 1)
  })

  it('refuses it with the in-cluster hub, which a cpcred credential entry cannot name, saying what works', () => {
    expectUsageError(
      () =>
        renderKubeconfig(
          fleet(),
          options({hub: {kubeconfigPaths: [], context: 'in-cluster', inCluster: true}}),
        ),
      /cannot write an entry for fleet\/a: provider "eks" federates through serviceAccountToken/,
      /cpcred exec fleet\/a -- kubectl/,
    )
  })
})

describe('renderKubeconfig: impersonation', () => {
  it('writes as and as-groups with their kubeconfig names, before exec', async () => {
    const document = renderKubeconfig(entries([simpleProfile('fleet/a')]), {
      mode: 'plugin',
      hub: HUB,
      pinHub: false,
      as: 'ada@example.com',
      asGroups: ['sre', 'oncall'],
    })
    await assertGolden('impersonation', document)
    assert.deepEqual(Object.keys(document.users[0]?.user ?? {}), ['as', 'as-groups', 'exec'])
    assert.equal(document.users[0]?.user.as, 'ada@example.com')
    assert.deepEqual(document.users[0]?.user['as-groups'], ['sre', 'oncall'])
  })

  it('leaves out as-groups when there are none', () => {
    const document = renderKubeconfig(entries([simpleProfile('fleet/a')]), {
      mode: 'plugin',
      hub: HUB,
      as: 'ada',
      asGroups: [],
    })
    assert.deepEqual(Object.keys(document.users[0]?.user ?? {}), ['as', 'exec'])
  })

  it('refuses groups without a user, which client-go would silently drop', () => {
    expectUsageError(
      () =>
        renderKubeconfig(entries([simpleProfile('fleet/a')]), {mode: 'plugin', hub: HUB, asGroups: ['sre']}),
      /--as-group needs --as/,
    )
  })
})

describe('renderKubeconfig: names', () => {
  const two = () => entries([simpleProfile('fleet/a'), simpleProfile('edge/b', 'token')])

  it('names context, cluster and user <namespace>/<name> by default, sorted by name as kubectl writes them', () => {
    const document = renderKubeconfig(two(), {mode: 'plugin', hub: HUB})
    for (const list of [document.clusters, document.contexts, document.users]) {
      assert.deepEqual(
        list.map((entry) => entry.name),
        ['edge/b', 'fleet/a'],
      )
    }
    assert.deepEqual(document.contexts[0]?.context, {cluster: 'edge/b', user: 'edge/b'})
    assert.equal(document['current-context'], 'fleet/a', 'the first profile given, not the first sorted')
  })

  it('follows --context-name with {namespace}, {name} and {provider}', async () => {
    const document = renderKubeconfig(two(), {
      mode: 'plugin',
      hub: HUB,
      contextNameTemplate: 'inv-{namespace}-{name}@{provider}',
      currentContext: 'inv-edge-b@token',
    })
    await assertGolden('context-name-template', document)
    assert.deepEqual(
      document.users.map((user) => user.name),
      ['inv-edge-b@token', 'inv-fleet-a@token'],
    )
    assert.deepEqual(document.contexts[1]?.context, {cluster: 'inv-fleet-a@token', user: 'inv-fleet-a@token'})
    assert.equal(document['current-context'], 'inv-edge-b@token')
  })

  it('refuses unknown placeholders and stray braces', () => {
    expectUsageError(
      () => renderKubeconfig(two(), {mode: 'plugin', hub: HUB, contextNameTemplate: '{namespace}-{cluster}'}),
      /unknown placeholder \{cluster\}/,
      /\{namespace\}, \{name\}, \{provider\}/,
    )
    expectUsageError(
      () => renderKubeconfig(two(), {mode: 'plugin', hub: HUB, contextNameTemplate: '{namespace}-{name'}),
      /unmatched "\{" at position 13/,
    )
    expectUsageError(
      () => renderKubeconfig(two(), {mode: 'plugin', hub: HUB, contextNameTemplate: 'name}'}),
      /unmatched "\}"/,
    )
  })

  it('refuses a template that gives two profiles the same name, naming both', () => {
    const sameName = entries([simpleProfile('fleet/prod'), simpleProfile('edge/prod')])
    expectUsageError(
      () => renderKubeconfig(sameName, {mode: 'plugin', hub: HUB, contextNameTemplate: '{name}'}),
      /ClusterProfiles fleet\/prod and edge\/prod the same name "prod"/,
    )
    expectUsageError(
      () => renderKubeconfig(two(), {mode: 'plugin', hub: HUB, contextNameTemplate: ''}),
      /empty name/,
    )
  })

  it('refuses a current context that the kubeconfig does not have', () => {
    expectUsageError(
      () => renderKubeconfig(two(), {mode: 'plugin', hub: HUB, currentContext: 'a'}),
      /no context of that name/,
      /"fleet\/a", "edge\/b"/,
    )
  })
})

describe('mergeIntoKubeconfig', () => {
  // As kubectl writes files: keys in its order.
  const existing = () => ({
    apiVersion: 'v1',
    clusters: [
      {cluster: {'certificate-authority-data': CA_DATA, server: 'https://127.0.0.1:6443'}, name: 'kind-dev'},
      {cluster: {server: 'https://old-a.example'}, name: 'fleet/a'},
      {cluster: {server: 'https://zz.example'}, name: 'zz-last'},
    ],
    contexts: [
      {context: {cluster: 'kind-dev', namespace: 'apps', user: 'kind-dev'}, name: 'kind-dev'},
      {context: {cluster: 'fleet/a', user: 'fleet/a'}, name: 'fleet/a'},
    ],
    'current-context': 'kind-dev',
    extensions: [{extension: {x: 1}, name: 'example.com/keep-me'}],
    kind: 'Config',
    preferences: {colors: true},
    users: [
      {name: 'kind-dev', user: {'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5'}},
      {name: 'fleet/a', user: {token: 'old'}},
    ],
  })
  const generated = () =>
    renderKubeconfig(entries([simpleProfile('fleet/a'), simpleProfile('fleet/b')]), {
      mode: 'plugin',
      hub: HUB,
    })

  it('refuses to replace entries of the same name without overwrite, listing them', () => {
    const error = expectUsageError(
      () =>
        mergeIntoKubeconfig(existing(), generated(), {
          overwrite: false,
          setCurrent: false,
          source: '/home/ada/.kube/config',
        }),
      /\/home\/ada\/\.kube\/config already has cluster "fleet\/a", user "fleet\/a", context "fleet\/a"/,
    )
    assert.match(error.hint ?? '', /--overwrite/)
  })

  it('appends new entries and keeps everything else unchanged and in order', async () => {
    const before = existing()
    const fresh = renderKubeconfig(entries([simpleProfile('fleet/b'), simpleProfile('edge/c')]), {
      mode: 'plugin',
      hub: HUB,
    })
    const {document, added, replaced} = mergeIntoKubeconfig(before, fresh, {
      overwrite: false,
      setCurrent: false,
    })
    await assertGolden('merged', document)
    assert.deepEqual(before, existing(), 'the input is not modified')
    assert.deepEqual(Object.keys(document), Object.keys(before))
    assert.deepEqual(document['current-context'], 'kind-dev')
    assert.deepEqual(document.preferences, {colors: true})
    assert.deepEqual(document.extensions, before.extensions)
    assert.deepEqual(
      (document.clusters as {name: string}[]).map((cluster) => cluster.name),
      ['kind-dev', 'fleet/a', 'zz-last', 'edge/c', 'fleet/b'],
    )
    assert.deepEqual((document.clusters as unknown[]).slice(0, 3), before.clusters)
    assert.deepEqual((document.users as unknown[]).slice(0, 2), before.users)
    assert.deepEqual((document.contexts as unknown[]).slice(0, 2), before.contexts)
    assert.deepEqual(added, [
      'cluster edge/c',
      'cluster fleet/b',
      'user edge/c',
      'user fleet/b',
      'context edge/c',
      'context fleet/b',
    ])
    assert.deepEqual(replaced, [])
  })

  it('replaces clashing entries in place with overwrite, and sets the current context when asked', async () => {
    const fresh = generated()
    const {document, added, replaced} = mergeIntoKubeconfig(existing(), fresh, {
      overwrite: true,
      setCurrent: true,
    })
    await assertGolden('merged-overwrite', document)
    const clusters = document.clusters as {name: string}[]
    assert.deepEqual(
      clusters.map((cluster) => cluster.name),
      ['kind-dev', 'fleet/a', 'zz-last', 'fleet/b'],
    )
    assert.deepEqual(clusters[1], fresh.clusters[0])
    assert.deepEqual((document.users as unknown[])[1], fresh.users[0])
    assert.deepEqual((document.users as unknown[])[0], existing().users[0])
    assert.deepEqual(replaced, ['cluster fleet/a', 'user fleet/a', 'context fleet/a'])
    assert.deepEqual(added, ['cluster fleet/b', 'user fleet/b', 'context fleet/b'])
    assert.equal(document['current-context'], 'fleet/a')
  })

  it('starts an empty file from a kubectl skeleton', () => {
    for (const empty of [undefined, null]) {
      const fresh = generated()
      const kept = mergeIntoKubeconfig(empty, fresh, {overwrite: false, setCurrent: false}).document
      assert.deepEqual(kept, {...fresh, 'current-context': ''})
      assert.deepEqual(Object.keys(kept), Object.keys(fresh))
      const current = mergeIntoKubeconfig(empty, fresh, {overwrite: false, setCurrent: true}).document
      assert.deepEqual(current, fresh)
    }
  })

  it("keeps a hand-written file's own key order", () => {
    const handWritten = {kind: 'Config', 'current-context': 'x', users: [], apiVersion: 'v1', clusters: []}
    const {document} = mergeIntoKubeconfig(handWritten, generated(), {overwrite: false, setCurrent: true})
    assert.deepEqual(Object.keys(document), [
      'kind',
      'current-context',
      'users',
      'apiVersion',
      'clusters',
      'contexts',
    ])
    assert.equal(document['current-context'], 'fleet/a')
  })

  it('adds the lists a minimal kubeconfig lacks, after its own fields', () => {
    const {document} = mergeIntoKubeconfig({apiVersion: 'v1', kind: 'Config'}, generated(), {
      overwrite: false,
      setCurrent: false,
    })
    assert.deepEqual(Object.keys(document), ['apiVersion', 'kind', 'clusters', 'users', 'contexts'])
  })

  it('refuses a file that is not a kubeconfig', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['just text', /not a kubeconfig: expected a mapping.*found a string/],
      [[{name: 'x'}], /found a list/],
      [{apiVersion: 'v1', kind: 'Pod'}, /its kind is "Pod", not "Config"/],
      [{apiVersion: 'v2', kind: 'Config'}, /apiVersion is "v2"/],
      [{clusters: {name: 'x'}}, /clusters is not a list/],
      [{users: [{user: {}}]}, /users\[0\] has no name/],
      [{contexts: [{name: 'x'}, {name: 'x'}]}, /contexts has "x" twice/],
    ]
    for (const [document, pattern] of cases) {
      expectUsageError(
        () => mergeIntoKubeconfig(document, generated(), {overwrite: true, setCurrent: false, source: 'f'}),
        /^f is not/,
        pattern,
      )
    }
  })
})

// The strongest check that the renderer writes what kubectl writes: kubectl loads each golden file
// into client-go's types and prints it back. Same fields, same order, same omissions.
const kubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})
describe(
  'golden files read back by kubectl',
  {skip: kubectl.status !== 0 && 'kubectl is not installed'},
  () => {
    it('kubectl config view prints each golden kubeconfig back unchanged', () => {
      const goldens = readdirSync(GOLDEN_DIR).filter((file) => file.endsWith('.yaml'))
      assert.ok(goldens.length >= 5, `expected the golden files in ${GOLDEN_DIR}`)
      const home = mkdtempSync(path.join(os.tmpdir(), 'cpcred-kubectl-'))
      try {
        for (const golden of goldens) {
          const file = path.join(GOLDEN_DIR, golden)
          const viewed = spawnSync('kubectl', ['config', 'view', '--raw', '--kubeconfig', file], {
            encoding: 'utf8',
            env: {...process.env, HOME: home, KUBECONFIG: ''},
          })
          assert.equal(viewed.status, 0, `kubectl config view ${golden}: ${viewed.stderr}`)
          // Compared as data in key order: kubectl's YAML printer folds long strings differently. A
          // merge keeps the user's entries where they were, where kubectl would sort them by name.
          // kubectl before 1.37 prints an empty preferences ({}), 1.37 leaves it out (omitzero): the
          // same document either way.
          const withoutEmptyPreferences = (document: Record<string, unknown>) => {
            const {preferences, ...rest} = document
            return preferences && Object.keys(preferences).length ? document : rest
          }
          const normalize = (document: Record<string, unknown>) =>
            golden.startsWith('merged')
              ? sortNamedLists(withoutEmptyPreferences(document))
              : withoutEmptyPreferences(document)
          assert.equal(
            JSON.stringify(normalize(parse(viewed.stdout))),
            JSON.stringify(normalize(parse(readFileSync(file, 'utf8')))),
            `${golden} changes when kubectl reads and prints it`,
          )
        }
      } finally {
        rmSync(home, {recursive: true, force: true})
      }
    })

    it('kubectl accepts every generated context and gets as far as running its plugin', () => {
      const rendered = readdirSync(GOLDEN_DIR).filter(
        (file) => file.endsWith('.yaml') && !file.startsWith('merged'),
      )
      for (const golden of rendered) {
        const file = path.join(GOLDEN_DIR, golden)
        const document = parse(readFileSync(file, 'utf8')) as KubeconfigDocument
        for (const {name, context} of document.contexts) {
          const {command} = document.users.find((user) => user.name === context.user)?.user.exec ?? {}
          // The plugins named in the fixtures do not exist, so kubectl stops at the exec step, after it
          // has validated the cluster and user and before it connects anywhere.
          const run = spawnSync(
            'kubectl',
            ['--kubeconfig', file, '--context', name, 'get', '--raw', '/version'],
            {
              encoding: 'utf8',
              timeout: 20_000,
            },
          )
          assert.match(
            run.stderr,
            new RegExp(`getting credentials: exec: fork/exec ${command}: no such file`),
            `${golden} ${name}`,
          )
        }
      }
    })
  },
)

function sortNamedLists(document: Record<string, unknown>): Record<string, unknown> {
  const sorted = {...document}
  for (const key of ['clusters', 'contexts', 'users']) {
    sorted[key] = [...(document[key] as {name: string}[])].sort((a, b) => (a.name < b.name ? -1 : 1))
  }
  return sorted
}
