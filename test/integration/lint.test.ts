// `cpcred lint` on the real test hub: the rules a v1alpha2 CRD enforces agree with the apiserver's
// admission (the hub's v1alpha2 schema carries the markers of upstream's
// apis/v1alpha2/clusterprofile_types.go, test/testenv/manifests/clusterprofile-crd.yaml), and the
// command, run through bin/run.js, reports an inventory as a platform admin and CI read it.
import assert from 'node:assert/strict'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {before, describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {checkProfile} from '../../src/core/lint/checks.js'
import {atOrAbove, type RuleId} from '../../src/core/lint/rules.js'
import {applyProfile, cpcred, createNamespace, tempDir, testEnv, uniqueName} from '../helpers/env.js'
import {cleanProfile, LINT_URL_CASES} from '../helpers/lint-fixtures.js'
import {kubeRequest, type Connection} from '../testenv/http.js'

const V1ALPHA2 = 'multicluster.x-k8s.io/v1alpha2'

interface AdmissionCase {
  rule: RuleId
  title: string
  change: (profile: ClusterProfile) => void
  /** What the v1alpha2 CRD does with it, as upstream's markers say. */
  admitted: boolean
}

const providers = (count: number, name = (i: number) => `p${i}`) =>
  Array.from({length: count}, (_, i) => ({name: name(i), cluster: {server: 'https://a.example'}}))

const ADMISSION_CASES: AdmissionCase[] = [
  ...LINT_URL_CASES.map(({url, server}): AdmissionCase => ({
    rule: 'server-url',
    title: `server ${JSON.stringify(url)}`,
    change: (p) => void (p.status!.accessProviders = [{name: 'idp', cluster: {server: url}}]),
    admitted: server,
  })),
  ...LINT_URL_CASES.map(({url, proxy}): AdmissionCase => ({
    rule: 'proxy-url',
    title: `proxy-url ${JSON.stringify(url)}`,
    change: (p) =>
      void (p.status!.accessProviders = [
        {name: 'idp', cluster: {server: 'https://a.example', 'proxy-url': url}},
      ]),
    admitted: proxy,
  })),
  {
    rule: 'server-url',
    title: 'a server of 2048 characters',
    change: (p) =>
      void (p.status!.accessProviders = [
        {name: 'idp', cluster: {server: `https://a.example/${'x'.repeat(2048 - 18)}`}},
      ]),
    admitted: true,
  },
  {
    rule: 'server-url',
    title: 'a server of 2049 characters',
    change: (p) =>
      void (p.status!.accessProviders = [
        {name: 'idp', cluster: {server: `https://a.example/${'x'.repeat(2049 - 18)}`}},
      ]),
    admitted: false,
  },
  {
    rule: 'server-url',
    title: 'an access provider without a cluster',
    change: (p) => void (p.status!.accessProviders = [{name: 'idp'}]),
    admitted: false,
  },
  {
    rule: 'proxy-url',
    title: 'an empty proxy-url',
    change: (p) =>
      void (p.status!.accessProviders = [
        {name: 'idp', cluster: {server: 'https://a.example', 'proxy-url': ''}},
      ]),
    admitted: true,
  },
  {
    rule: 'access-provider-names',
    title: 'two entries of one name',
    change: (p) => void (p.status!.accessProviders = providers(2, () => 'idp')),
    admitted: false,
  },
  {
    rule: 'access-provider-names',
    title: 'an empty name',
    change: (p) => void (p.status!.accessProviders = providers(1, () => '')),
    admitted: false,
  },
  {
    rule: 'access-provider-names',
    title: 'a name of 254 characters',
    change: (p) => void (p.status!.accessProviders = providers(1, () => 'n'.repeat(254))),
    admitted: false,
  },
  {
    rule: 'access-provider-names',
    title: 'a name of 253 characters, and another',
    change: (p) => void (p.status!.accessProviders = providers(2, (i) => (i ? 'other' : 'n'.repeat(253)))),
    admitted: true,
  },
  {
    rule: 'access-providers-max',
    title: '65 access providers',
    change: (p) => void (p.status!.accessProviders = providers(65)),
    admitted: false,
  },
  {
    rule: 'access-providers-max',
    title: '64 access providers',
    change: (p) => void (p.status!.accessProviders = providers(64)),
    admitted: true,
  },
  ...(
    [
      ['ocm/hub', false],
      ['', false],
      ['-ocm', false],
      ['m'.repeat(64), false],
      ['m'.repeat(63), true],
      ['Open_Cluster.Management-1', true],
    ] as const
  ).map(([name, admitted]): AdmissionCase => ({
    rule: 'cluster-manager-name',
    title: `spec.clusterManager.name ${JSON.stringify(name)}`,
    change: (p) => {
      p.spec.clusterManager.name = name
      p.metadata.labels!['x-k8s.io/cluster-manager'] = name
    },
    admitted,
  })),
]

/** Creates the profile through v1alpha2 and writes its status through v1alpha2: admitted or not. */
async function admitted(
  hub: Connection,
  profile: ClusterProfile,
): Promise<{admitted: boolean; answer: string}> {
  const collection = `/apis/${V1ALPHA2}/namespaces/${profile.metadata.namespace}/clusterprofiles`
  const {status, ...withoutStatus} = profile
  const created = await kubeRequest(hub, 'POST', collection, {...withoutStatus, apiVersion: V1ALPHA2})
  if (created.status !== 201) return {admitted: false, answer: `create: ${created.status} ${created.body}`}
  const updated = await kubeRequest(hub, 'PUT', `${collection}/${profile.metadata.name}/status`, {
    ...JSON.parse(created.body),
    status,
  })
  return {admitted: updated.status === 200, answer: `status: ${updated.status} ${updated.body}`}
}

describe('cpcred lint agrees with the v1alpha2 CRD', () => {
  let hub: Connection
  let namespace: string
  before(async () => {
    hub = (await testEnv()).hub
    namespace = await createNamespace(hub, 'lint-admission')
  })

  ADMISSION_CASES.forEach((entry, index) => {
    it(`${entry.rule}: ${entry.title} is ${entry.admitted ? 'admitted' : 'refused'}, and lint says so`, async () => {
      const profile = cleanProfile(`case-${index}`, namespace)
      profile.apiVersion = V1ALPHA2
      entry.change(profile)
      const answer = await admitted(hub, profile)
      assert.equal(answer.admitted, entry.admitted, answer.answer)
      const findings = checkProfile(profile).filter((finding) => finding.rule === entry.rule)
      assert.equal(
        findings.some((finding) => atOrAbove(finding.severity, 'will-break')),
        !answer.admitted,
        `${answer.answer}\nlint: ${JSON.stringify(findings)}`,
      )
    })
  })
})

interface LintJson {
  failOn: string
  profiles: number
  counts: Record<string, number>
  inventories: {
    namespace: string
    profiles: number
    counts: Record<string, number>
    findings: {
      profile: string
      rule: string
      severity: string
      field: string
      found: string
      fix: string
      source: string
    }[]
    duplicates: {memberId: string; acting?: string; ignored: string[]; delete: string[]; reason: string}[]
  }[]
}

describe('cpcred lint on an inventory', () => {
  let inventory: string
  let other: string
  let run: (args: string[]) => ReturnType<typeof cpcred>
  const mark = uniqueName('lint')

  before(async () => {
    const {env, hub} = await testEnv()
    run = (args) => cpcred(args, {KUBECONFIG: env.hub.kubeconfig})
    inventory = await createNamespace(hub, 'lint-inventory')
    other = await createNamespace(hub, 'lint-legacy', {'multicluster.x-k8s.io/clusterset': 'prod'})
    const labelled = (profile: ClusterProfile) => {
      profile.metadata.labels!['lint-run'] = mark
      return profile
    }
    await applyProfile(hub, labelled(cleanProfile('good', inventory)))
    const legacy = labelled(cleanProfile('legacy', inventory))
    legacy.status!.credentialProviders = [{name: 'old', cluster: {server: 'https://legacy.example'}}]
    legacy.status!.accessProviders = [
      {name: 'idp', cluster: {server: 'https://legacy.example', 'certificate-authority': '/etc/ca.pem'}},
    ]
    await applyProfile(hub, legacy)
    const unlabelled = labelled(cleanProfile('unlabelled', inventory))
    delete unlabelled.metadata.labels!['x-k8s.io/cluster-manager']
    await applyProfile(hub, unlabelled)
    const duplicate = (name: string) => {
      const profile = labelled(cleanProfile(name, inventory))
      profile.metadata.labels!['multicluster.x-k8s.io/inventory-member-id'] = 'shared'
      return profile
    }
    await applyProfile(hub, duplicate('dup-old'))
    // creationTimestamp has whole seconds: the second profile must be created a second later.
    await sleep(1100)
    await applyProfile(hub, duplicate('dup-new'))
    const onlyLabel = labelled(cleanProfile('only-label', other))
    onlyLabel.status!.properties = []
    await applyProfile(hub, onlyLabel)
  })

  it('text: a section per inventory, each finding with its field and what was found, the fix and the source by rule; exit 1 on an error', async () => {
    const result = await run(['lint', '-n', inventory])
    assert.equal(result.code, 1, result.stderr)
    assert.match(
      result.stdout,
      new RegExp(
        `^inventory ${inventory} \\(namespace ${inventory}\\): 5 profiles, 1 error, 2 will-break, 2 warnings$`,
        'm',
      ),
    )
    assert.match(
      result.stdout,
      /^ {2}unlabelled {2}error {2}cluster-manager-label {2}metadata\.labels\["x-k8s\.io\/cluster-manager"\]: no such label$/m,
    )
    // The fix and the source once per rule, after the inventory's findings.
    assert.match(
      result.stdout,
      /^ {2}by rule:\n(?: {4}.*\n| {6}.*\n)*? {4}cluster-manager-label \(1 finding\)\n {6}fix: {4}label it x-k8s\.io\/cluster-manager=ocm \(the value of spec\.clusterManager\.name\)\n {6}source: cluster-inventory-api conformance\/clusterprofile\.go \(required\)/m,
    )
    assert.match(
      result.stdout,
      /^ {2}legacy {2}will-break {2}credential-providers-only {2}status\.credentialProviders\[0\]\.name: /m,
    )
    assert.match(result.stdout, /^ {2}legacy {2}will-break {2}certificate-authority-file /m)
    assert.match(
      result.stdout,
      new RegExp(
        `^ {4}member cluster "shared": ${inventory}/dup-old is the oldest \\(created [^)]+\\): consumers act on it and ignore the newer ${inventory}/dup-new\\n {6}delete: ${inventory}/dup-new$`,
        'm',
      ),
    )
    assert.match(
      result.stdout,
      /^5 profiles in 1 inventory: 1 error, 2 will-break, 2 warnings; failing at --fail-on error$/m,
    )
  })

  it('-o json: the same report as data; --fail-on decides the exit code', async () => {
    const result = await run(['lint', '-n', inventory, '-o', 'json', '--fail-on', 'will-break'])
    assert.equal(result.code, 1, result.stderr)
    const report = JSON.parse(result.stdout) as LintJson
    assert.equal(report.failOn, 'will-break')
    assert.deepEqual(report.counts, {error: 1, 'will-break': 2, warning: 2})
    assert.deepEqual(
      report.inventories[0]!.findings.map((finding) => [finding.profile, finding.rule, finding.severity]),
      [
        ['dup-new', 'member-id-duplicate', 'warning'],
        ['dup-old', 'member-id-duplicate', 'warning'],
        ['legacy', 'credential-providers-only', 'will-break'],
        ['legacy', 'certificate-authority-file', 'will-break'],
        ['unlabelled', 'cluster-manager-label', 'error'],
      ],
    )
    assert.deepEqual(report.inventories[0]!.duplicates[0]!.acting, `${inventory}/dup-old`)
    assert.deepEqual(report.inventories[0]!.duplicates[0]!.delete, [`${inventory}/dup-new`])

    const legacyOnly = await run(['lint', `${inventory}/legacy`, '-o', 'yaml'])
    assert.equal(legacyOnly.code, 0, legacyOnly.stderr)
    assert.match(legacyOnly.stdout, /^failOn: error$/m)
    const willBreak = await run(['lint', `${inventory}/legacy`, '--fail-on', 'will-break', '-o', 'json'])
    assert.equal(willBreak.code, 1, willBreak.stderr)
  })

  it('-A -l: several namespaces are several inventories; the legacy namespace label is a warning', async () => {
    const result = await run(['lint', '-A', '-l', `lint-run=${mark}`, '-o', 'json'])
    const report = JSON.parse(result.stdout) as LintJson
    assert.deepEqual(
      report.inventories.map((entry) => [entry.namespace, entry.profiles]),
      [
        [inventory, 5],
        [other, 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    )
    const legacy = report.inventories.find((entry) => entry.namespace === other)!
    assert.deepEqual(
      legacy.findings.map((finding) => finding.rule),
      ['clusterset-namespace-label'],
    )
    assert.match(legacy.findings[0]!.found, /namespace label multicluster\.x-k8s\.io\/clusterset=prod/)
  })

  it('--report junit=FILE: a case per profile and rule, failing at --fail-on', async () => {
    const dir = await tempDir('cpcred-lint-')
    const file = path.join(dir, 'reports', 'lint.xml')
    const failing = await run([
      'lint',
      '-n',
      inventory,
      '--report',
      `junit=${file}`,
      '--fail-on',
      'will-break',
    ])
    assert.equal(failing.code, 1, failing.stderr)
    const xml = await readFile(file, 'utf8')
    assert.match(xml, /<testsuite name="cpcred lint" tests="80" failures="3" errors="0" skipped="0"/)
    assert.match(
      xml,
      new RegExp(
        `<testcase classname="${inventory}" name="legacy certificate-authority-file" time="0.000">\\n {6}<failure message="[^"]+" type="will-break">`,
      ),
    )
    assert.match(xml, new RegExp(`<testcase classname="${inventory}" name="good server-url" time="0.000"/>`))

    const passing = await run([
      'lint',
      `${inventory}/good`,
      '--report',
      `junit=${file}`,
      '--fail-on',
      'warning',
    ])
    assert.equal(passing.code, 0, passing.stderr)
    assert.match(
      await readFile(file, 'utf8'),
      /<testsuite name="cpcred lint" tests="16" failures="0" errors="0"/,
    )
  })

  it('usage errors exit 2 with what to do', async () => {
    const result = await run(['lint', '--fail-on', 'info'])
    assert.equal(result.code, 2)
    assert.match(result.stderr, /--fail-on "info" is not one of error, will-break, warning/)
    const both = await run(['lint', 'a', '-l', 'x=y'])
    assert.equal(both.code, 2)
    assert.match(both.stderr, /lint takes profile names or -l, not both/)
  })
})
