import assert from 'node:assert/strict'
import {mkdtemp} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {CompletionCache} from '../../src/adapters/completion-cache.js'
import {
  cobraOutput,
  commandCandidates,
  completionOutput,
  completionRequest,
  profileCandidates,
  type ManifestCommand,
} from '../../src/core/profiles/completion.js'

const hubFlags: ManifestCommand['flags'] = {
  kubeconfig: {type: 'option'},
  context: {type: 'option'},
  namespace: {type: 'option', char: 'n'},
  'all-namespaces': {type: 'boolean', char: 'A'},
}
const commands: Record<string, ManifestCommand> = {
  describe: {flags: {...hubFlags, output: {type: 'option', char: 'o'}, 'show-env': {type: 'boolean'}}},
  exec: {
    flags: {
      ...hubFlags,
      parallel: {type: 'option'},
      all: {type: 'boolean'},
      'provider-file': {type: 'option'},
      'fail-fast': {type: 'boolean'},
      output: {type: 'option', char: 'o', options: ['text', 'json']},
      secret: {type: 'boolean', hidden: true},
      cache: {type: 'boolean', allowNo: true},
    },
  },
  list: {flags: hubFlags},
  'cache:clear': {flags: hubFlags},
  lint: {flags: {...hubFlags, 'fail-on': {type: 'option', options: ['error', 'will-break', 'warning']}}},
  get: {flags: {...hubFlags, selector: {type: 'option', char: 'l'}, all: {type: 'boolean'}}},
}

