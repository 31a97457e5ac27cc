// One definition per command's flags: the fast path (node:util parseArgs, no oclif) and the oclif
// class (help, and the parser of every other command) are built from the same table. These tests
// prove they agree flag for flag, and that both read values by the same rules.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import type {Command} from '@oclif/core'
import {CREDENTIAL_FLAGS} from '../../src/cli/credential.js'
import {EXEC_FLAGS} from '../../src/cli/exec.js'
import {flagShapes, parseFlags, type FlagTable} from '../../src/cli/flag-table.js'
import {SELECTOR_FLAG, outputFlag} from '../../src/cli/flags.js'
import {LIST_FORMATS} from '../../src/cli/list-output.js'
import {readdirSync} from 'node:fs'
import {oclifFlags} from '../../src/cli/oclif-flags.js'
import {ExitCode, isCpcredError} from '../../src/core/errors.js'
import Credential from '../../src/commands/credential.js'
import Exec from '../../src/commands/exec.js'
import PluginSecretreader from '../../src/commands/plugin/secretreader.js'
import PluginTokenRequest from '../../src/commands/plugin/token-request.js'
import {SECRETREADER_FLAGS} from '../../src/cli/plugins/secretreader.js'
import {TOKEN_REQUEST_FLAGS} from '../../src/cli/plugins/token-request.js'

const FAST_PATH_COMMANDS: [string, FlagTable, typeof Command][] = [
  ['credential', CREDENTIAL_FLAGS, Credential],
  ['exec', EXEC_FLAGS, Exec],
  ['plugin secretreader', SECRETREADER_FLAGS, PluginSecretreader],
  ['plugin token-request', TOKEN_REQUEST_FLAGS, PluginTokenRequest],
]

interface OclifFlag {
  char?: string
  type: 'boolean' | 'option'
  multiple?: boolean
  summary?: string
  helpGroup?: string
}

describe('fast-path commands: the flag table and oclif agree flag for flag', () => {
  for (const [name, table, command] of FAST_PATH_COMMANDS) {
    it(`cpcred ${name}`, () => {
      const oclif = command.flags as unknown as Record<string, OclifFlag>
      const fast = flagShapes(table)
      const shape = (entries: [string, {short?: string; boolean: boolean; multiple: boolean}][]) =>
        entries.sort(([a], [b]) => a.localeCompare(b))
      assert.deepEqual(
        shape(
          Object.entries(fast).map(([flag, option]) => [
            flag,
            {short: option.short, boolean: option.type === 'boolean', multiple: option.multiple === true},
          ]),
        ),
        shape(
          Object.entries(oclif).map(([flag, spec]) => [
            flag,
            {short: spec.char, boolean: spec.type === 'boolean', multiple: spec.multiple === true},
          ]),
        ),
      )
      for (const [flag, spec] of Object.entries(oclif)) {
        assert.ok(spec.summary, `--${flag} has help text`)
        assert.equal(spec.summary, table[flag]!.summary)
      }
    })
  }
})

