// Every oclif command runs through the one base class and the one table of fronts: a command class
// with no front (or a front with no class) fails here, not at a user's terminal.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {COMMANDS as COMMAND_TABLE} from '../../src/cli/command-table.js'
import {FRONTS} from '../../src/cli/fronts.js'
import {BUILTIN_PLUGINS} from '../../src/cli/plugins/names.js'

const COMMANDS = path.resolve(import.meta.dirname, '../../src/commands')

/** oclif's id of each command class: its path under src/commands, `index` naming its folder. */
function commandIds(): Map<string, string> {
  const files = readdirSync(COMMANDS, {recursive: true, encoding: 'utf8'}).filter((file) =>
    file.endsWith('.ts'),
  )
  return new Map(
    files.map((file) => [
      file
        .replace(/\.ts$/, '')
        .replace(/\/index$/, '')
        .split(path.sep)
        .join(':'),
      readFileSync(path.join(COMMANDS, file), 'utf8'),
    ]),
  )
}

describe('the fronts of the oclif commands', () => {
  const ids = commandIds()

  it('every command class extends FrontCommand', () => {
    const others = [...ids].filter(([, source]) => !/extends FrontCommand\b/.test(source)).map(([id]) => id)
    assert.deepEqual(others, [])
  })

  it('a command without its own run() has a front, and every front has a command', () => {
    const ownRun = [...ids].filter(([, source]) => /\brun\(\): Promise/.test(source)).map(([id]) => id)
    assert.deepEqual(
      ownRun.sort(),
      ['autocomplete', 'autocomplete:script'],
      'only autocomplete needs oclif itself',
    )
    const fronted = [...ids.keys()].filter((id) => !ownRun.includes(id)).sort()
    assert.deepEqual(Object.keys(FRONTS).sort(), fronted)
  })

  it('the command table names every oclif command, and has a class for each it names', () => {
    const tabled = Object.entries(COMMAND_TABLE)
      .filter(([, entry]) => !('hidden' in entry))
      .flatMap(([id]) => (id === 'plugin' ? BUILTIN_PLUGINS.map((name) => `plugin:${name}`) : [id]))
    assert.deepEqual([...ids.keys()].sort(), tabled.sort())
  })

  it('each front loads and is a function of (wiring, argv)', async () => {
    for (const [id, load] of Object.entries(FRONTS)) {
      const front = await load()
      assert.equal(typeof front, 'function', id)
      assert.equal(front.length, 2, `${id} takes (wiring, argv)`)
    }
  })
})
