// The describe use case with a hand-written fake hub and chooser: which profile it describes, and
// what it gathers for the description.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, UsageError} from '../../src/core/errors.js'
import type {PlacementDecision} from '../../src/core/fleet/placement.js'
import {describeCommand, type DescribeProfileInput} from '../../src/usecases/describe-profile.js'
import type {Chooser, ProfileDescriber} from '../../src/usecases/ports.js'

const profile = (namespace: string, name: string): ClusterProfile => ({
  metadata: {namespace, name},
  spec: {clusterManager: {name: 'm'}},
})

function fakeHub(
  profiles: ClusterProfile[],
  decisions: PlacementDecision[] | Error = [],
): ProfileDescriber & {asked: string[]} {
  const asked: string[] = []
  return {
    asked,
    async getProfile(namespace, name) {
      asked.push(`get ${namespace}/${name}`)
      return profiles.find((p) => p.metadata.namespace === namespace && p.metadata.name === name)
    },
    async listProfilePage({namespace}) {
      asked.push(`list ${namespace ?? '*'}`)
      return {items: profiles.filter((p) => namespace === undefined || p.metadata.namespace === namespace)}
    },
    async listNamespaceLabels() {
      return new Map()
    },
    async clustersetOf(namespace) {
      asked.push(`clusterset ${namespace}`)
      return namespace === 'fleet' ? {clusterset: 'prod', label: 'cluster.x-k8s.io/clusterset'} : undefined
    },
    pin: () => ({kubeconfigPaths: ['/home/ada/.kube/config'], context: 'hub'}),
    async listPlacementDecisions(namespace) {
      if (decisions instanceof Error) throw decisions
      return {items: decisions.filter((d) => d.metadata.namespace === namespace)}
    },
  }
}

const nobody: Chooser = {
  interactive: false,
  pickOne: () => assert.fail('nobody is at a terminal to ask'),
}

const input = (profile?: string, allNamespaces = false): DescribeProfileInput => ({
  profile,
  scope: {namespace: 'fleet', allNamespaces},
  providers: [],
  providerSource: 'no provider file',
  showEnv: false,
  now: new Date('2026-11-24T12:00:00Z'),
})

describe('describeCommand', () => {
  it('without a name and without a terminal is a usage error, and asks the hub nothing', async () => {
    const hub = fakeHub([profile('fleet', 'a')])
    await assert.rejects(describeCommand({hub, chooser: nobody}, input()), UsageError)
    assert.deepEqual(hub.asked, [])
  })

  it('a name that is not there is an error that suggests the near one', async () => {
    const hub = fakeHub([profile('fleet', 'eu-west-1')])
    await assert.rejects(
      describeCommand({hub, chooser: nobody}, input('eu-west-2')),
      (error: Error) =>
        /not found/.test(error.message) && /eu-west-1/.test(String((error as {hint?: string}).hint)),
    )
  })

  it('gathers the profile, its clusterset and the hub pin', async () => {
    const hub = fakeHub([profile('fleet', 'a')])
    const gathered = await describeCommand({hub, chooser: nobody}, input('a'))
    assert.equal(gathered.profile.metadata.name, 'a')
    assert.deepEqual(gathered.clusterset, {clusterset: 'prod', label: 'cluster.x-k8s.io/clusterset'})
    assert.deepEqual(gathered.hubPin, {kubeconfigPaths: ['/home/ada/.kube/config'], context: 'hub'})
    assert.deepEqual(hub.asked, ['get fleet/a', 'clusterset fleet'])
  })

  it('on a terminal, offers the profiles of the namespace (all with -A) and describes the one chosen', async () => {
    const hub = fakeHub([profile('fleet', 'a'), profile('fleet', 'b'), profile('other', 'c')])
    const offered: string[][] = []
    const chooser: Chooser = {
      interactive: true,
      async pickOne(profiles) {
        offered.push(profiles.map((p) => `${p.metadata.namespace}/${p.metadata.name}`))
        return profiles.at(-1)!
      },
    }
    assert.equal((await describeCommand({hub, chooser}, input())).profile.metadata.name, 'b')
    assert.equal((await describeCommand({hub, chooser}, input(undefined, true))).profile.metadata.name, 'c')
    assert.deepEqual(offered, [
      ['fleet/a', 'fleet/b'],
      ['fleet/a', 'fleet/b', 'other/c'],
    ])
  })
})

describe('describeCommand: placements', () => {
  const decision = (name: string, refs: string[]): PlacementDecision => ({
    metadata: {name, namespace: 'fleet'},
    decisions: refs.map((ref) => ({clusterProfileRef: {name: ref}})),
  })

  it('names the PlacementDecisions of the namespace that reference the profile', async () => {
    const hub = fakeHub([profile('fleet', 'a')], [decision('web', ['a', 'b']), decision('db', ['b'])])
    const gathered = await describeCommand({hub, chooser: nobody}, input('a'))
    assert.deepEqual(gathered.placedBy, ['fleet/web'])
  })

  it('shows none when the decisions cannot be read (no CRD, no right to list them)', async () => {
    const hub = fakeHub([profile('fleet', 'a')], new CpcredError('placementdecisions is forbidden'))
    const gathered = await describeCommand({hub, chooser: nobody}, input('a'))
    assert.equal(gathered.placedBy, undefined)
  })
})
