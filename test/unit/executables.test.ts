import assert from 'node:assert/strict'
import {chmod, mkdir, mkdtemp, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {findExecutable} from '../../src/adapters/executables.js'

describe('findExecutable: a plugin command found as starting it would find it', () => {
  let dir: string
  let first: string
  let second: string

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-executables-'))
    first = path.join(dir, 'first')
    second = path.join(dir, 'second')
    await mkdir(first)
    await mkdir(second)
    // first/plugin may not be run, second/plugin may: execvp goes on to the second.
    await writeFile(path.join(first, 'plugin'), '#!/bin/sh\n')
    await chmod(path.join(first, 'plugin'), 0o644)
    await writeFile(path.join(second, 'plugin'), '#!/bin/sh\n')
    await chmod(path.join(second, 'plugin'), 0o755)
    await writeFile(path.join(first, 'only-here'), '#!/bin/sh\n')
    await chmod(path.join(first, 'only-here'), 0o600)
    await mkdir(path.join(second, 'a-directory'))
  })

  const searchPath = () => [first, second].join(path.delimiter)

  it('takes the first executable file in PATH order, past one it may not run', async () => {
    assert.deepEqual(await findExecutable('plugin', searchPath()), {
      kind: 'found',
      path: path.join(second, 'plugin'),
      fromPath: true,
    })
  })

  it('reports a file in PATH it may not run when there is nothing else', async () => {
    const lookup = await findExecutable('only-here', searchPath())
    assert.equal(lookup.kind, 'not-executable')
    assert.equal(lookup.kind === 'not-executable' && lookup.mode & 0o777, 0o600)
  })

  it('lists the directories searched for a name that is nowhere (a directory does not count)', async () => {
    assert.deepEqual(await findExecutable('nowhere', searchPath()), {
      kind: 'not-found',
      searched: [first, second],
    })
    assert.deepEqual(await findExecutable('a-directory', searchPath()), {
      kind: 'not-found',
      searched: [first, second],
    })
    assert.deepEqual(await findExecutable('nowhere', undefined), {kind: 'not-found', searched: []})
  })

  it('takes a command with a slash as a path, relative to the working directory', async () => {
    assert.deepEqual(await findExecutable('./second/plugin', '', dir), {
      kind: 'found',
      path: path.join(second, 'plugin'),
      fromPath: false,
    })
    assert.deepEqual(await findExecutable(path.join(second, 'a-directory'), ''), {
      kind: 'not-a-file',
      path: path.join(second, 'a-directory'),
    })
    assert.deepEqual(await findExecutable('/nonexistent/plugin', searchPath()), {
      kind: 'not-found',
      searched: ['/nonexistent/plugin'],
    })
  })

  it('searches the working directory for an empty PATH entry, as shells do', async () => {
    assert.deepEqual(await findExecutable('plugin', `${path.delimiter}`, second), {
      kind: 'found',
      path: path.join(second, 'plugin'),
      fromPath: true,
    })
  })
})
