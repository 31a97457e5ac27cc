// The provider-file entries docs/providers.md gives for real plugins are read by cpcred's own parser,
// so the guide cannot show an entry cpcred would refuse.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {parseProviderFile} from '../../src/core/access/provider-file.js'
import {resolveAccess} from '../../src/core/access/resolve-access.js'
import {buildExecInfo} from '../../src/core/exec-credential/protocol.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

const guide = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/providers.md'),
  'utf8',
)
const FEDERATION = '## Workload-identity federation'
const section = guide.slice(guide.indexOf('## Real plugins'), guide.indexOf(FEDERATION))
const federationEntries = [
  ...guide
    .slice(guide.indexOf(FEDERATION), guide.indexOf('## Hub pinning'))
    .matchAll(/```json\n([\s\S]*?)```/g),
].map((match) => match[1]!)
const entries = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!)
/** The profile sides the guide shows, by the provider they offer. */
const profileSides = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map(
  (match) => YAML.parse(match[1]!) as Pick<ClusterProfile, 'status'>,
)

describe('docs/providers.md: real plugins', () => {
  it('gives an entry for each plugin the guide names', () => {
    assert.deepEqual(
      entries.map((entry) => JSON.parse(entry).name),
      [
        'secretreader',
        'kubeconfig-secretreader',
        'open-cluster-management',
        'google',
        'aks-workload-identity',
        'eks',
      ],
    )
  })

  for (const entry of entries) {
    const name = JSON.parse(entry).name as string
    it(`the "${name}" entry is a valid provider file entry`, () => {
      const file = parseProviderFile(JSON.stringify({providers: [JSON.parse(entry)]}), 'docs/providers.md')
      assert.equal(file.providers[0]!.name, name)
    })
  }
})

describe('docs/providers.md: the eks-aws-auth entry and profile resolve as the plugin needs', () => {
  const entry = entries.find((text) => JSON.parse(text).name === 'eks')!
  const {providers} = parseProviderFile(JSON.stringify({providers: [JSON.parse(entry)]}), 'docs/providers.md')
  const side = profileSides.find((profile) => profile.status?.accessProviders?.[0]?.name === 'eks')!
  // The guide's placeholder for the EKS cluster's CA, as a real profile would carry it.
  const caData = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString(
    'base64',
  )
  const profile = JSON.parse(JSON.stringify(side).replace('<BASE64_CA>', caData)) as ClusterProfile
  profile.metadata = {name: 'my-eks-cluster', namespace: 'fleet'}

  it('the profile chooses the entry and hands the plugin region and clusterId in v1 (all it reads)', () => {
    const resolution = resolveAccess(profile, providers)
    assert.equal(resolution.provider.name, 'eks')
    assert.deepEqual(resolution.execClusterConfig, {region: 'ap-northeast-1', clusterId: 'my-eks-cluster'})
    const info = JSON.parse(
      buildExecInfo(resolution.execConfig, resolution.offered.cluster, resolution.execClusterConfig, false),
    ) as {
      apiVersion: string
      spec: {cluster: {server: string; config: unknown}}
    }
    // pkg/credentialplugin refuses any other version ("unexpected ExecCredential type (expect v1)").
    assert.equal(info.apiVersion, 'client.authentication.k8s.io/v1')
    assert.equal(info.spec.cluster.server, 'https://0123456789ABCDEF.gr7.ap-northeast-1.eks.amazonaws.com')
    assert.deepEqual(info.spec.cluster.config, {region: 'ap-northeast-1', clusterId: 'my-eks-cluster'})
  })
})

describe('docs/providers.md: the serviceAccountToken entries', () => {
  const expected: Array<[string, string, string, string]> = [
    ['eks-web-identity', 'sts.amazonaws.com', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ROLE_ARN'],
    ['aks-web-identity', 'api://AzureADTokenExchange', 'AZURE_FEDERATED_TOKEN_FILE', 'AZURE_CLIENT_ID'],
    [
      'gke-web-identity',
      '//iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/fleet/providers/hub',
      'HUB_TOKEN_FILE',
      '',
    ],
  ]
  it('gives one for AWS, Azure and GCP', () => {
    assert.deepEqual(
      federationEntries.map((entry) => JSON.parse(entry).name),
      expected.map(([name]) => name),
    )
  })
  for (const [name, audience, fileEnv, variable] of expected) {
    it(`the "${name}" entry is valid, without warnings, and federates with ${audience}`, () => {
      const entry = federationEntries.find((text) => JSON.parse(text).name === name)!
      const file = parseProviderFile(JSON.stringify({providers: [JSON.parse(entry)]}), 'docs/providers.md')
      assert.deepEqual(file.warnings, [])
      const block = file.providers[0]!.serviceAccountToken!
      assert.equal(block.audience, audience)
      assert.equal(block.fileEnv, fileEnv)
      assert.deepEqual(block.serviceAccount, {namespace: 'fleet', name: 'deployer'})
      if (variable) assert.ok(file.providers[0]!.execConfig.env?.some((env) => env.name === variable))
      // The file's path is the only way the token reaches the plugin.
      assert.ok(
        !JSON.stringify(file.providers[0]!.execConfig).includes(fileEnv) || name === 'gke-web-identity',
      )
    })
  }
})
