import {describe, it} from 'node:test'
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {answerable, COMPLETE_COMMAND, route} from '../../src/cli/router.js'
import {COMMANDS, FAST_BUNDLES, type CommandId} from '../../src/cli/command-table.js'
import {asksForFullPath} from '../../src/cli/answer-question.js'
import {CREDENTIAL_FLAGS} from '../../src/cli/credential.js'
import {EXEC_FLAGS} from '../../src/cli/exec.js'

describe('the command router', () => {
  const cases: Array<[string[], ReturnType<typeof route>]> = [
    [['credential', 'ns/a'], 'fast-path'],
    [['list', '-A'], 'fast-path'],
    [['ls'], 'fast-path'],
    [['plugin', 'secretreader'], 'fast-path'],
    [['plugin', 'token-request', '--audience', 'x'], 'fast-path'],
    [['plugin', 'nosuch'], 'oclif'],
    [['exec', 'ns/a', '--', 'kubectl', 'get', 'pods'], 'exec'],
    // After -- the words are the user's command's; before it, --help is a request for help.
    [['exec', 'ns/a', '--', 'kubectl', '--help'], 'exec'],
    [['exec', '--help'], 'oclif'],
    [['exec', 'ns/a', '-h', '--', 'true'], 'oclif'],
    [['get', '-A', '--all', '--', 'pods', '-A'], 'get'],
    // get's --help is its own wherever it is, as oclif gave it before get had a bundle.
    [['get', 'ns/a', '--', 'pods', '--help'], 'oclif'],
    [['get', '--help'], 'oclif'],
    [['list', '--help'], 'oclif'],
    [['lint', '-A'], 'lint'],
    [['lint', '--help'], 'oclif'],
    [['credential', '-h'], 'oclif'],
    // Completion words are what the user typed, never cpcred's own --help.
    [[COMPLETE_COMMAND, 'list', '--help'], 'fast-path'],
    [['describe', 'ns/a'], 'oclif'],
    [['sync'], 'oclif'],
    [[], 'oclif'],
    [['help'], 'oclif'],
  ]
  for (const [argv, expected] of cases) {
    it(`${JSON.stringify(argv)} runs from ${expected}`, () => assert.equal(route(argv), expected))
  }

  it('asks for the last answer only for credential and exec', () => {
    assert.equal(answerable(['credential', 'ns/a']), true)
    assert.equal(answerable(['exec', 'ns/a', '--', 'true']), true)
    assert.equal(answerable(['list']), false)
    assert.equal(answerable([]), false)
  })

  it('sends each command of the command table, and each alias, where the table says', () => {
    for (const id of Object.keys(COMMANDS) as CommandId[]) {
      const entry: {runs: string; aliases?: readonly string[]} = COMMANDS[id]
      // A topic's command (hub:use) is typed as two words.
      for (const words of [id.split(':'), ...(entry.aliases ?? []).map((alias) => [alias])]) {
        const argv = words[0] === 'plugin' ? ['plugin', 'secretreader'] : [...words, 'ns/a', '--', 'true']
        assert.equal(route(argv), entry.runs, words.join(' '))
        if (entry.runs !== 'oclif') assert.ok(entry.runs in FAST_BUNDLES, `${entry.runs} is built`)
      }
    }
  })

  it('builds every bundle the router and bin/ load, from sources that exist', () => {
    const root = new URL('../../', import.meta.url)
    for (const source of Object.values(FAST_BUNDLES))
      assert.ok(readFileSync(new URL(source, root)).length > 0)
    for (const loaded of ['answer', 'router']) assert.ok(loaded in FAST_BUNDLES, loaded)
    for (const bin of ['bin/run.js', 'bin/kubectl_complete-cpcred']) {
      const required = [...readFileSync(new URL(bin, root), 'utf8').matchAll(/dist\/fast\/([\w-]+)\.cjs/g)]
      assert.ok(required.length > 0, bin)
      for (const [, name] of required) assert.ok(name! in FAST_BUNDLES, `${bin} loads ${name}`)
    }
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      scripts: Record<string, string>
    }
    assert.match(pkg.scripts['build:fast']!, /scripts\/build-fast\.ts/, 'the build reads the table')
  })

  it('gives no last answer after a flag that explains or skips the cache, as the command tables spell them', () => {
    for (const table of [CREDENTIAL_FLAGS, EXEC_FLAGS]) {
      for (const [name, spec] of Object.entries(table)) {
        const words = [`--${name}`, `--${name}=true`, ...('char' in spec ? [`-${spec.char}`] : [])]
        const fullPath = name === 'verbose' || name === 'no-cache'
        for (const word of words) assert.equal(asksForFullPath(word), fullPath, word)
      }
    }
    for (const help of ['--help', '-h', '--help=true']) assert.equal(asksForFullPath(help), true, help)
    for (const other of ['--verbosely', '-vv', 'ns/verbose', '--no-cache-please'])
      assert.equal(asksForFullPath(other), false, other)
  })
})
