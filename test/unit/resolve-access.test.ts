import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  type AccessProvider,
  type ClusterProfile,
  type NamedExtension,
  type ProfileCluster,
} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import type {ExecConfig} from '../../src/core/access/exec-config.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {chooseProvider, resolveAccess} from '../../src/core/access/resolve-access.js'
import {HUB_CONTEXT_ENV, HUB_KUBECONFIG_ENV} from '../../src/core/profiles/hub-pin.js'

const CA_DATA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString(
  'base64',
)

const V1 = 'client.authentication.k8s.io/v1'

function profile(status: ClusterProfile['status']): ClusterProfile {
  return {metadata: {name: 'p', namespace: 'ns'}, spec: {clusterManager: {name: 'm'}}, status}
}

function offering(name: string, cluster: Partial<ProfileCluster> = {}): AccessProvider {
  return {name, cluster: {server: `https://${name}.example`, ...cluster}}
}

function withExtensions(name: string, ...extensions: NamedExtension[]): ClusterProfile {
  return profile({accessProviders: [offering(name, {extensions})]})
}

function provider(name: string, overrides: Partial<Provider> = {}, exec: Partial<ExecConfig> = {}): Provider {
  return {name, execConfig: {apiVersion: V1, command: `/bin/${name}`, ...exec}, ...overrides}
}

function assertCpcredError(action: () => unknown, exitCode: number, ...patterns: RegExp[]): CpcredError {
  let caught: unknown
  try {
    action()
  } catch (error) {
    caught = error
  }
  assert.ok(caught instanceof CpcredError, `expected a CpcredError, got ${String(caught)}`)
  assert.equal(caught.exitCode, exitCode)
  for (const pattern of patterns) assert.match(caught.message, pattern)
  return caught
}

describe('resolveAccess: choosing the provider', () => {
  const cases: Array<[string, string[], ClusterProfile['status'], string]> = [
    ['the only common name', ['a'], {accessProviders: [offering('a')]}, 'a'],
    [
      "the provider file's order, not the profile's",
      ['c', 'b', 'a'],
      {accessProviders: [offering('a'), offering('b')]},
      'b',
    ],
    [
      'a name the file lists first even if the profile lists it last',
      ['z', 'y'],
      {accessProviders: [offering('y'), offering('z')]},
      'z',
    ],
    [
      'a deprecated credentialProviders entry when the file ranks it first',
      ['old', 'new'],
      {accessProviders: [offering('new')], credentialProviders: [offering('old')]},
      'old',
    ],
  ]
  for (const [label, fileOrder, status, expected] of cases) {
    it(`chooses ${label}`, () => {
      const resolution = resolveAccess(
        profile(status),
        fileOrder.map((name) => provider(name)),
      )
      assert.equal(resolution.provider.name, expected)
      assert.equal(resolution.execConfig.command, `/bin/${expected}`)
      assert.equal(resolution.cluster.server, `https://${expected}.example`)
    })
  }

  it('takes the accessProviders entry over a credentialProviders entry of the same name', () => {
    const resolution = resolveAccess(
      profile({
        accessProviders: [offering('a', {server: 'https://from-access'})],
        credentialProviders: [offering('a', {server: 'https://from-credential'})],
      }),
      [provider('a')],
    )
    assert.equal(resolution.cluster.server, 'https://from-access')
    assert.equal(resolution.offered.source, 'accessProviders')
    assert.deepEqual(resolution.warnings, [])
  })

  it('reads old hubs through credentialProviders, with a warning', () => {
    const resolution = resolveAccess(profile({credentialProviders: [offering('a')]}), [provider('a')])
    assert.equal(resolution.offered.source, 'credentialProviders')
    assert.equal(resolution.warnings.length, 1)
    assert.match(
      resolution.warnings[0] as string,
      /ns\/p lists "a" in the deprecated status\.credentialProviders/,
    )
  })

  it('explains the choice, naming the providers it skipped', () => {
    const resolution = resolveAccess(profile({accessProviders: [offering('b')]}), [
      provider('x'),
      provider('y'),
      provider('b'),
    ])
    assert.match(
      resolution.decisions[0] as string,
      /^Chose provider "b" \(3rd of 3 configured\).*the profile does not offer "x", "y"\.$/,
    )
  })

  it('gives nothing from chooseProvider when nothing matches', () => {
    assert.equal(chooseProvider(profile({accessProviders: [offering('a')]}), [provider('b')]), undefined)
    assert.equal(
      chooseProvider(profile({accessProviders: [offering('a')]}), [provider('a')])?.provider.name,
      'a',
    )
  })
})

