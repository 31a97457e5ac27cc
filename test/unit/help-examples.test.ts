// Every example in `--help` is a command line a user types: oclif marks it with `$ ` only when it
// starts with the binary's name, so a pipeline into cpcred must carry the mark itself.
import assert from 'node:assert/strict'
import {readdirSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const commandsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/commands')
const files = readdirSync(commandsDir, {recursive: true, encoding: 'utf8'}).filter((file) =>
  file.endsWith('.ts'),
)

describe('help examples', () => {
  it('each starts as a shell line: the binary, or `$ ` before a pipeline', async () => {
    assert.ok(files.length >= 10, `found only ${files.join(', ')}`)
    for (const file of files) {
      const {default: command} = (await import(path.join(commandsDir, file))) as {
        default: {examples?: (string | {command: string})[]}
      }
      for (const example of command.examples ?? []) {
        const line = typeof example === 'string' ? example : example.command
        assert.match(line, /^(<%= config\.bin %> |\$ )/, `${file}: ${line}`)
      }
    }
  })
})
