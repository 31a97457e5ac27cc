// The provider-file entries docs/providers.md gives for real plugins are read by cpcred's own parser,
// so the guide cannot show an entry cpcred would refuse.
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {parseProviderFile} from '../../src/core/access/provider-file.js'

const guide = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/providers.md'),
  'utf8',
)
const section = guide.slice(guide.indexOf('## Real plugins'), guide.indexOf('## Hub pinning'))
const entries = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!)

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
