// The text report of `cpcred lint`: a line per finding, the fix and the source once per rule, and a
// fix that differs from profile to profile said with each finding.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {printLint} from '../../src/cli/lint.js'
import {lintInventories} from '../../src/core/lint/lint.js'
import {ExitCode} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {cleanProfile} from '../helpers/lint-fixtures.js'

/** A clean profile without the x-k8s.io/cluster-manager label, managed by `manager`. */
function unlabelled(name: string, manager: string): ClusterProfile {
  const profile = cleanProfile(name)
  delete profile.metadata.labels!['x-k8s.io/cluster-manager']
  profile.spec.clusterManager.name = manager
  return profile
}

function text(profiles: ClusterProfile[]): string {
  let printed = ''
  printLint(
    {report: lintInventories(profiles), failOn: 'error', exitCode: ExitCode.Failure},
    {text: (chunk: string) => void (printed += chunk)},
  )
  return printed
}

describe('the text report of lint', () => {
  it('says the fix and the source once per rule when every finding of it shares the fix', () => {
    const printed = text([unlabelled('eu', 'ocm'), unlabelled('us', 'ocm')])
    assert.equal(
      printed,
      [
        'inventory fleet (namespace fleet): 2 profiles, 2 errors, 0 will-break, 0 warnings',
        '  eu  error  cluster-manager-label  metadata.labels["x-k8s.io/cluster-manager"]: no such label',
        '  us  error  cluster-manager-label  metadata.labels["x-k8s.io/cluster-manager"]: no such label',
        '  by rule:',
        '    cluster-manager-label (2 findings)',
        '      fix:    label it x-k8s.io/cluster-manager=ocm (the value of spec.clusterManager.name)',
        '      source: cluster-inventory-api conformance/clusterprofile.go (required): the x-k8s.io/cluster-manager label equals spec.clusterManager.name; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Cluster Manager',
        '',
        '2 profiles in 1 inventory: 2 errors, 0 will-break, 0 warnings; failing at --fail-on error',
        '',
      ].join('\n'),
    )
  })

  it('says a fix that differs from profile to profile with each finding', () => {
    const printed = text([unlabelled('eu', 'ocm'), unlabelled('us', 'fleet-manager')])
    assert.match(
      printed,
      /^ {2}eu {2}error {2}cluster-manager-label {2}.*: no such label\n {6}fix: label it x-k8s\.io\/cluster-manager=ocm /m,
    )
    assert.match(
      printed,
      /^ {2}us {2}error {2}cluster-manager-label {2}.*: no such label\n {6}fix: label it x-k8s\.io\/cluster-manager=fleet-manager /m,
    )
    assert.match(
      printed,
      /^ {4}cluster-manager-label \(2 findings\)\n {6}fix: {4}as said for each profile above\n {6}source: /m,
    )
  })

  it('has no rule section for an inventory without findings', () => {
    const printed = text([cleanProfile('eu')])
    assert.doesNotMatch(printed, /by rule/)
    assert.match(
      printed,
      /^1 profile in 1 inventory: 0 errors, 0 will-break, 0 warnings; passing at --fail-on error$/m,
    )
  })
})
