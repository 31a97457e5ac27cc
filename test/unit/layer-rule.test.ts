// The layer rule (.dependency-cruiser.cjs, run by `npm run lint`) must fail on what it forbids: each
// case plants two or three modules in a scratch tree shaped like src/ and runs the real
// dependency-cruiser over it with the project's configuration.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {after, describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs')
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise')
const scratch: string[] = []
after(() => scratch.forEach((dir) => rmSync(dir, {recursive: true, force: true})))

/** Runs the layer rule over a tree of `files` (path → imports); the names of the rules broken. */
function broken(files: Record<string, string[]>): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cpcred-layers-'))
  scratch.push(dir)
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({compilerOptions: {module: 'NodeNext'}}))
  for (const [file, imports] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), {recursive: true})
    const lines = imports.map((target, index) => {
      const specifier = path.relative(path.dirname(file), target).replace(/\.ts$/, '.js')
      return `import {x${index}} from '${specifier.startsWith('.') ? specifier : `./${specifier}`}'`
    })
    writeFileSync(
      path.join(dir, file),
      [...lines, 'export const x0 = 1', 'export const x1 = 1', ''].join('\n'),
    )
  }
  const run = spawnSync(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
  })
  assert.ok(run.stdout, `dependency-cruiser printed nothing: ${run.stderr}`)
  const result = JSON.parse(run.stdout) as {summary: {violations: {rule: {name: string}}[]}}
  return [...new Set(result.summary.violations.map((violation) => violation.rule.name))].sort()
}

describe('the layer rule', () => {
  it('fails when core imports an adapter', () => {
    assert.deepEqual(broken({'src/core/rule.ts': ['src/adapters/files.ts'], 'src/adapters/files.ts': []}), [
      'core-is-pure',
    ])
  })

  it('fails when a use case imports an adapter instead of taking it as a port', () => {
    assert.deepEqual(broken({'src/usecases/list.ts': ['src/adapters/hub.ts'], 'src/adapters/hub.ts': []}), [
      'usecases-reach-out-through-ports',
    ])
  })

  it('fails when an adapter calls a use case, and allows it the port types', () => {
    assert.deepEqual(
      broken({
        'src/adapters/hub.ts': ['src/usecases/run-plugin.ts', 'src/usecases/ports.ts'],
        'src/usecases/run-plugin.ts': [],
        'src/usecases/ports.ts': [],
      }),
      ['adapters-implement-ports'],
    )
  })

  it('fails when a command reaches an adapter other than through the wiring', () => {
    assert.deepEqual(
      broken({
        'src/commands/list.ts': ['src/adapters/printer.ts'],
        'src/cli/wiring.ts': ['src/adapters/printer.ts'],
        'src/adapters/printer.ts': [],
      }),
      ['fronts-reach-adapters-through-the-wiring'],
    )
  })

  it('fails on a cycle', () => {
    assert.deepEqual(broken({'src/core/a.ts': ['src/core/b.ts'], 'src/core/b.ts': ['src/core/a.ts']}), [
      'no-cycles',
    ])
  })

  it('passes a tree that keeps to the layers', () => {
    assert.deepEqual(
      broken({
        'src/commands/list.ts': ['src/cli/wiring.ts', 'src/usecases/list.ts'],
        'src/cli/wiring.ts': ['src/adapters/hub.ts'],
        'src/usecases/list.ts': ['src/core/rule.ts', 'src/usecases/ports.ts'],
        'src/usecases/ports.ts': [],
        'src/adapters/hub.ts': ['src/core/rule.ts', 'src/usecases/ports.ts'],
        'src/core/rule.ts': [],
      }),
      [],
    )
  })
})
