// Golden files: exact comparison with test/fixtures/<dir>/<name>; UPDATE_GOLDEN=1 rewrites the
// file instead, to be reviewed in the diff.
import assert from 'node:assert/strict'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

export const updateGolden = process.env.UPDATE_GOLDEN === '1'

/** An assertion against the golden files of one fixtures directory (a URL ending in /). */
export function goldenFiles(fixtures: URL): (name: string, actual: string) => void {
  return (name, actual) => {
    const file = new URL(name, fixtures)
    if (updateGolden) {
      mkdirSync(fixtures, {recursive: true})
      writeFileSync(file, actual)
      return
    }
    let expected: string
    try {
      expected = readFileSync(file, 'utf8')
    } catch {
      assert.fail(
        `golden file ${fileURLToPath(file)} is missing; run the test with UPDATE_GOLDEN=1 to create it`,
      )
    }
    assert.equal(
      actual,
      expected,
      `differs from ${name}; if intended, rerun with UPDATE_GOLDEN=1 and review the diff`,
    )
  }
}
