import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {
  mergeProviders,
  parseAccessProviderFlag,
  parseProviderFile,
  type Provider,
} from '../../src/core/access/provider-file.js'
import {resolveAccessProviderFlag, resolvePluginCommand} from '../../src/core/access/plugin-commands.js'

const V1 = 'client.authentication.k8s.io/v1'

function assertUsageError(action: () => unknown, ...patterns: RegExp[]): CpcredError {
  let caught: unknown
  try {
    action()
  } catch (error) {
    caught = error
  }
  assert.ok(caught instanceof CpcredError, `expected a CpcredError, got ${String(caught)}`)
  assert.equal(caught.exitCode, ExitCode.Usage)
  for (const pattern of patterns) assert.match(caught.message, pattern)
  return caught
}

function fileWith(provider: unknown): string {
  return JSON.stringify({providers: [provider]})
}

const minimalExec = {apiVersion: V1, command: '/bin/plugin'}

describe('parseProviderFile', () => {
  it('reads the upstream format field by field', () => {
    const text = JSON.stringify({
      providers: [
        {
          name: 'secretreader',
          execConfig: {
            apiVersion: V1,
            command: '/usr/local/bin/secretreader-plugin',
            args: ['--verbose'],
            env: [{name: 'X', value: 'y'}],
            provideClusterInfo: true,
            interactiveMode: 'IfAvailable',
            installHint: 'go install ./cmd/secretreader',
          },
          profileSourcedCLIArgsPolicy: 'Append',
          profileSourcedEnvVarsPolicy: 'Replace',
        },
        {
          name: 'gke',
          execConfig: {apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'gke-plugin'},
        },
      ],
    })
    assert.deepEqual(parseProviderFile(text, 'providers.json'), {
      providers: [
        {
          name: 'secretreader',
          execConfig: {
            apiVersion: V1,
            command: '/usr/local/bin/secretreader-plugin',
            args: ['--verbose'],
            env: [{name: 'X', value: 'y'}],
            provideClusterInfo: true,
            interactiveMode: 'IfAvailable',
            installHint: 'go install ./cmd/secretreader',
          },
          profileSourcedCLIArgsPolicy: 'Append',
          profileSourcedEnvVarsPolicy: 'Replace',
        },
        {
          name: 'gke',
          execConfig: {apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'gke-plugin'},
        },
      ],
      warnings: [],
    })
  })

  it('leaves interactiveMode and the policies absent when the file omits them, or gives "" or null', () => {
    const text = fileWith({
      name: 'a',
      execConfig: {...minimalExec, args: null, env: null, interactiveMode: ''},
      profileSourcedCLIArgsPolicy: '',
      profileSourcedEnvVarsPolicy: null,
    })
    const [provider] = parseProviderFile(text, 'f.json').providers
    assert.deepEqual(provider, {
      name: 'a',
      execConfig: minimalExec,
      profileSourcedCLIArgsPolicy: '',
    })
  })

  it('accepts a file without providers, as upstream does, but says it is useless', () => {
    for (const text of ['{}', '{"providers": null}', '{"providers": []}']) {
      const parsed = parseProviderFile(text, 'f.json')
      assert.deepEqual(parsed.providers, [])
      assert.equal(parsed.warnings.length, 1)
      assert.match(parsed.warnings[0] as string, /^f\.json: lists no providers/)
    }
  })

  it('warns about unknown fields at every level instead of failing, naming where they are', () => {
    const text = JSON.stringify({
      version: 2,
      providers: [
        {name: 'a', execConfig: {...minimalExec, config: {}}, profileSourcedCliArgsPolicy: 'Append'},
      ],
    })
    const parsed = parseProviderFile(text, 'f.json')
    assert.equal(parsed.providers[0]?.profileSourcedCLIArgsPolicy, undefined)
    assert.deepEqual(parsed.warnings, [
      'f.json: unknown field "version" is ignored',
      'f.json: providers[0] ("a"): unknown field "profileSourcedCliArgsPolicy" is ignored',
      'f.json: providers[0] ("a"): execConfig: unknown field "config" is ignored',
    ])
  })

  it('ignores a byte order mark', () => {
    const parsed = parseProviderFile('\uFEFF' + fileWith({name: 'a', execConfig: minimalExec}), 'f.json')
    assert.equal(parsed.providers[0]?.name, 'a')
  })

  it('gives the position of a JSON syntax error without quoting the file', () => {
    const text =
      '{"providers": [\n  {"name": "a", "execConfig": {"env": [{"name": "T", "value": "s3cret"}]}\n  ,,\n]}'
    const error = assertUsageError(
      () => parseProviderFile(text, 'f.json'),
      /^f\.json: invalid JSON at line 3, column 4/,
    )
    assert.doesNotMatch(error.message, /s3cret/)
  })

  const syntaxErrors: Array<[string, string, RegExp]> = [
    ['an unclosed list', '{"providers": [}', /line 1, column 16: unexpected "}"/],
    ['a trailing comma', '{"providers": [1,]}', /line 1, column 18: unexpected "]"/],
    ['an empty file', '', /line 1, column 1: unexpected end of file/],
    ['a bad escape', '{"a": "b\\q"}', /line 1, column 10: unexpected "q", invalid escape/],
    ['text after the document', '{"providers": []} x', /line 1, column 19: unexpected "x"/],
    ['an unclosed string', '{"a": "abc', /line 1, column 11: unexpected end of file, string not closed/],
    ['a misspelt literal', '{"a":\n  tru}', /line 2, column 6/],
    [
      'a key without quotes',
      '{providers: []}',
      /line 1, column 2: unexpected "p", expected a "quoted" field name/,
    ],
    ['a missing colon', '{"providers" []}', /line 1, column 14: unexpected "\[", expected ":"/],
    ['a comment', '{"providers": [] // none\n}', /line 1, column 18: unexpected "\/", expected "," or "}"/],
    [
      'a number with a dot and no digits',
      '{"a": 1.}',
      /line 1, column 8: unexpected "\.", expected "," or "}"/,
    ],
    [
      'a non-breaking space',
      '{"providers":\u00a0[]}',
      /line 1, column 14: unexpected "\u00a0", expected a value/,
    ],
    [
      'a nested list never closed',
      '{"a": [{"b": 1}',
      /line 1, column 16: unexpected end of file, expected "," or "]"/,
    ],
    ['a bad \\u escape', '{"a": "\\u12g4"}', /line 1, column 12: unexpected "g", expected a hex digit/],
    [
      'a raw line break in a string',
      '{"a": "x\ny"}',
      /line 1, column 9: unexpected "\\n", control characters/,
    ],
  ]
  for (const [label, text, pattern] of syntaxErrors) {
    it(`locates ${label}`, () => {
      assertUsageError(() => parseProviderFile(text, 'f.json'), /^f\.json: invalid JSON at /, pattern)
    })
  }

  const invalidFiles: Array<[string, string, RegExp]> = [
    ['a top-level list', '[]', /^f\.json: the provider file must be a JSON object/],
    [
      'providers that are not a list',
      '{"providers": {}}',
      /^f\.json: "providers" must be a list, not an object/,
    ],
    [
      'a provider that is not an object',
      '{"providers": ["a"]}',
      /^f\.json: providers\[0\]: must be an object/,
    ],
    [
      'a provider without a name',
      fileWith({execConfig: minimalExec}),
      /providers\[0\]: "name" must be a non-empty/,
    ],
    [
      'a blank name',
      fileWith({name: ' ', execConfig: minimalExec}),
      /providers\[0\]: "name" must be a non-empty/,
    ],
    ['a name that is not a string', fileWith({name: 7, execConfig: minimalExec}), /providers\[0\]: "name"/],
    ['a missing execConfig', fileWith({name: 'a'}), /providers\[0\] \("a"\): execConfig is required/],
    [
      'an execConfig that is not an object',
      fileWith({name: 'a', execConfig: []}),
      /providers\[0\] \("a"\): execConfig: must be an object, not a list/,
    ],
    [
      'a missing command',
      fileWith({name: 'a', execConfig: {apiVersion: V1}}),
      /providers\[0\] \("a"\): execConfig\.command must be a non-empty string/,
    ],
    [
      'an empty command',
      fileWith({name: 'a', execConfig: {apiVersion: V1, command: ''}}),
      /execConfig\.command must be a non-empty string/,
    ],
    [
      'a missing apiVersion',
      fileWith({name: 'a', execConfig: {command: 'x'}}),
      /providers\[0\] \("a"\): execConfig\.apiVersion is missing: must be one of client\.authentication\.k8s\.io\/v1, client\.authentication\.k8s\.io\/v1beta1/,
    ],
    [
      'the removed v1alpha1 apiVersion',
      fileWith({name: 'a', execConfig: {command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1'}}),
      /execConfig\.apiVersion is "client\.authentication\.k8s\.io\/v1alpha1"/,
    ],
    [
      'args that are a string',
      fileWith({name: 'a', execConfig: {...minimalExec, args: '--flag'}}),
      /providers\[0\] \("a"\): execConfig\.args must be a list of strings/,
    ],
    [
      'args with a number',
      fileWith({name: 'a', execConfig: {...minimalExec, args: ['--port', 8080]}}),
      /execConfig\.args must be a list of strings/,
    ],
    [
      'env that is a map',
      fileWith({name: 'a', execConfig: {...minimalExec, env: {X: 'y'}}}),
      /providers\[0\] \("a"\): execConfig\.env must be a list of \{"name": \.\.\., "value": \.\.\.\} objects, not an object/,
    ],
    [
      'an env entry without a value',
      fileWith({name: 'a', execConfig: {...minimalExec, env: [{name: 'X', value: 'y'}, {name: 'Y'}]}}),
      /providers\[0\] \("a"\): execConfig\.env\[1\] must be \{"name": "<string>", "value": "<string>"\}/,
    ],
    [
      'an env entry with a number value',
      fileWith({name: 'a', execConfig: {...minimalExec, env: [{name: 'X', value: 1}]}}),
      /execConfig\.env\[0\] must be \{"name"/,
    ],
    [
      'an env entry with an empty name',
      fileWith({name: 'a', execConfig: {...minimalExec, env: [{name: '', value: 'y'}]}}),
      /execConfig\.env\[0\]\.name "" is not a usable variable name/,
    ],
    [
      'a provideClusterInfo that is a string',
      fileWith({name: 'a', execConfig: {...minimalExec, provideClusterInfo: 'true'}}),
      /providers\[0\] \("a"\): execConfig\.provideClusterInfo must be true or false/,
    ],
    [
      'an unknown interactiveMode',
      fileWith({name: 'a', execConfig: {...minimalExec, interactiveMode: 'Sometimes'}}),
      /providers\[0\] \("a"\): execConfig\.interactiveMode "Sometimes" is not one of Never, IfAvailable, Always/,
    ],
    [
      'an installHint that is not a string',
      fileWith({name: 'a', execConfig: {...minimalExec, installHint: 3}}),
      /execConfig\.installHint must be a string/,
    ],
    [
      'an unknown args policy',
      fileWith({name: 'a', execConfig: minimalExec, profileSourcedCLIArgsPolicy: 'Allow'}),
      /providers\[0\] \("a"\): profileSourcedCLIArgsPolicy "Allow" is not one of "", "Ignore", "Append"/,
    ],
    [
      'an env policy that only exists for args',
      fileWith({name: 'a', execConfig: minimalExec, profileSourcedEnvVarsPolicy: 'Append'}),
      /providers\[0\] \("a"\): profileSourcedEnvVarsPolicy "Append" is not one of "", "Ignore", "AppendIfNotExists", "Replace"/,
    ],
    [
      'a policy that is not a string',
      fileWith({name: 'a', execConfig: minimalExec, profileSourcedCLIArgsPolicy: true}),
      /profileSourcedCLIArgsPolicy true is not one of/,
    ],
  ]
  for (const [label, text, pattern] of invalidFiles) {
    it(`refuses ${label}`, () => {
      assertUsageError(() => parseProviderFile(text, 'f.json'), /^f\.json: /, pattern)
    })
  }

  it('refuses a duplicate name, naming both entries', () => {
    const text = JSON.stringify({
      providers: [
        {name: 'a', execConfig: minimalExec},
        {name: 'b', execConfig: minimalExec},
        {name: 'a', execConfig: minimalExec},
      ],
    })
    assertUsageError(
      () => parseProviderFile(text, 'f.json'),
      /^f\.json: providers\[2\] repeats the name "a" of providers\[0\]/,
    )
  })
})

describe('parseAccessProviderFlag', () => {
  it('follows KEP-5339: v1, cluster info for the plugin, no profile-sourced args or env', () => {
    assert.deepEqual(parseAccessProviderFlag("google='/usr/bin/gke-gcloud-auth-plugin --flag1 v1'"), {
      name: 'google',
      execConfig: {
        apiVersion: V1,
        command: '/usr/bin/gke-gcloud-auth-plugin',
        args: ['--flag1', 'v1'],
        provideClusterInfo: true,
      },
    } satisfies Provider)
  })

  const forms: Array<[string, string, string, string[]]> = [
    ['double quotes around the command line', 'g="/bin/p --flag v"', '/bin/p', ['--flag', 'v']],
    [
      'an argument quoted inside the quotes',
      `g="/bin/p --msg 'hello world'"`,
      '/bin/p',
      ['--msg', 'hello world'],
    ],
    [
      'double quotes inside single quotes',
      `g='/bin/p --msg "a b" "c\\"d"'`,
      '/bin/p',
      ['--msg', 'a b', 'c"d'],
    ],
    ['an unquoted single word', 'g=/usr/bin/plugin', '/usr/bin/plugin', []],
    ['an unquoted command line', 'g=/bin/p --a "b c"', '/bin/p', ['--a', 'b c']],
    ['an escaped single quote', `g=/bin/p 'it'\\''s'`, '/bin/p', ["it's"]],
    ['an escaped dollar sign', `g='/bin/p \\$HOME'`, '/bin/p', ['$HOME']],
    ['operators inside quotes', `g="/bin/p 'a|b' '*.json' '#1'"`, '/bin/p', ['a|b', '*.json', '#1']],
    ['spaces around the parts', `g =  '/bin/p  x'  `, '/bin/p', ['x']],
    ['an equals sign in an argument', `g='/bin/p --audience=https://a'`, '/bin/p', ['--audience=https://a']],
  ]
  for (const [label, value, command, args] of forms) {
    it(`splits ${label}`, () => {
      const provider = parseAccessProviderFlag(value)
      assert.equal(provider.name, 'g')
      assert.equal(provider.execConfig.command, command)
      assert.deepEqual(provider.execConfig.args, args)
    })
  }

  const invalid: Array<[string, string, RegExp]> = [
    ['a value without "="', 'google', /expected name=command/],
    ['an empty name', "='/bin/p'", /the provider name before "=" must be a non-empty word/],
    ['a name with spaces', "a b='/bin/p'", /the provider name before "=" must be a non-empty word/],
    ['an empty command', 'g=', /no command after "="/],
    ['an empty quoted command', "g=''", /no command after "="/],
    ['an environment variable', "g='/bin/p $HOME'", /"\$HOME" \(an environment variable\) is not expanded/],
    ['a braced variable in double quotes', `g='/bin/p "\${TOKEN}"'`, /"\$TOKEN" \(an environment variable\)/],
    ['a command substitution', "g='/bin/p $(id)'", /a "\$" substitution is not expanded/],
    ['backticks', "g='/bin/p `id`'", /backticks would be command substitution/],
    ['an and-list', "g='/bin/p && rm -rf /'", /"&&" is a shell operator/],
    ['a pipe', "g='/bin/p | tee'", /"\|" is a shell operator/],
    ['a semicolon', "g='/bin/p; id'", /";" is a shell operator/],
    ['a redirection', "g='/bin/p > out'", /">" is a shell operator/],
    ['a glob', "g='/bin/p *.json'", /"\*\.json" is a glob pattern/],
    ['a question-mark glob', "g='/bin/p file?'", /"file\?" is a glob pattern/],
    ['a comment', "g='/bin/p # note'", /"#" starts a shell comment/],
    ['an unclosed quote', `g='/bin/p "a b'`, /the " quote is never closed/],
    ['an unclosed outer quote', `g='/bin/p`, /the ' quote is never closed/],
    ['a trailing backslash', "g='/bin/p \\'", /ends with a lone backslash/],
    ['a home-relative command', "g='~/bin/p'", /"~" is not expanded here/],
  ]
  for (const [label, value, pattern] of invalid) {
    it(`refuses ${label}`, () => {
      assertUsageError(() => parseAccessProviderFlag(value), /^--access-provider /, pattern)
    })
  }
})

describe('mergeProviders', () => {
  const provider = (name: string, command: string): Provider => ({
    name,
    execConfig: {apiVersion: V1, command},
  })

  it('lets a flag replace the file entry in place and appends new names in flag order', () => {
    const fromFile = [provider('a', 'file-a'), provider('b', 'file-b'), provider('c', 'file-c')]
    const fromFlags = [provider('z', 'flag-z'), provider('b', 'flag-b'), provider('y', 'flag-y')]
    const merged = mergeProviders(fromFile, fromFlags)
    assert.deepEqual(
      merged.map((entry) => [entry.name, entry.execConfig.command]),
      [
        ['a', 'file-a'],
        ['b', 'flag-b'],
        ['c', 'file-c'],
        ['z', 'flag-z'],
        ['y', 'flag-y'],
      ],
    )
    assert.deepEqual(
      fromFile.map((entry) => entry.execConfig.command),
      ['file-a', 'file-b', 'file-c'],
    )
  })

  it('lets a later flag win over an earlier flag of the same name, keeping the first position', () => {
    const merged = mergeProviders(
      [provider('a', 'file-a')],
      [provider('x', 'first-x'), provider('a', 'flag-a'), provider('x', 'second-x')],
    )
    assert.deepEqual(
      merged.map((entry) => [entry.name, entry.execConfig.command]),
      [
        ['a', 'flag-a'],
        ['x', 'second-x'],
      ],
    )
  })

  it('gives the file unchanged without flags, and the flags without a file', () => {
    const fromFile = [provider('a', 'file-a')]
    assert.deepEqual(mergeProviders(fromFile, []), fromFile)
    assert.deepEqual(
      mergeProviders([], [provider('b', 'x'), provider('a', 'y')]).map((entry) => entry.name),
      ['b', 'a'],
    )
  })
})

describe('relative plugin commands', () => {
  it('resolves a relative path against the base directory; absolute paths and bare names stay', () => {
    const cases: Array<[string, string]> = [
      ['./bin/plugin', '/etc/cpcred/bin/plugin'],
      ['bin/plugin', '/etc/cpcred/bin/plugin'],
      ['../tools/plugin', '/etc/tools/plugin'],
      ['/usr/bin/plugin', '/usr/bin/plugin'],
      ['kubelogin', 'kubelogin'],
      ['gke-gcloud-auth-plugin', 'gke-gcloud-auth-plugin'],
    ]
    for (const [command, expected] of cases)
      assert.equal(resolvePluginCommand(command, '/etc/cpcred'), expected)
  })

  it('rewrites an --access-provider value with a relative command so that it parses to the absolute one', () => {
    for (const value of ["x='./bin/my plugin' --flag 'a b'", "x='bin/plugin --flag v'", 'x=./plugin']) {
      const resolved = resolveAccessProviderFlag(value, '/work/dir')
      const original = parseAccessProviderFlag(value)
      const reparsed = parseAccessProviderFlag(resolved)
      assert.equal(reparsed.name, 'x')
      assert.ok(reparsed.execConfig.command.startsWith('/work/dir/'), resolved)
      assert.deepEqual(reparsed.execConfig.args, original.execConfig.args, resolved)
    }
    assert.equal(resolveAccessProviderFlag("x='/abs/plugin --f'", '/w'), "x='/abs/plugin --f'")
    assert.equal(resolveAccessProviderFlag('x=kubelogin get-token', '/w'), 'x=kubelogin get-token')
  })
})
