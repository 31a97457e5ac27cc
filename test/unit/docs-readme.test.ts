// What the README says of cpcred's behaviour, checked against the code that decides it.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {PROFILE_VERSIONS} from '../../src/core/profiles/cluster-profile.js'

const readme = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'),
  'utf8',
)

describe('README.md', () => {
  it('names the ClusterProfile versions in the order cpcred reads them', () => {
    const said =
      /ClusterProfiles are read in\s+`(v\w+)` (?:when|while) the hub serves it, else `(v\w+)`/.exec(readme)
    assert.ok(said, 'the README says which version is read')
    assert.deepEqual(said.slice(1), [...PROFILE_VERSIONS])
  })
})
