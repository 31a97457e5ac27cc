import assert from 'node:assert/strict'
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const ours = path.join(root, 'test/testenv/manifests/clusterprofile-crd.yaml')
// The upstream CRD, kept beside the repository for compatibility checks.
const upstream = path.join(root, '../shared/reference/multicluster.x-k8s.io_clusterprofiles.yaml')

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

describe('the test hub ClusterProfile CRD', () => {
  it(
    'is structurally the upstream Cluster Inventory API CRD',
    {skip: !existsSync(upstream) && 'no upstream reference beside the repository'},
    () => {
      assert.deepEqual(
        structure(YAML.parse(readFileSync(ours, 'utf8'))),
        structure(YAML.parse(readFileSync(upstream, 'utf8'))),
      )
    },
  )

  it('serves multicluster.x-k8s.io/v1alpha1 ClusterProfile, namespaced, with a status subresource', () => {
    const crd = YAML.parse(readFileSync(ours, 'utf8'))
    assert.equal(crd.spec.group, 'multicluster.x-k8s.io')
    assert.equal(crd.spec.scope, 'Namespaced')
    assert.equal(crd.spec.names.plural, 'clusterprofiles')
    assert.deepEqual(crd.spec.versions[0].subresources, {status: {}})
  })
})
