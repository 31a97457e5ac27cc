// Concerns that live in one module, checked by reading the sources: a second place that asks
// whether a stream is a terminal, or prints -o json|yaml its own way, fails here with its line.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

function sources(dir = SRC): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory()
      ? sources(path.join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [path.join(dir, entry.name)]
        : [],
  )
}

/** `file:line: text` of every line of code (comments left out) that matches, outside `allowed`. */
function found(pattern: RegExp, allowed: string[]): string[] {
  return sources().flatMap((file) => {
    const name = path.relative(SRC, file)
    if (allowed.includes(name)) return []
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        !/^\s*(\/\/|\*|\/\*\*)/.test(line) && pattern.test(line)
          ? [`${name}:${index + 1}: ${line.trim()}`]
          : [],
      )
  })
}

describe('one place for each concern', () => {
  it('only the printer asks whether stdin, stdout or stderr is a terminal', () => {
    // A read of .isTTY or a call of isatty; prompt-terminal.ts only gives its stream the property.
    assert.deepEqual(
      found(/\.isTTY\b|\bisatty\s*\(/, ['adapters/printer.ts']),
      [],
      'ask the printer (stdinIsTTY, stdoutIsTTY, statusShown) or isTerminal',
    )
  })

  it('only the exporter indents JSON or loads YAML for output', () => {
    // The kubeconfig emitter writes kubeconfigs, not -o output: kubectl reads them, not a person's program.
    // Both write YAML by one rule (yaml-scalars.ts, which only names the library's types).
    const emitters = [
      'core/text/export.ts',
      'core/text/export-yaml.ts',
      'core/text/yaml-scalars.ts',
      'core/kubeconfig/text.ts',
    ]
    assert.deepEqual(found(/JSON\.stringify\(.*,\s*null,\s*\d/, emitters), [], 'use core/text/export.ts')
    assert.deepEqual(found(/from 'yaml'|import\('yaml'\)/, emitters), [], 'use core/text/export.ts')
  })

  it('only the worker pool runs items a few at a time', () => {
    assert.deepEqual(
      found(/Array\.from\(\{length: Math\.min\(/, ['core/fleet/worker-pool.ts']),
      [],
      'use core/fleet/worker-pool.ts',
    )
  })

  it('only names.ts builds a request path with a namespace or name in it', () => {
    // Every other path is fixed text; one built by hand could take ".." from the hub unchecked.
    assert.deepEqual(
      found(/\/namespaces\/\$\{|encodeURIComponent\((namespace|name)/, ['core/profiles/names.ts']),
      [],
      'build it with namespacedPath (core/profiles/names.ts), which checks each segment',
    )
  })

  it('only core/json.ts says what a plain object is', () => {
    assert.deepEqual(
      found(
        /(typeof (\w+) === 'object' && \2 !== null|(\w+) !== null && typeof \3 === 'object') && !Array\.isArray/,
        ['core/json.ts'],
      ),
      [],
      'import isRecord from core/json.ts',
    )
  })

  it('only the entry points build a wiring; every front is handed it', () => {
    const entries = [
      'cli/wiring.ts',
      'cli/fast-path.ts',
      // runFront: the entry of exec's, get's and lint's bundles.
      'cli/run-to-exit.ts',
      'cli/main.ts',
      'cli/front-command.ts',
    ]
    assert.deepEqual(
      found(/\bwire\(/, entries),
      [],
      'take the wiring as an argument (the entry point builds it)',
    )
    assert.deepEqual(found(/processWiring|let built: Wiring/, []), [], 'no module keeps a wiring of its own')
  })

  it('only core/text/printable.ts spells the warning prefix', () => {
    assert.deepEqual(found(/[`'"]warning: /, ['core/text/printable.ts']), [], 'use warningLine')
  })

  it('only adapters/self-command.ts works out how this process runs cpcred again', () => {
    assert.deepEqual(
      found(/process\.argv\[1\]/, ['adapters/self-command.ts']),
      [],
      'use selfInvocation or cpcredCommand (adapters/self-command.ts)',
    )
  })

  it("a front never branches on a document's -o itself: cli/present.ts picks the view", () => {
    assert.deepEqual(
      found(/\bflags\.output (===|!==) '(text|json|yaml)'/, []),
      [],
      'present(printer, flags.output, outcome, {text, data}) (cli/present.ts)',
    )
  })

  it('every -o/--output is declared by outputFlag (cli/flags.ts)', () => {
    assert.deepEqual(found(/char: 'o'|\boutput: \{/, ['cli/flags.ts']), [], 'use outputFlag(formats)')
  })
})
