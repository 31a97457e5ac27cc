// Every rule of `cpcred lint` (src/core/lint/rules.ts) with a profile that breaks it and one that
// keeps it; a rule without a row here fails. The rules a v1alpha2 CRD enforces are held to a real
// apiserver's admission in test/integration/lint.test.ts, with the same strings (LINT_URL_CASES).
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile, ProfileCluster} from '../../src/core/profiles/cluster-profile.js'
import {celUrl} from '../../src/core/lint/cel-url.js'
import {explain, failsAt, lintInventories} from '../../src/core/lint/lint.js'
import {checkProfile} from '../../src/core/lint/checks.js'
import {LINT_RULES, type RuleId} from '../../src/core/lint/rules.js'
import {duplicatesOf} from '../../src/core/fleet/member-fold.js'
import {CLEAN_PROFILE, LINT_URL_CASES, cleanProfile} from '../helpers/lint-fixtures.js'

type Change = (profile: ClusterProfile) => void

const provider = (server: string, extra: Partial<ProfileCluster> = {}) => ({
  name: 'idp',
  cluster: {server, ...extra},
})

interface Row {
  failing: Change
  /** What the finding's `found` holds. */
  found: RegExp
  field: string
  passing: Change
}

const ROWS: Record<Exclude<RuleId, 'member-id-duplicate' | 'member-id-duplicate-tie'>, Row> = {
  'server-url': {
    failing: (p) => void (p.status!.accessProviders = [provider('api.example.com:6443')]),
    found: /provider "idp": "api\.example\.com:6443" has no host/,
    field: 'status.accessProviders[0].cluster.server',
    passing: (p) => void (p.status!.accessProviders = [provider('https://[fd00::1]:6443/prefix')]),
  },
  'proxy-url': {
    failing: (p) =>
      void (p.status!.accessProviders = [provider('https://a.example', {'proxy-url': 'ftp://proxy:21'})]),
    found: /"ftp:\/\/proxy:21" has the scheme "ftp", not http, https or socks5/,
    field: 'status.accessProviders[0].cluster.proxy-url',
    passing: (p) =>
      void (p.status!.accessProviders = [
        provider('https://a.example', {'proxy-url': 'socks5://proxy:1080'}),
      ]),
  },
  'access-provider-names': {
    failing: (p) =>
      void (p.status!.accessProviders = [provider('https://a.example'), provider('https://b.example')]),
    found: /a second entry of this name/,
    field: 'status.accessProviders[1].name',
    passing: (p) =>
      void (p.status!.accessProviders = [
        provider('https://a.example'),
        {...provider('https://b.example'), name: 'b'},
      ]),
  },
  'access-providers-max': {
    failing: (p) =>
      void (p.status!.accessProviders = Array.from({length: 65}, (_, i) => ({
        ...provider('https://a.example'),
        name: `p${i}`,
      }))),
    found: /65 access providers \(v1alpha2 takes at most 64\)/,
    field: 'status.accessProviders',
    passing: (p) =>
      void (p.status!.accessProviders = Array.from({length: 64}, (_, i) => ({
        ...provider('https://a.example'),
        name: `p${i}`,
      }))),
  },
  'credential-providers-only': {
    failing: (p) => void (p.status!.credentialProviders = [{...provider('https://a.example'), name: 'old'}]),
    found: /"old" only in the deprecated credentialProviders/,
    field: 'status.credentialProviders[0].name',
    passing: (p) => void (p.status!.credentialProviders = [provider('https://a.example')]),
  },
  'certificate-authority-file': {
    failing: (p) =>
      void (p.status!.accessProviders = [
        provider('https://a.example', {'certificate-authority': '/etc/ca.pem'}),
      ]),
    found: /a CA file path "\/etc\/ca\.pem"/,
    field: 'status.accessProviders[0].cluster.certificate-authority',
    passing: (p) =>
      void (p.status!.accessProviders = [
        provider('https://a.example', {'certificate-authority-data': 'Zm9v'}),
      ]),
  },
  'cluster-manager-name': {
    failing: (p) => {
      p.spec.clusterManager.name = 'ocm/hub'
      p.metadata.labels!['x-k8s.io/cluster-manager'] = 'ocm/hub'
    },
    found: /"ocm\/hub" is not a label value/,
    field: 'spec.clusterManager.name',
    passing: (p) => {
      p.spec.clusterManager.name = 'Open_Cluster.Management-1'
      p.metadata.labels!['x-k8s.io/cluster-manager'] = 'Open_Cluster.Management-1'
    },
  },
  'cluster-manager-label': {
    failing: (p) => void (p.metadata.labels!['x-k8s.io/cluster-manager'] = 'karmada'),
    found: /"karmada", while spec\.clusterManager\.name is "ocm"/,
    field: 'metadata.labels["x-k8s.io/cluster-manager"]',
    passing: () => undefined,
  },
  'member-id-empty': {
    failing: (p) => void (p.metadata.labels!['multicluster.x-k8s.io/inventory-member-id'] = ''),
    found: /an empty value/,
    field: 'metadata.labels["multicluster.x-k8s.io/inventory-member-id"]',
    passing: () => undefined,
  },
  'member-id-missing': {
    failing: (p) => void delete p.metadata.labels!['multicluster.x-k8s.io/inventory-member-id'],
    found: /no member id/,
    field: 'metadata.labels["multicluster.x-k8s.io/inventory-member-id"]',
    passing: () => undefined,
  },
  'control-plane-healthy': {
    failing: (p) =>
      void (p.status!.conditions = p.status!.conditions!.filter((c) => c.type !== 'ControlPlaneHealthy')),
    found: /no ControlPlaneHealthy condition/,
    field: 'status.conditions',
    // Reported, even False: the rule asks that it be maintained, not that the cluster be healthy.
    passing: (p) => void (p.status!.conditions![0]!.status = 'False'),
  },
  'joined-condition': {
    failing: (p) => void (p.status!.conditions = p.status!.conditions!.filter((c) => c.type !== 'Joined')),
    found: /no Joined condition/,
    field: 'status.conditions',
    passing: () => undefined,
  },
  'kubernetes-version': {
    failing: (p) => void (p.status!.version = {}),
    found: /no Kubernetes version/,
    field: 'status.version.kubernetes',
    passing: () => undefined,
  },
  'clusterset-namespace-label': {
    failing: (p) => void (p.status!.properties = []),
    found: /membership only in the namespace label multicluster\.x-k8s\.io\/clusterset=prod/,
    field: 'status.properties[name=clusterset.k8s.io]',
    passing: () => undefined,
  },
}

