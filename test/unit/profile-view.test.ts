import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {formatCells} from '../../src/core/text/format.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {healthOf, profileName, profileTable, providersCell} from '../../src/core/profiles/profile-view.js'

/** What the printer shows: the table's cells made printable and aligned. */
const shown = (...args: Parameters<typeof profileTable>): string => formatCells(profileTable(...args))

const now = new Date('2026-11-22T12:00:00Z')

function profile(name: string, namespace: string, status?: ClusterProfile['status']): ClusterProfile {
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, namespace, creationTimestamp: '2026-11-22T11:59:00Z'},
    spec: {clusterManager: {name: 'ocm'}},
    status,
  }
}

const healthy = profile('a', 'ns1', {
  conditions: [{type: 'ControlPlaneHealthy', status: 'True'}],
  version: {kubernetes: 'v1.33.1'},
  accessProviders: [{name: 'p1'}, {name: 'p2'}],
  credentialProviders: [{name: 'p2'}, {name: 'old'}],
})

describe('profile view', () => {
  it('reads health from ControlPlaneHealthy, <none> without it (as every empty cell)', () => {
    assert.equal(healthOf(healthy), 'True')
    assert.equal(healthOf(profile('b', 'ns', {conditions: [{type: 'Other', status: 'False'}]})), '<none>')
  })

  it('lists offered providers once each and marks the chosen one', () => {
    assert.equal(providersCell(healthy, 'p2'), 'p1,p2*,old')
    assert.equal(providersCell(healthy, undefined), 'p1,p2,old')
    assert.equal(providersCell(profile('b', 'ns'), undefined), '<none>')
  })

  it('renders the table with NAMESPACE first under -A', () => {
    const out = shown([healthy, profile('b', 'ns2')], {wide: false, allNamespaces: true, now})
    assert.equal(
      out,
      [
        'NAMESPACE   NAME   MANAGER   HEALTHY   VERSION   PROVIDERS   AGE',
        'ns1         a      ocm       True      v1.33.1   p1,p2,old   60s',
        'ns2         b      ocm       <none>    <none>    <none>      60s',
        '',
      ].join('\n'),
    )
  })

  it('adds DISPLAY NAME, CLUSTERSET, MEMBER, SERVER and the API version read with -o wide', () => {
    const out = shown([healthy], {
      wide: true,
      allNamespaces: false,
      now,
      chosenServer: () => 'https://a.example',
      clustersetOf: (ns) => (ns === 'ns1' ? 'prod' : undefined),
    })
    const [header, row] = out.trimEnd().split('\n')
    assert.match(header!, /AGE\s+DISPLAY NAME\s+CLUSTERSET\s+MEMBER\s+SERVER\s+API$/)
    assert.match(row!, /60s\s+<none>\s+prod\s+<none>\s+https:\/\/a\.example\s+v1alpha1$/)
  })

  it('shows the clusterset.k8s.io property and the namespace label in CLUSTERSET, each clusterset once', () => {
    const withProperty = (value: string): ClusterProfile => ({
      ...healthy,
      status: {...healthy.status, properties: [{name: 'clusterset.k8s.io', value}]},
    })
    const column = (profile: ClusterProfile, namespaceSet?: string) => {
      const out = shown([profile], {
        wide: true,
        allNamespaces: false,
        now,
        clustersetOf: () => namespaceSet,
      })
      return out
        .trimEnd()
        .split('\n')[1]!
        .match(/60s\s+<none>\s+(\S+)\s/)![1]
    }
    assert.equal(column(withProperty('east')), 'east')
    assert.equal(column(withProperty('east'), 'east'), 'east')
    assert.equal(column(withProperty('east'), 'legacy'), 'east,legacy')
    assert.equal(column(withProperty(''), 'legacy'), 'legacy')
    assert.equal(column(healthy), '<none>')
  })

  it('names a profile as kubectl -o name does: resource.group/name', () => {
    assert.equal(profileName(healthy), 'clusterprofile.multicluster.x-k8s.io/a\n')
  })
})