describe('completionRequest: what the word under the cursor asks for', () => {
  it('a profile operand of a command that takes profiles', () => {
    assert.deepEqual(completionRequest(['describe', 'fle'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: 'fle',
    })
    assert.deepEqual(completionRequest(['cache', 'clear', ''], commands), {
      kind: 'profiles',
      hub: {},
      prefix: '',
    })
    assert.deepEqual(completionRequest(['exec', 'a/b', '--all', 'c'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: 'c',
    })
    assert.deepEqual(completionRequest(['lint', '--fail-on', 'warning', 'fleet/'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: 'fleet/',
    })
  })

  it('reads the hub flags typed before it, in both spellings', () => {
    assert.deepEqual(
      completionRequest(
        ['describe', '--kubeconfig', '/k', '--context=hub', '-n', 'fleet', '-A', 'x'],
        commands,
      ),
      {kind: 'profiles', hub: {kubeconfig: '/k', context: 'hub', namespace: 'fleet'}, prefix: 'x'},
    )
  })

  it('flags of the command, after a profile and after other flags (`exec ns/p --paral`)', () => {
    assert.deepEqual(completionRequest(['exec', 'ns/p', '--paral'], commands), {
      kind: 'words',
      words: ['--parallel'],
    })
    assert.deepEqual(completionRequest(['exec', '--all', '-n', 'fleet', '--fa'], commands), {
      kind: 'words',
      words: ['--fail-fast'],
    })
    assert.deepEqual(completionRequest(['exec', 'ns/p', '--parallel', '3', '--no-'], commands), {
      kind: 'words',
      words: ['--no-cache'],
    })
  })

  it('`-` offers long flags and the letters, never hidden ones', () => {
    const request = completionRequest(['exec', '-'], commands)
    assert.equal(request.kind, 'words')
    const words = (request as {words: string[]}).words
    assert.ok(
      words.includes('--namespace') &&
        words.includes('-n') &&
        words.includes('-o') &&
        words.includes('--help'),
    )
    assert.ok(!words.some((word) => word.includes('secret')))
  })

  it("a flag's value: the values it allows, else nothing (it is not a profile)", () => {
    assert.deepEqual(completionRequest(['exec', 'a/b', '-o', 'j'], commands), {
      kind: 'words',
      words: ['json'],
    })
    assert.deepEqual(completionRequest(['describe', '--context', ''], commands), {kind: 'words', words: []})
    assert.deepEqual(completionRequest(['describe', '-o', ''], commands), {kind: 'words', words: []})
  })

  it("after exec's `--`: the shell's completion of the command line from the word after it", () => {
    // One target: it and the flags that find it, for `cpcred kubeconfig` to write its kubeconfig.
    assert.deepEqual(completionRequest(['exec', 'a/b', '--', 'kub'], commands), {
      kind: 'command',
      offset: 3,
      target: {profiles: ['a/b'], flags: []},
    })
    assert.deepEqual(
      completionRequest(
        ['exec', '--kubeconfig', 'hub', '-n', 'ns', '--parallel', '2', 'p', '--provider-file=f', '--', 'k'],
        commands,
      ),
      {
        kind: 'command',
        offset: 10,
        target: {profiles: ['p'], flags: ['--kubeconfig=hub', '--namespace=ns', '--provider-file=f']},
      },
    )
    // A fleet (--all, -l, several profiles) has no one target.
    assert.deepEqual(completionRequest(['exec', '-A', '--all', '--', 'kubectl', 'get', '-o', ''], commands), {
      kind: 'command',
      offset: 4,
    })
    assert.deepEqual(completionRequest(['exec', 'a/b', 'a/c', '--', 'k'], commands), {
      kind: 'command',
      offset: 4,
    })
    // get: profiles before `--`; after it, the type, from the kept discovery of the targets.
    assert.deepEqual(completionRequest(['get', '-n', 'fleet', 'e'], commands), {
      kind: 'profiles',
      hub: {namespace: 'fleet'},
      prefix: 'e',
    })
  })

  it("after get's `--`: the resource types of the targets, which `cpcred kubeconfig` would select", () => {
    assert.deepEqual(completionRequest(['get', 'a/b', '--', 'po'], commands), {
      kind: 'types',
      prefix: 'po',
      targets: {profiles: ['a/b'], flags: []},
    })
    // Several profiles, and a selection with its flags, as `cpcred kubeconfig` takes them.
    assert.deepEqual(completionRequest(['get', 'a/b', 'a/c', '--', ''], commands), {
      kind: 'types',
      prefix: '',
      targets: {profiles: ['a/b', 'a/c'], flags: []},
    })
    assert.deepEqual(
      completionRequest(['get', '-A', '-l', 'env=prod', '--kubeconfig', 'hub', '--', 'dep'], commands),
      {
        kind: 'types',
        prefix: 'dep',
        targets: {profiles: [], flags: ['--kubeconfig=hub', '--all-namespaces', '--selector=env=prod']},
      },
    )
    // No target chosen yet: nothing to ask.
    assert.deepEqual(completionRequest(['get', '-n', 'fleet', '--', ''], commands), {
      kind: 'types',
      prefix: '',
    })
    // Only the type: kubectl get's flags and names after it are not offered, never as profiles.
    assert.deepEqual(completionRequest(['get', 'a/b', '--', 'pods', ''], commands), {kind: 'none'})
    assert.deepEqual(completionRequest(['get', 'a/b', '--', '-'], commands), {kind: 'none'})
    assert.equal(
      completionOutput({kind: 'types', prefix: ''}, () => ['deployments.apps', 'pods']),
      'deployments.apps\npods\n',
    )
  })

  it('`--` elsewhere', () => {
    // Elsewhere `--` only ends the flags.
    assert.deepEqual(completionRequest(['describe', '--', '-x'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: '-x',
    })
  })

  it('commands while no command is typed; nothing for a command without profiles', () => {
    assert.deepEqual(completionRequest([''], commands), {kind: 'commands'})
    assert.deepEqual(completionRequest(['cache', ''], commands), {kind: 'commands'})
    assert.deepEqual(completionRequest(['nonsense', '--x'], commands), {kind: 'commands'})
    assert.deepEqual(completionRequest(['list', ''], commands), {kind: 'none'})
  })

  it('skips boolean flags and the values of other flags', () => {
    assert.deepEqual(completionRequest(['describe', '--show-env', '-o', 'json', 'p'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: 'p',
    })
    assert.deepEqual(completionRequest(['exec', '--parallel', '8', 'p'], commands), {
      kind: 'profiles',
      hub: {},
      prefix: 'p',
    })
  })
})

describe('completionOutput: what `cpcred __complete` prints for the shell script', () => {
  it('candidates one per line, or one directive line', () => {
    assert.equal(
      completionOutput({kind: 'words', words: ['--all', '--as']}, () => []),
      '--all\n--as\n',
    )
    assert.equal(
      completionOutput({kind: 'profiles', hub: {}, prefix: ''}, () => ['a', 'ns/a']),
      'a\nns/a\n',
    )
    assert.equal(
      completionOutput({kind: 'command', offset: 3}, () => [], '/cache/t 1.kubeconfig'),
      ':command 3 /cache/t 1.kubeconfig\n',
    )
    assert.equal(
      completionOutput({kind: 'commands'}, () => []),
      ':commands\n',
    )
    assert.equal(
      completionOutput({kind: 'none'}, () => ['never']),
      '',
    )
  })
})

describe('profileCandidates', () => {
  it('offers NAMESPACE/NAME of every profile and bare names of the selected namespace, by prefix', () => {
    const keys = ['fleet/eu-1', 'fleet/us-1', 'lab/eu-1']
    assert.deepEqual(profileCandidates(keys, 'fleet', ''), [
      'eu-1',
      'fleet/eu-1',
      'fleet/us-1',
      'lab/eu-1',
      'us-1',
    ])
    assert.deepEqual(profileCandidates(keys, 'fleet', 'eu'), ['eu-1'])
    assert.deepEqual(profileCandidates(keys, 'default', 'lab/'), ['lab/eu-1'])
  })
})

describe('CompletionCache.waitFor: the first TAB waits for a refresh running elsewhere', () => {
  it('returns the list as soon as it is written', async () => {
    const cache = new CompletionCache(await mkdtemp(path.join(os.tmpdir(), 'cpcred-completion-')))
    setTimeout(() => void new CompletionCache(cache.dir).write('hub', ['fleet/a']), 200)
    const started = Date.now()
    const list = await cache.waitFor('hub', 5000)
    assert.deepEqual(list?.profiles, ['fleet/a'])
    assert.ok(Date.now() - started < 2000, 'it stops waiting once the list is there')
  })

  it('gives up after the time allowed', async () => {
    const cache = new CompletionCache(await mkdtemp(path.join(os.tmpdir(), 'cpcred-completion-')))
    const started = Date.now()
    assert.equal(await cache.waitFor('hub', 300), undefined)
    const waited = Date.now() - started
    assert.ok(waited >= 280 && waited < 1500, `waited ${waited} ms`)
  })
})

describe('kubectl cpcred <TAB>: commandCandidates and cobraOutput', () => {
  const manifest: Record<string, ManifestCommand> = {
    describe: {flags: {}, summary: 'Show a profile.\nMore.'},
    'cache:clear': {flags: {}, summary: 'Remove cached credentials.'},
    'autocomplete:script': {flags: {}, hidden: true},
    autocomplete: {flags: {}, summary: 'Set up completion.'},
  }

  it('the next command or topic word, with the command summary, never a hidden one', () => {
    assert.deepEqual(commandCandidates([''], manifest), [
      {word: 'autocomplete', summary: 'Set up completion.'},
      {word: 'cache', summary: ''},
      {word: 'describe', summary: 'Show a profile.'},
    ])
    assert.deepEqual(commandCandidates(['cache', 'c'], manifest), [
      {word: 'clear', summary: 'Remove cached credentials.'},
    ])
    assert.deepEqual(commandCandidates(['autocomplete', ''], manifest), [])
    assert.deepEqual(commandCandidates(['nonsense', ''], manifest), [])
  })

  it("cobra's format: a line per candidate (tab, description), then the directive", () => {
    assert.equal(
      cobraOutput([{word: 'describe', summary: 'Show\ta  profile.'}, {word: 'ns/p'}]),
      'describe\tShow a profile.\nns/p\n:4\n',
    )
    assert.equal(cobraOutput([], 0), ':0\n')
  })
})