describe('both parsers read values by the same rules', () => {
  const table = {
    count: {kind: 'integer', summary: 'n', min: 1, default: 4},
    wait: {kind: 'duration', summary: 'd', default: '2m'},
    format: {kind: 'option', summary: 'o', options: ['text', 'json'], default: 'text'},
    name: {kind: 'string', summary: 's', char: 'n'},
    all: {kind: 'boolean', summary: 'b', exclusive: ['name']},
    tag: {kind: 'string', summary: 'm', multiple: true, dependsOn: ['name']},
  } as const satisfies FlagTable

  it('fills defaults and converts', () => {
    const {flags, positionals} = parseFlags(
      table,
      ['x', '--count=8', '--wait', '90s', '-n', 'a', '--tag', 'p', '--tag', 'q'],
      'usage',
    )
    assert.deepEqual(flags, {count: 8, wait: 90_000, format: 'text', name: 'a', all: false, tag: ['p', 'q']})
    assert.deepEqual(positionals, ['x'])
    assert.deepEqual(parseFlags(table, [], 'usage').flags, {
      count: 4,
      wait: 120_000,
      format: 'text',
      name: undefined,
      all: false,
      tag: [],
    })
  })

  const refused = (argv: string[], message: RegExp) =>
    assert.throws(
      () => parseFlags(table, argv, 'usage'),
      (error: {exitCode: number; message: string}) => error.exitCode === 2 && message.test(error.message),
    )

  it('refuses what oclif refuses, as usage errors', () => {
    refused(['--count', '0'], /^--count "0" is not a whole number of 1 or more$/)
    refused(['--count', '1.5'], /is not a whole number/)
    refused(['--wait', 'soon'], /^--wait "soon" is not a duration$/)
    refused(['--format', 'xml'], /^--format "xml" is not one of text, json$/)
    refused(['--all', '-n', 'a'], /^--all and --name cannot be used together$/)
    refused(['--tag', 'p'], /^--tag needs --name$/)
    refused(['--bogus'], /^unknown flag: --bogus$/)
  })

  it("reads every spelling kubectl reads, and takes the next word as a flag's value whatever it is", () => {
    for (const argv of [['-n', 'fleet'], ['-n=fleet'], ['-nfleet'], ['--name=fleet'], ['--name', 'fleet']]) {
      assert.equal(parseFlags(table, argv, 'usage').flags.name, 'fleet', argv.join(' '))
    }
    assert.equal(parseFlags(table, ['-n', '-A'], 'usage').flags.name, '-A')
    assert.equal(parseFlags(table, ['--all=false'], 'usage').flags.all, false)
    assert.equal(parseFlags(table, ['--all=true'], 'usage').flags.all, true)
    const grouped = {...table, quiet: {kind: 'boolean', summary: 'q', char: 'q'}} as const satisfies FlagTable
    assert.deepEqual(
      [
        parseFlags(grouped, ['-qnfleet'], 'usage').flags.quiet,
        parseFlags(grouped, ['-qnfleet'], 'usage').flags.name,
      ],
      [true, 'fleet'],
    )
    assert.deepEqual(parseFlags(table, ['a', '--', '-n', 'b'], 'usage').positionals, ['a', '-n', 'b'])
    assert.deepEqual(parseFlags(table, ['-'], 'usage').positionals, ['-'])
    refused(['--count', '-3'], /^--count "-3" is not a whole number of 1 or more$/)
    refused(['--count=-3'], /^--count "-3" is not a whole number of 1 or more$/)
    refused(['--name'], /^flag needs an argument: --name$/)
    refused(['--all=maybe'], /^--all="maybe": a yes\/no flag is true or false$/)
  })

  it('names the nearest flag of the command for a typo, and never advises moving it after --', () => {
    refused(['--cuont', '3'], /^unknown flag: --cuont \(did you mean --count\?\)$/)
    refused(['--formt', 'json'], /^unknown flag: --formt \(did you mean --format\?\)$/)
    refused(['-x'], /^unknown shorthand flag: -x in -x$/)
    assert.throws(
      () => parseFlags(table, ['--tga', 'p'], 'usage'),
      (error: {message: string; hint?: string}) =>
        /^unknown flag: --tga \(did you mean --tag\?\)$/.test(error.message) &&
        !/after --/.test(`${error.hint}`),
    )
  })

  it('gives oclif the same rules through the same table', async () => {
    const {oclifFlags} = await import('../../src/cli/oclif-flags.js')
    const flags = oclifFlags(table) as unknown as Record<string, {parse: (input: string) => Promise<unknown>}>
    assert.equal(await flags.count!.parse('8'), 8)
    await assert.rejects(flags.count!.parse('0'), /--count "0" is not a whole number of 1 or more/)
    assert.equal(await flags.wait!.parse('1m30s'), 90_000)
    await assert.rejects(flags.wait!.parse('soon'), /is not a duration/)
  })
})

describe('-l is read where the flags are read', () => {
  const refused = (error: unknown) =>
    isCpcredError(error) &&
    error.exitCode === ExitCode.Usage &&
    error.message.startsWith('-l "env in prod" is not a label selector: ')

  it('refuses a selector the API server would refuse, by either parser, with the same error', async () => {
    assert.throws(() => parseFlags(SELECTOR_FLAG, ['-l', 'env in prod'], 'usage'), refused)
    assert.throws(() => parseFlags(SELECTOR_FLAG, ['--selector=env in prod'], 'usage'), refused)
    const oclif = oclifFlags(SELECTOR_FLAG).selector as unknown as {parse(input: string): Promise<string>}
    await assert.rejects(oclif.parse('env in prod'), refused)
  })

  it('passes a good one on as it was written', async () => {
    assert.equal(
      parseFlags(SELECTOR_FLAG, ['-l', 'env in (prod),tier!=test'], 'usage').flags.selector,
      'env in (prod),tier!=test',
    )
    assert.equal(parseFlags(SELECTOR_FLAG, [], 'usage').flags.selector, undefined)
    const oclif = oclifFlags(SELECTOR_FLAG).selector as unknown as {parse(input: string): Promise<string>}
    assert.equal(await oclif.parse('env=prod'), 'env=prod')
  })
})

describe('-o', () => {
  it('calls the format for people text in every command, and shows only that name', async () => {
    const dir = new URL('../../src/commands/', import.meta.url)
    const files = readdirSync(dir, {recursive: true, encoding: 'utf8'}).filter((file) => file.endsWith('.ts'))
    let withOutput = 0
    for (const file of files) {
      const command = (await import(new URL(file, dir).href)) as {default: typeof Command}
      const output = (command.default.flags as Record<string, {options?: string[]; default?: unknown}>)
        ?.output
      if (!output) continue
      withOutput++
      assert.ok(output.options?.includes('text'), `${file}: ${output.options?.join('|')}`)
      assert.ok(!output.options?.includes('table'), `${file} shows table`)
      assert.equal(output.default, 'text', file)
    }
    assert.ok(withOutput >= 7, `${withOutput} commands have -o`)
  })

  it('still reads table, the old name of the format for people, as text', () => {
    const OUTPUT_FLAG = outputFlag(LIST_FORMATS)
    assert.equal(parseFlags(OUTPUT_FLAG, ['-o', 'table'], 'usage').flags.output, 'text')
    assert.equal(parseFlags(OUTPUT_FLAG, ['--output=wide'], 'usage').flags.output, 'wide')
    assert.equal(parseFlags(OUTPUT_FLAG, [], 'usage').flags.output, 'text')
    assert.throws(
      () => parseFlags(OUTPUT_FLAG, ['-o', 'constructor'], 'usage'),
      /is not one of text, wide, json, yaml, name/,
    )
  })
})