describe('resolveAccess: no provider in common', () => {
  it('names the profile, what it offers (marking deprecated entries) and what the file supports', () => {
    const error = assertCpcredError(
      () =>
        resolveAccess(profile({accessProviders: [offering('gke')], credentialProviders: [offering('eks')]}), [
          provider('secretreader'),
          provider('aks'),
        ]),
      ExitCode.Failure,
      /^no provider in common for ClusterProfile ns\/p: /,
      /it offers "gke", "eks" \(deprecated credentialProviders\)/,
      /the provider file supports "secretreader", "aks"/,
    )
    assert.match(error.hint ?? '', /Add a provider named "gke" or "eks"/)
  })

  it('says when the profile offers no providers at all', () => {
    const error = assertCpcredError(
      () => resolveAccess(profile({}), [provider('a')]),
      ExitCode.Failure,
      /ns\/p: it offers no providers \(status\.accessProviders and status\.credentialProviders are empty\)/,
      /supports "a"/,
    )
    assert.match(error.hint ?? '', /has not published/)
  })

  it('says when the provider file lists no providers', () => {
    assertCpcredError(
      () => resolveAccess(profile({accessProviders: [offering('a')]}), []),
      ExitCode.Failure,
      /offers "a"; the provider file lists no providers\./,
    )
  })

  it('refuses an entry without a server', () => {
    assertCpcredError(
      () =>
        resolveAccess(profile({accessProviders: [{name: 'a', cluster: {} as ProfileCluster}]}), [
          provider('a'),
        ]),
      ExitCode.Failure,
      /ClusterProfile ns\/p: its accessProviders entry "a" is refused: it has no cluster\.server/,
    )
  })

  // Each refused where the profile enters cpcred, naming the problem and never the URL.
  const refusedServers: Array<[string, unknown, RegExp]> = [
    ['user and password', 'https://ada:s3cret@a.example', /user information in the server URL/],
    ['a user only', 'https://ada@a.example', /user information in the server URL/],
    ['an empty user information', 'https://@a.example', /user information in the server URL/],
    ['no scheme', 'a:6443', /not http or https/],
    ['a relative URL', '/api', /not an absolute URL/],
    ['another scheme', 'file:///etc/passwd', /not http or https/],
    ['a newline', 'https://a.example\nFORGED', /control characters or whitespace/],
    ['an escape sequence', 'https://a.example/\u001b[31m', /control characters or whitespace/],
    ['a space', 'https://a.example /x', /control characters or whitespace/],
    ['a bidi override', 'https://a.example/\u202e', /control characters or whitespace/],
    ['a number', 6443, /cluster\.server is not a string/],
  ]
  for (const [label, server, pattern] of refusedServers) {
    it(`refuses a server URL with ${label}`, () => {
      const cluster = {server} as unknown as ProfileCluster
      try {
        resolveAccess(profile({accessProviders: [{name: 'a', cluster}]}), [provider('a')])
        assert.fail('resolved')
      } catch (error) {
        assert.match(
          (error as Error).message,
          /^ClusterProfile ns\/p: its accessProviders entry "a" is refused: /,
        )
        assert.match((error as Error).message, pattern)
        if (typeof server === 'string')
          assert.ok(!(error as Error).message.includes(server), 'echoes the URL')
        assert.ok(!/s3cret|ada/.test((error as Error).message), 'echoes the user information')
      }
    })
  }

  it('refuses a field of the wrong type', () => {
    const cluster = {server: 'https://a', 'tls-server-name': 7} as unknown as ProfileCluster
    assertCpcredError(
      () => resolveAccess(profile({accessProviders: [{name: 'a', cluster}]}), [provider('a')]),
      ExitCode.Failure,
      /cluster\.tls-server-name is not a string/,
    )
  })
})