const LEGACY = {namespaceClusterset: {clusterset: 'prod', label: 'multicluster.x-k8s.io/clusterset'}}

describe('lint rules', () => {
  it('the clean profile breaks none', () => {
    assert.deepEqual(checkProfile(cleanProfile(), LEGACY), [])
  })

  it('every rule has a failing and a passing fixture', () => {
    const covered = new Set([...Object.keys(ROWS), 'member-id-duplicate', 'member-id-duplicate-tie'])
    assert.deepEqual(
      LINT_RULES.map((rule) => rule.id).filter((id) => !covered.has(id)),
      [],
    )
  })

  for (const [id, row] of Object.entries(ROWS)) {
    it(`${id}: fails the breaking profile, passes the keeping one`, () => {
      const rule = LINT_RULES.find((entry) => entry.id === id)!
      const failing = cleanProfile()
      row.failing(failing)
      const found = checkProfile(failing, LEGACY).filter((finding) => finding.rule === id)
      assert.equal(found.length, 1, JSON.stringify(checkProfile(failing, LEGACY)))
      assert.equal(found[0]!.severity, rule.severity)
      assert.equal(found[0]!.field, row.field)
      assert.match(found[0]!.found, row.found)
      assert.ok(found[0]!.fix.length > 0)
      assert.equal(found[0]!.source, rule.source)
      assert.equal(found[0]!.namespace, 'fleet')
      assert.equal(found[0]!.profile, 'eu')

      const passing = cleanProfile()
      row.passing(passing)
      assert.deepEqual(
        checkProfile(passing, LEGACY).filter((finding) => finding.rule === id),
        [],
      )
    })
  }

  it('credential-providers-only: a profile read through v1alpha2 has no credentialProviders to judge', () => {
    const profile = cleanProfile()
    profile.apiVersion = 'multicluster.x-k8s.io/v1alpha2'
    profile.status!.credentialProviders = [{name: 'old', cluster: {server: 'https://a.example'}}]
    assert.deepEqual(checkProfile(profile, LEGACY), [])
  })

  it('server-url and proxy-url: one finding for several entries, naming the first and counting the rest', () => {
    const profile = cleanProfile()
    profile.status!.accessProviders = [
      {name: 'a', cluster: {server: 'https://ok.example'}},
      {name: 'b', cluster: {server: '/only/a/path'}},
      {name: 'c'},
      {name: 'd', cluster: {server: ''}},
    ]
    const [finding, ...rest] = checkProfile(profile).filter((f) => f.rule === 'server-url')
    assert.equal(rest.length, 0)
    assert.equal(finding!.field, 'status.accessProviders[1].cluster.server')
    assert.equal(finding!.found, 'provider "b": "/only/a/path" has no host (and 2 more entries)')
  })
})

