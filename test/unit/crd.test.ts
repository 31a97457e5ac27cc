import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {CLUSTER_INVENTORY_API, upstreamCrd} from '../helpers/upstream-crds.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const ours = path.join(root, 'test/testenv/manifests/clusterprofile-crd.yaml')
// The upstream CRD, from the published module, for compatibility checks.
const upstream = () => upstreamCrd('multicluster.x-k8s.io_clusterprofiles.yaml')

/** The CRD without what does not change behaviour: descriptions and generator annotations. */
function structure(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structure)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'description' && key !== 'annotations')
        .map(([key, inner]) => [key, structure(inner)]),
    )
  }
  return value
}

/** A version of a CRD by name. */
function version(crd: {spec: {versions: {name: string}[]}}, name: string) {
  const found = crd.spec.versions.find((entry) => entry.name === name)
  assert.ok(found, `the CRD has ${name}`)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed YAML document, explored by the assertions
  return found as Record<string, any>
}

describe('the test hub ClusterProfile CRD', () => {
  const crd = YAML.parse(readFileSync(ours, 'utf8'))

  it(`serves v1alpha1 as the upstream Cluster Inventory API CRD (${CLUSTER_INVENTORY_API}) does, and keeps it as the storage version`, () => {
    const reference = YAML.parse(readFileSync(upstream(), 'utf8'))
    const {versions: _ours, ...rest} = crd.spec
    const {versions: _theirs, ...referenceRest} = reference.spec
    assert.deepEqual(structure(rest), structure(referenceRest))
    assert.deepEqual(structure(version(crd, 'v1alpha1')), structure(version(reference, 'v1alpha1')))
  })

  it('serves multicluster.x-k8s.io ClusterProfile, namespaced, with a status subresource in each version', () => {
    assert.equal(crd.spec.group, 'multicluster.x-k8s.io')
    assert.equal(crd.spec.scope, 'Namespaced')
    assert.equal(crd.spec.names.plural, 'clusterprofiles')
    for (const entry of crd.spec.versions) assert.deepEqual(entry.subresources, {status: {}}, entry.name)
    assert.deepEqual(
      crd.spec.versions.map((entry: {name: string; served: boolean; storage: boolean}) => [
        entry.name,
        entry.served,
        entry.storage,
      ]),
      [
        ['v1alpha1', true, true],
        ['v1alpha2', true, false],
      ],
    )
  })

  it('writes v1alpha2 as the upstream Go types say (apis/v1alpha2/clusterprofile_types.go)', () => {
    const schema = version(crd, 'v1alpha2').schema.openAPIV3Schema
    const status = schema.properties.status.properties
    assert.equal(status.credentialProviders, undefined, 'v1alpha2 has no credentialProviders')
    const providers = status.accessProviders
    assert.equal(providers.maxItems, 64)
    assert.deepEqual(
      [providers['x-kubernetes-list-type'], providers['x-kubernetes-list-map-keys']],
      ['map', ['name']],
    )
    assert.deepEqual(providers.items.required, ['cluster', 'name'])
    const cluster = providers.items.properties.cluster.properties
    assert.deepEqual(Object.keys(cluster).sort(), [
      'certificate-authority-data',
      'disable-compression',
      'extensions',
      'insecure-skip-tls-verify',
      'proxy-url',
      'server',
      'tls-server-name',
    ])
    assert.match(
      cluster.server['x-kubernetes-validations'][0].rule,
      /isURL\(self\) && url\(self\)\.getHost\(\) != ''/,
    )
    assert.match(cluster['proxy-url']['x-kubernetes-validations'][0].rule, /\['http', 'https', 'socks5'\]/)
    assert.deepEqual(cluster.extensions['x-kubernetes-list-map-keys'], ['name'])
    const manager = schema.properties.spec.properties.clusterManager
    assert.equal(manager.properties.name.maxLength, 63)
    assert.equal(manager['x-kubernetes-validations'][0].rule, 'self == oldSelf')
    for (const list of ['conditions', 'properties'] as const)
      assert.equal(status[list]['x-kubernetes-list-type'], 'map')
  })
})

describe('the test hub PlacementDecision CRD', () => {
  const placements = path.join(root, 'test/testenv/manifests/placementdecision-crd.yaml')
  const crd = YAML.parse(readFileSync(placements, 'utf8'))

  it(`is the upstream Cluster Inventory API CRD (${CLUSTER_INVENTORY_API}), descriptions aside`, () => {
    const reference = YAML.parse(
      readFileSync(upstreamCrd('multicluster.x-k8s.io_placementdecisions.yaml'), 'utf8'),
    )
    assert.deepEqual(structure(crd), structure(reference))
  })

  it('serves multicluster.x-k8s.io/v1alpha1 placementdecisions, namespaced, at most 100 decisions a slice', () => {
    assert.equal(crd.spec.group, 'multicluster.x-k8s.io')
    assert.equal(crd.spec.scope, 'Namespaced')
    assert.equal(crd.spec.names.plural, 'placementdecisions')
    const v1alpha1 = version(crd, 'v1alpha1')
    assert.deepEqual([v1alpha1.served, v1alpha1.storage], [true, true])
    const schema = v1alpha1.schema.openAPIV3Schema
    assert.deepEqual(schema.required, ['decisions'])
    assert.equal(schema.properties.decisions.maxItems, 100)
    const decision = schema.properties.decisions.items
    assert.deepEqual(decision.required, ['clusterProfileRef'])
    assert.deepEqual(decision.properties.clusterProfileRef.required, ['name'])
  })
})