describe('resolveAccess: the cluster connection', () => {
  it('copies every connection field and nothing else from the profile', () => {
    const resolution = resolveAccess(
      profile({
        accessProviders: [
          {
            name: 'a',
            cluster: {
              server: 'https://a:6443',
              'certificate-authority-data': CA_DATA,
              'tls-server-name': 'a.internal',
              'proxy-url': 'socks5://proxy:1080',
              'insecure-skip-tls-verify': false,
              'disable-compression': true,
              extensions: [{name: 'other', extension: {command: '/bin/evil'}}],
            },
          },
        ],
      }),
      [provider('a')],
    )
    assert.deepEqual(resolution.cluster, {
      server: 'https://a:6443',
      'certificate-authority-data': CA_DATA,
      'tls-server-name': 'a.internal',
      'proxy-url': 'socks5://proxy:1080',
      'disable-compression': true,
    })
    assert.equal(resolution.execConfig.command, '/bin/a')
    assert.deepEqual(resolution.warnings, [])
  })

  const warningCases: Array<[string, Partial<ProfileCluster>, RegExp[]]> = [
    ['insecure-skip-tls-verify', {'insecure-skip-tls-verify': true}, [/sets insecure-skip-tls-verify/]],
    ['a plain http server', {server: 'http://a:8080'}, [/has server http:\/\/a:8080, which is not https/]],
    [
      'both',
      {server: 'http://a', 'insecure-skip-tls-verify': true},
      [/insecure-skip-tls-verify/, /which is not https/],
    ],
    [
      'a certificate-authority file',
      {'certificate-authority': '/etc/ca.pem'},
      [/names a certificate-authority file/],
    ],
  ]
  for (const [label, cluster, patterns] of warningCases) {
    it(`warns about ${label}`, () => {
      const resolution = resolveAccess(profile({accessProviders: [offering('a', cluster)]}), [provider('a')])
      assert.equal(resolution.warnings.length, patterns.length)
      patterns.forEach((pattern, index) => {
        assert.match(resolution.warnings[index] as string, /^ClusterProfile ns\/p \(provider "a"\)/)
        assert.match(resolution.warnings[index] as string, pattern)
      })
      assert.equal(resolution.cluster['certificate-authority' as keyof typeof resolution.cluster], undefined)
    })
  }
})

describe('resolveAccess: the exec config', () => {
  it('starts from the provider, with defaults filled in and without touching the provider', () => {
    const chosen = provider(
      'a',
      {},
      {args: ['--x'], env: [{name: 'E', value: '1'}], installHint: 'install a'},
    )
    const before = structuredClone(chosen)
    const resolution = resolveAccess(profile({accessProviders: [offering('a')]}), [chosen])
    assert.deepEqual(resolution.execConfig, {
      apiVersion: V1,
      command: '/bin/a',
      args: ['--x'],
      env: [{name: 'E', value: '1'}],
      provideClusterInfo: false,
      interactiveMode: 'Never',
      installHint: 'install a',
    })
    assert.deepEqual(chosen, before)
    assert.ok(resolution.decisions.some((decision) => /interactiveMode Never, the default/.test(decision)))
  })

  it("keeps the provider's own interactiveMode", () => {
    const resolution = resolveAccess(profile({accessProviders: [offering('a')]}), [
      provider('a', {}, {interactiveMode: 'IfAvailable', provideClusterInfo: true}),
    ])
    assert.equal(resolution.execConfig.interactiveMode, 'IfAvailable')
    assert.equal(resolution.execConfig.provideClusterInfo, true)
  })

  it('passes the exec extension through verbatim', () => {
    const config = {clusterName: 'spoke-1', nested: {list: [1, 'two', null]}}
    const resolution = resolveAccess(withExtensions('a', {name: EXEC_EXTENSION, extension: config}), [
      provider('a', {}, {provideClusterInfo: true}),
    ])
    assert.deepEqual(resolution.execClusterConfig, {clusterName: 'spoke-1', nested: {list: [1, 'two', null]}})
    assert.ok(
      resolution.decisions.some((decision) =>
        /passed to the plugin as ExecCredential\.spec\.cluster\.config/.test(decision),
      ),
    )
  })

  it('says the plugin will not see the exec extension when provideClusterInfo is false', () => {
    const resolution = resolveAccess(
      withExtensions('a', {name: EXEC_EXTENSION, extension: {clusterName: 'c'}}),
      [provider('a')],
    )
    assert.deepEqual(resolution.execClusterConfig, {clusterName: 'c'})
    assert.ok(
      resolution.decisions.some((decision) =>
        /provideClusterInfo is false, so the plugin will not see it/.test(decision),
      ),
    )
  })

  it('has no exec cluster config without the extension', () => {
    const resolution = resolveAccess(profile({accessProviders: [offering('a')]}), [provider('a')])
    assert.equal('execClusterConfig' in resolution, false)
  })
})