describe('the URL rules CEL applies (isURL, getHost, getScheme)', () => {
  for (const {url, server, proxy} of LINT_URL_CASES) {
    it(`${JSON.stringify(url)}: server ${server ? 'admitted' : 'refused'}, proxy ${proxy ? 'admitted' : 'refused'}`, () => {
      const parsed = celUrl(url)
      assert.equal(parsed !== undefined && parsed.host !== '', server)
      assert.equal(
        parsed !== undefined && parsed.host !== '' && ['http', 'https', 'socks5'].includes(parsed.scheme),
        proxy,
      )
    })
  }
})

describe('duplicates in an inventory', () => {
  const member = (name: string, created: string, namespace = 'fleet', id = 'm-1') => {
    const profile = cleanProfile(name, namespace)
    profile.metadata.labels!['multicluster.x-k8s.io/inventory-member-id'] = id
    profile.metadata.creationTimestamp = created
    return profile
  }

  it('the oldest acts, the newer are ignored and named for deletion', () => {
    const profiles = [
      member('b', '2026-02-01T00:00:00Z'),
      member('a', '2026-01-01T00:00:00Z'),
      member('c', '2026-03-01T00:00:00Z'),
    ]
    const report = lintInventories(profiles)
    const [inventory] = report.inventories
    assert.deepEqual(inventory!.duplicates, [
      {
        memberId: 'm-1',
        profiles: ['fleet/a', 'fleet/b', 'fleet/c'],
        acting: 'fleet/a',
        tied: [],
        ignored: ['fleet/b', 'fleet/c'],
        reason:
          'fleet/a is the oldest (created 2026-01-01T00:00:00Z): consumers act on it and ignore the newer fleet/b, fleet/c',
        delete: ['fleet/b', 'fleet/c'],
      },
    ])
    assert.deepEqual(
      inventory!.findings.map((f) => [f.profile, f.rule, f.severity]),
      [
        ['a', 'member-id-duplicate', 'warning'],
        ['b', 'member-id-duplicate', 'warning'],
        ['c', 'member-id-duplicate', 'warning'],
      ],
    )
    assert.match(inventory!.findings[1]!.found, /^ignored: fleet\/a, older/)
    assert.equal(
      inventory!.findings[1]!.fix,
      'delete fleet/b, or give it the member id of the cluster it stands for',
    )
    assert.equal(failsAt(report, 'error'), false)
    assert.equal(failsAt(report, 'warning'), true)
  })

  it('the oldest tie: an error on each, since no consumer acts on the member cluster', () => {
    const report = lintInventories([member('a', '2026-01-01T00:00:00Z'), member('b', '2026-01-01T00:00:00Z')])
    assert.deepEqual(
      report.inventories[0]!.findings.map((f) => [f.profile, f.rule, f.severity]),
      [
        ['a', 'member-id-duplicate-tie', 'error'],
        ['b', 'member-id-duplicate-tie', 'error'],
      ],
    )
    assert.deepEqual(report.inventories[0]!.duplicates[0]!.delete, ['fleet/b'])
    assert.equal(failsAt(report, 'error'), true)
  })

  it('the same member id in two namespaces is two inventories, no duplicate', () => {
    const report = lintInventories([
      member('a', '2026-01-01T00:00:00Z', 'one'),
      member('a', '2026-02-01T00:00:00Z', 'two'),
    ])
    assert.deepEqual(
      report.inventories.map((inventory) => [
        inventory.namespace,
        inventory.profiles,
        inventory.findings.length,
      ]),
      [
        ['one', 1, 0],
        ['two', 1, 0],
      ],
    )
  })

  it('a member id alone is no duplicate', () => {
    const report = lintInventories([
      member('a', '2026-01-01T00:00:00Z'),
      member('b', '2026-01-01T00:00:00Z', 'fleet', 'm-2'),
    ])
    assert.deepEqual(report.counts, {error: 0, 'will-break': 0, warning: 0})
    assert.deepEqual(duplicatesOf([member('a', 'x')]).map(explain), [])
  })
})

describe('fail-on', () => {
  it('counts severities at or above the threshold', () => {
    const willBreak = cleanProfile()
    willBreak.status!.accessProviders![0]!.cluster!['certificate-authority'] = '/ca.pem'
    const report = lintInventories([willBreak])
    assert.deepEqual(report.counts, {error: 0, 'will-break': 1, warning: 0})
    assert.equal(failsAt(report, 'error'), false)
    assert.equal(failsAt(report, 'will-break'), true)
    assert.equal(failsAt(report, 'warning'), true)
    assert.equal(failsAt(lintInventories([CLEAN_PROFILE()]), 'warning'), false)
  })
})