describe('resolveAccess: profile-sourced args', () => {
  const argsExtension = {name: ADDITIONAL_ARGS_EXTENSION, extension: ['--tenant-id', 'T', 8443, true]}
  const cases: Array<[string, Provider['profileSourcedCLIArgsPolicy'], NamedExtension[], string[], RegExp]> =
    [
      [
        'ignores them without a policy',
        undefined,
        [argsExtension],
        ['--own'],
        /Ignored .*has no profileSourced(CLIArgs|EnvVars)Policy, so Ignore/,
      ],
      [
        'ignores them with ""',
        '',
        [argsExtension],
        ['--own'],
        /Ignored .*additional-args extension \(\["--tenant-id","T","8443","true"\]\): provider "a" has profileSourcedCLIArgsPolicy "", which means Ignore/,
      ],
      [
        'ignores them with Ignore',
        'Ignore',
        [argsExtension],
        ['--own'],
        /has profileSourcedCLIArgsPolicy Ignore; set it to Append/,
      ],
      [
        'appends them, scalars as text, with Append',
        'Append',
        [argsExtension],
        ['--own', '--tenant-id', 'T', '8443', 'true'],
        /Appended 4 argument/,
      ],
      [
        'changes nothing with Append and no extension',
        'Append',
        [],
        ['--own'],
        /The profile adds no arguments/,
      ],
      [
        'appends nothing for a null extension',
        'Append',
        [{name: ADDITIONAL_ARGS_EXTENSION, extension: null}],
        ['--own'],
        /Appended 0 argument/,
      ],
    ]
  for (const [label, policy, extensions, expected, decision] of cases) {
    it(label, () => {
      const chosen = provider('a', {profileSourcedCLIArgsPolicy: policy}, {args: ['--own']})
      const resolution = resolveAccess(withExtensions('a', ...extensions), [chosen])
      assert.deepEqual(resolution.execConfig.args, expected)
      assert.ok(
        resolution.decisions.some((line) => decision.test(line)),
        `no decision matches ${decision}: ${resolution.decisions.join(' | ')}`,
      )
      assert.deepEqual(chosen.execConfig.args, ['--own'])
    })
  }

  it('refuses an unknown policy, even when the profile asks for nothing', () => {
    const chosen = provider('a', {
      profileSourcedCLIArgsPolicy: 'Allow' as Provider['profileSourcedCLIArgsPolicy'],
    })
    assertCpcredError(
      () => resolveAccess(profile({accessProviders: [offering('a')]}), [chosen]),
      ExitCode.Usage,
      /provider "a": profileSourcedCLIArgsPolicy "Allow" is not one of "", "Ignore", "Append"/,
    )
  })

  it('does not decode an ignored extension, so a malformed one cannot fail the resolution', () => {
    const resolution = resolveAccess(
      withExtensions('a', {name: ADDITIONAL_ARGS_EXTENSION, extension: {a: 1}}),
      [provider('a', {profileSourcedCLIArgsPolicy: 'Ignore'})],
    )
    assert.deepEqual(resolution.execConfig.args, [])
    assert.ok(resolution.decisions.some((line) => /additional-args extension \(malformed\)/.test(line)))
  })
})

describe('resolveAccess: profile-sourced env', () => {
  const envsExtension = {name: ADDITIONAL_ENVS_EXTENSION, extension: {X: 'x-profile', B: 'b', A: 1}}
  const providerEnv = [
    {name: 'Z', value: 'z-provider'},
    {name: 'X', value: 'x-provider'},
  ]
  const cases: Array<[string, Provider['profileSourcedEnvVarsPolicy'], Array<[string, string]>, RegExp]> = [
    [
      'ignores it without a policy',
      undefined,
      [
        ['Z', 'z-provider'],
        ['X', 'x-provider'],
      ],
      /Ignored .*has no profileSourced(CLIArgs|EnvVars)Policy, so Ignore/,
    ],
    [
      'ignores it with ""',
      '',
      [
        ['Z', 'z-provider'],
        ['X', 'x-provider'],
      ],
      /Ignored the profile's .*additional-envs extension: provider "a" has profileSourcedEnvVarsPolicy "", which means Ignore/,
    ],
    [
      'ignores it with Ignore',
      'Ignore',
      [
        ['Z', 'z-provider'],
        ['X', 'x-provider'],
      ],
      /has profileSourcedEnvVarsPolicy Ignore; set it to AppendIfNotExists or Replace/,
    ],
    [
      "adds new names after the provider's, sorted, and keeps the provider's value with AppendIfNotExists",
      'AppendIfNotExists',
      [
        ['Z', 'z-provider'],
        ['X', 'x-provider'],
        ['A', '1'],
        ['B', 'b'],
      ],
      /\(profileSourcedEnvVarsPolicy AppendIfNotExists\): added A, B; kept the provider's own X\./,
    ],
    [
      "lets the profile's value win in place with Replace",
      'Replace',
      [
        ['Z', 'z-provider'],
        ['X', 'x-profile'],
        ['A', '1'],
        ['B', 'b'],
      ],
      /\(profileSourcedEnvVarsPolicy Replace\): added A, B; replaced the provider's X\./,
    ],
  ]
  for (const [label, policy, expected, decision] of cases) {
    it(label, () => {
      const chosen = provider('a', {profileSourcedEnvVarsPolicy: policy}, {env: providerEnv})
      const resolution = resolveAccess(withExtensions('a', envsExtension), [chosen])
      assert.deepEqual(
        resolution.execConfig.env?.map(({name, value}) => [name, value]),
        expected,
      )
      assert.ok(
        resolution.decisions.some((line) => decision.test(line)),
        `no decision matches ${decision}: ${resolution.decisions.join(' | ')}`,
      )
      assert.deepEqual(chosen.execConfig.env, providerEnv)
    })
  }

  it('gives the same order whatever order the profile lists the names in', () => {
    const resolve = (extension: Record<string, string>) =>
      resolveAccess(withExtensions('a', {name: ADDITIONAL_ENVS_EXTENSION, extension}), [
        provider('a', {profileSourcedEnvVarsPolicy: 'AppendIfNotExists'}),
      ]).execConfig.env
    assert.deepEqual(resolve({C: '3', A: '1', B: '2'}), resolve({B: '2', C: '3', A: '1'}))
    assert.deepEqual(
      resolve({C: '3', A: '1', B: '2'})?.map(({name}) => name),
      ['A', 'B', 'C'],
    )
  })

  it('refuses an unknown policy', () => {
    const chosen = provider('a', {
      profileSourcedEnvVarsPolicy: 'Append' as Provider['profileSourcedEnvVarsPolicy'],
    })
    assertCpcredError(
      () => resolveAccess(withExtensions('a', envsExtension), [chosen]),
      ExitCode.Usage,
      /provider "a": profileSourcedEnvVarsPolicy "Append" is not one of "", "Ignore", "AppendIfNotExists", "Replace"/,
    )
  })

  it('never lets a profile set variables that choose which code runs', () => {
    const extension = {
      PATH: '/tmp/evil',
      LD_PRELOAD: '/tmp/evil.so',
      DYLD_INSERT_LIBRARIES: 'x',
      NODE_OPTIONS: '-r x',
      // Where the plugin finds its stored credentials, and which hub it reads (the hub pin).
      HOME: '/tmp/evil-home',
      [HUB_KUBECONFIG_ENV]: '/tmp/other-hub',
      [HUB_CONTEXT_ENV]: 'other',
      OK: 'y',
    }
    const resolution = resolveAccess(withExtensions('a', {name: ADDITIONAL_ENVS_EXTENSION, extension}), [
      provider('a', {profileSourcedEnvVarsPolicy: 'Replace'}, {env: [{name: 'PATH', value: '/usr/bin'}]}),
    ])
    assert.deepEqual(resolution.execConfig.env, [
      {name: 'PATH', value: '/usr/bin'},
      {name: 'OK', value: 'y'},
    ])
    assert.equal(resolution.warnings.length, 1)
    assert.match(
      resolution.warnings[0] as string,
      /ns\/p tries to set CPCRED_HUB_CONTEXT, DYLD_INSERT_LIBRARIES, HOME, KUBECONFIG, LD_PRELOAD, NODE_OPTIONS, PATH for the plugin/,
    )
  })
})

describe('resolveAccess: malformed extensions', () => {
  const cases: Array<[string, Provider, NamedExtension[], RegExp]> = [
    [
      'args that are a map',
      provider('a', {profileSourcedCLIArgsPolicy: 'Append'}),
      [{name: ADDITIONAL_ARGS_EXTENSION, extension: {args: ['--x']}}],
      /it must be a list of strings, not an object/,
    ],
    [
      'args given as a YAML string, which upstream cannot decode either',
      provider('a', {profileSourcedCLIArgsPolicy: 'Append'}),
      [{name: ADDITIONAL_ARGS_EXTENSION, extension: '- --x\n- y\n'}],
      /it must be a list of strings, not a string/,
    ],
    [
      'an args item that is a list',
      provider('a', {profileSourcedCLIArgsPolicy: 'Append'}),
      [{name: ADDITIONAL_ARGS_EXTENSION, extension: ['--x', ['y']]}],
      /item 1 is a list, not a string/,
    ],
    [
      'a null args item',
      provider('a', {profileSourcedCLIArgsPolicy: 'Append'}),
      [{name: ADDITIONAL_ARGS_EXTENSION, extension: [null]}],
      /item 0 is null, not a string/,
    ],
    [
      'envs that are a list',
      provider('a', {profileSourcedEnvVarsPolicy: 'Replace'}),
      [{name: ADDITIONAL_ENVS_EXTENSION, extension: ['X=y']}],
      /it must be a map of variable names to strings, not a list/,
    ],
    [
      'envs given as a string',
      provider('a', {profileSourcedEnvVarsPolicy: 'AppendIfNotExists'}),
      [{name: ADDITIONAL_ENVS_EXTENSION, extension: 'X: y'}],
      /not a string/,
    ],
    [
      'an env value that is an object',
      provider('a', {profileSourcedEnvVarsPolicy: 'Replace'}),
      [{name: ADDITIONAL_ENVS_EXTENSION, extension: {X: {y: 1}}}],
      /X is an object, not a string/,
    ],
    [
      'a null env value',
      provider('a', {profileSourcedEnvVarsPolicy: 'Replace'}),
      [{name: ADDITIONAL_ENVS_EXTENSION, extension: {X: null}}],
      /X is null, not a string/,
    ],
    [
      'an env name with "="',
      provider('a', {profileSourcedEnvVarsPolicy: 'Replace'}),
      [{name: ADDITIONAL_ENVS_EXTENSION, extension: {'A=B': 'c'}}],
      /"A=B" is not a variable name/,
    ],
    [
      'a repeated exec extension',
      provider('a'),
      [
        {name: EXEC_EXTENSION, extension: {a: 1}},
        {name: EXEC_EXTENSION, extension: {a: 2}},
      ],
      /client\.authentication\.k8s\.io\/exec is malformed: it appears more than once/,
    ],
    [
      'a repeated args extension',
      provider('a', {profileSourcedCLIArgsPolicy: 'Append'}),
      [
        {name: ADDITIONAL_ARGS_EXTENSION, extension: ['--x']},
        {name: ADDITIONAL_ARGS_EXTENSION, extension: ['--x']},
      ],
      /additional-args is malformed: it appears more than once/,
    ],
  ]
  for (const [label, chosen, extensions, pattern] of cases) {
    it(`refuses ${label}, naming the profile and the extension`, () => {
      const extensionName = extensions[0]?.name as string
      const error = assertCpcredError(
        () => resolveAccess(withExtensions('a', ...extensions), [chosen]),
        ExitCode.Failure,
        /^ClusterProfile ns\/p: extension /,
        new RegExp(extensionName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
        pattern,
      )
      assert.match(error.hint ?? '', /cluster manager/)
    })
  }
})

describe('resolveAccess: CA data together with insecure-skip-tls-verify', () => {
  it('keeps verifying with the CA (kubectl refuses the pair) and says so', () => {
    const resolution = resolveAccess(
      profile({
        accessProviders: [
          offering('p', {'certificate-authority-data': CA_DATA, 'insecure-skip-tls-verify': true}),
        ],
      }),
      [provider('p')],
    )
    assert.equal(resolution.cluster['insecure-skip-tls-verify'], undefined)
    assert.equal(resolution.cluster['certificate-authority-data'], CA_DATA)
    assert.match(
      resolution.warnings.join('\n'),
      /sets both certificate-authority-data and insecure-skip-tls-verify/,
    )
  })

  it('refuses CA data that is not base64 of a PEM certificate, naming the profile and entry', () => {
    for (const data of [Buffer.from('hello').toString('base64'), 'not base64!']) {
      assert.throws(
        () =>
          resolveAccess(profile({accessProviders: [offering('p', {'certificate-authority-data': data})]}), [
            provider('p'),
          ]),
        /ClusterProfile ns\/p: the certificate-authority-data of its accessProviders entry "p" is not a base64-encoded PEM certificate/,
      )
    }
  })

  it('keeps insecure-skip-tls-verify, loudly, when there is no CA', () => {
    const resolution = resolveAccess(
      profile({accessProviders: [offering('p', {'insecure-skip-tls-verify': true})]}),
      [provider('p')],
    )
    assert.equal(resolution.cluster['insecure-skip-tls-verify'], true)
    assert.match(resolution.warnings.join('\n'), /the server's certificate is not checked/)
  })
})
