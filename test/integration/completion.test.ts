// Shell completion and the kubectl plugin name, as a user installs them: the bash and zsh scripts
// that @oclif/plugin-autocomplete writes (with cpcred's profile names added) and cpcred's own fish
// script, in a real bash, zsh and fish, and kubectl finding `kubectl-cpcred` on PATH.
import assert from 'node:assert/strict'
import {accessSync, constants, existsSync, statSync} from 'node:fs'
import {readFile, rm, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {cpcred, cpcredBin, isolatedEnv, repoRoot, runProgram, tempDir} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

/**
 * A profile on the hub, `cpcred` on PATH as an installed one would be, and the shell's completion
 * set up by `cpcred autocomplete SHELL`; returns the directory holding the shell's functions.
 */
async function installCompletion(shell: 'bash' | 'zsh' | 'fish', prefix: string) {
  const fixture = await spokeFixture({prefix})
  const bin = await tempDir('cpcred-bin-')
  await symlink(cpcredBin, path.join(bin, 'cpcred'))
  const data = await tempDir('cpcred-completion-data-')
  const env: NodeJS.ProcessEnv = {
    ...isolatedEnv,
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    XDG_CACHE_HOME: await tempDir('cpcred-completion-cache-'),
    XDG_DATA_HOME: data,
    KUBECONFIG: fixture.hubKubeconfig,
  }
  const setup = await cpcred(['autocomplete', shell], env)
  assert.equal(setup.code, 0, setup.stderr)
  assert.match(setup.stdout, new RegExp(`cpcred autocomplete script ${shell}`))
  return {fixture, env, functions: path.join(data, 'cpcred', 'completion', shell)}
}

/** The program's path where it is on PATH (an executable file), as the shell would find it. */
function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, program)
    try {
      accessSync(file, constants.X_OK)
      if (statSync(file).isFile()) return file
    } catch {
      // Not here.
    }
  }
  return undefined
}

/** Why a shell's tests skip: only when the shell is not installed at all. */
const notInstalled = (shell: string) =>
  `${shell} is not installed: install it (Debian: apt-get install ${shell}; .ci/run does) to run these tests`

/**
 * kubectl words after `cpcred exec NS/target --provider-file F -- kubectl`, and what kubectl's own
 * completion offers for them when it asks the target: the target's resources (the credential is
 * cpcred's, got at TAB), not the hub's ClusterProfile CRD, and the target kubeconfig's one context.
 */
function kubectlOnTarget(fixture: SpokeFixture): [string[], string[]][] {
  return [
    [['get', 'namespa'], ['namespaces']],
    [['get', 'clusterprofil'], []],
    [['config', 'use-context', ''], [`${fixture.namespace}/target`]],
  ]
}

/**
 * What TAB offers as the type after `cpcred get NS/target -- ` (through `offered`, a shell's or
 * kubectl's completion): nothing while no `cpcred get` has kept the target's discovery, and no
 * plugin run nor discovery kept by the TAB itself; then, once a get has run, the types the spoke
 * serves (its own, not the hub's ClusterProfile CRD), as kubectl offers them after `kubectl get`.
 */
async function typesAfterGet(
  fixture: SpokeFixture,
  env: NodeJS.ProcessEnv,
  offered: (...words: string[]) => Promise<string[]>,
): Promise<void> {
  const line = ['get', `${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '--']
  const pluginRuns = async () =>
    (await readFile(fixture.recordFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).length
  const runsBefore = await pluginRuns()
  assert.deepEqual(await offered(...line, 'namespa'), [], 'no discovery kept: nothing is offered')
  assert.equal(await pluginRuns(), runsBefore, 'a TAB runs no plugin')
  assert.deepEqual(await offered(...line, 'namespa'), [], 'and keeps no discovery of its own')

  const got = await cpcred([...line, 'namespaces', '-o', 'name'], env)
  assert.ok(got.code === 0 || /namespaces/.test(got.stderr), got.stderr)
  assert.deepEqual(await offered(...line, 'namespa'), ['namespaces'])
  assert.deepEqual(await offered(...line, 'deployments.a'), ['deployments.apps'])
  assert.deepEqual(await offered(...line, 'clusterprofil'), [], "the hub's types are not the target's")
  const all = await offered(...line, '')
  for (const type of ['pods', 'configmaps', 'deployments.apps', 'namespaces'])
    assert.ok(all.includes(type), all.join(' '))
  // The same with the target chosen by a selection, and nothing without a target.
  assert.deepEqual(
    await offered(
      'get',
      '-n',
      fixture.namespace,
      '--all',
      '--provider-file',
      fixture.providerFile,
      '--',
      'namespa',
    ),
    ['namespaces'],
  )
  assert.deepEqual(await offered('get', '--', 'namespa'), [])
}

/** bash-completion, where installed: what a bash user's shell normally has loaded. */
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion'

describe('shell completion of commands, flags and profile names', () => {
  let fixture: SpokeFixture
  let env: NodeJS.ProcessEnv
  let script: string

  before(async () => {
    let functions: string
    ;({fixture, env, functions} = await installCompletion('bash', 'completion'))
    script = path.join(functions, 'cpcred.bash')
  })

  /**
   * What bash offers for `cpcred WORDS…` with the cursor at the end of the last word, through the
   * function `complete -F` names (or another of the script's functions); the shell must say nothing.
   */
  async function complete(...words: string[]): Promise<string[]> {
    return completeWith('_cpcred_complete_profiles', ...words)
  }
  async function completeWith(fn: string, ...words: string[]): Promise<string[]> {
    const result = await runProgram(
      'bash',
      [
        '-c',
        'source "$1"; fn=$2; shift 2; COMP_WORDS=(cpcred "$@"); COMP_CWORD=$#; "$fn"; printf "%s\\n" "${COMPREPLY[@]}"',
        'complete',
        script,
        fn,
        ...words,
      ],
      {env},
    )
    assert.equal(result.code, 0, result.stderr)
    assert.equal(result.stderr, '', 'completion prints nothing on the terminal')
    return result.stdout.split('\n').filter(Boolean)
  }

  it('offers profile names (NAMESPACE/NAME) from the hub: the first TAB waits for the list', async () => {
    // The list of this hub is empty (a cache of its own): the first TAB starts the refresh and waits.
    assert.deepEqual(await complete('describe', `${fixture.namespace}/`), [`${fixture.namespace}/target`])
    assert.deepEqual(await complete('whoami', '-n', fixture.namespace, 'tar'), ['target'])
    assert.deepEqual(await complete('cache', 'clear', `${fixture.namespace}/t`), [
      `${fixture.namespace}/target`,
    ])
  })

  it('still completes commands and flags, and offers no profile where none belongs', async () => {
    assert.deepEqual(await complete('descr'), ['describe'])
    assert.ok((await complete('describe', '--kubec')).includes('--kubeconfig'))
    assert.deepEqual(await complete('list', `${fixture.namespace}/`), [])
    assert.deepEqual(await complete('exec', `${fixture.namespace}/target`, '--', `${fixture.namespace}/`), [])
    assert.deepEqual(await complete('describe', '--context', ''), [], 'a flag value is not a profile')
  })

  it('flags complete after a profile and after other flags, without sed errors (`exec ns/p --paral`)', async () => {
    assert.deepEqual(await complete('exec', `${fixture.namespace}/target`, '--paral'), ['--parallel'])
    assert.deepEqual(await complete('exec', '--all', '-n', fixture.namespace, '--fail'), ['--fail-fast'])
    assert.deepEqual(await complete('describe', `${fixture.namespace}/target`, '-o', 'ya'), ['yaml'])
    // oclif's own function, patched: its flag lookup no longer reads the words as a sed pattern.
    assert.deepEqual(
      await completeWith('_cpcred_autocomplete', 'exec', `${fixture.namespace}/p`, '--paral'),
      [],
    )
    assert.doesNotMatch(await readFile(script, 'utf8'), /sed -n "s\/\^\$\{normalizedCommand\}/)
  })

  it("after exec's `--`: command names, then files, as the shell completes them", async () => {
    const dir = await tempDir('cpcred-completion-files-')
    await writeFile(path.join(dir, 'manifest.yaml'), '')
    const target = `${fixture.namespace}/target`
    assert.ok((await complete('exec', target, '--', 'kubec')).includes('kubectl'))
    assert.deepEqual(await complete('exec', target, '--', 'kubectl', 'apply', '-f', `${dir}/man`), [
      `${dir}/manifest.yaml`,
    ])
    assert.ok(!(await complete('exec', target, '--', 'kubectl', '--all')).includes('--all-namespaces'))
  })

  it(
    "after exec's `--` with bash-completion loaded: the command's own completion (_command_offset)",
    {skip: existsSync(BASH_COMPLETION) ? false : notInstalled('bash-completion')},
    async () => {
      const result = await runProgram(
        'bash',
        [
          '-c',
          'source "$1"; source "$2"; shift 2; COMP_WORDS=(cpcred "$@"); COMP_CWORD=$#; COMP_LINE="cpcred $*"; COMP_POINT=${#COMP_LINE}; _cpcred_complete_profiles; printf "%s\\n" "${COMPREPLY[@]}"',
          'complete',
          BASH_COMPLETION,
          script,
          'exec',
          `${fixture.namespace}/target`,
          '--',
          'ls',
          '--colo',
        ],
        {env},
      )
      assert.equal(result.code, 0, result.stderr)
      // ls's completion (bash-completion's _longopt), not cpcred's flags and not file names.
      assert.ok(result.stdout.split('\n').includes('--color'), result.stdout)
      // compopt complains outside a real TAB; nothing else may reach the terminal.
      const said = result.stderr
        .split('\n')
        .filter((line) => line && !/compopt: not currently executing/.test(line))
      assert.deepEqual(said, [])
    },
  )

  it(
    "after exec's `--`: kubectl's own completion (cobra's) asks the target, and completes each word once",
    {skip: existsSync(BASH_COMPLETION) ? false : notInstalled('bash-completion')},
    async () => {
      /** What bash offers with bash-completion and kubectl's completion loaded, as in a user's shell. */
      const offered = async (...words: string[]) => {
        const result = await runProgram(
          'bash',
          [
            '-c',
            'source "$1"; source <(kubectl completion bash); source "$2"; shift 2; COMP_WORDS=(cpcred "$@"); COMP_CWORD=$#; COMP_LINE="cpcred $*"; COMP_POINT=${#COMP_LINE}; _cpcred_complete_profiles 2>/dev/null; printf "%s\\n" "${COMPREPLY[@]}"',
            'complete',
            BASH_COMPLETION,
            script,
            ...words,
          ],
          {env},
        )
        assert.equal(result.code, 0, result.stderr)
        return result.stdout.split('\n').filter(Boolean)
      }
      const line = [`${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '--', 'kubectl']
      for (const [words, expected] of kubectlOnTarget(fixture)) {
        assert.deepEqual(await offered('exec', ...line, ...words), expected, words.join(' '))
      }
      // The next word: never the command's own words again (`get get`).
      assert.ok(!(await offered('exec', ...line, 'get', 'namespaces', '')).includes('get'))
    },
  )

  it("after get's `--`: the types of the target's kept discovery, as `kubectl get <TAB>` offers them", async () => {
    await typesAfterGet(fixture, env, complete)
  })

  it('`autocomplete bash` is cpcred’s own: its command adds the rc line once, on a line of its own', async () => {
    const home = await tempDir('cpcred-completion-home-')
    const rc = path.join(home, '.bashrc')
    // A file without a final newline: the line must not be glued to its last line.
    await writeFile(rc, 'alias k=kubectl')
    const setup = await cpcred(['autocomplete', 'bash'], env)
    assert.equal(setup.code, 0, setup.stderr)
    assert.doesNotMatch(setup.stdout, /Setup Instructions for CPCRED CLI Autocomplete|Enjoy!|printf "\$\(/)
    const command = setup.stdout.split('\n').find((line) => line.includes('autocomplete script bash'))
    assert.ok(command, setup.stdout)
    for (let run = 0; run < 2; run++) {
      const ran = await runProgram('bash', ['-c', command.trim()], {env: {...env, HOME: home}})
      assert.equal(ran.code, 0, ran.stderr)
    }
    const line = (await cpcred(['autocomplete', 'script', 'bash'], env)).stdout
    assert.equal(await readFile(rc, 'utf8'), `alias k=kubectl\n${line}`)
  })

  it('the rc line loads completion after a cache clear, and rebuilds a missing script', async () => {
    const home = await tempDir('cpcred-completion-home-')
    await writeFile(
      path.join(home, '.bashrc'),
      (await cpcred(['autocomplete', 'script', 'bash'], env)).stdout,
    )
    const loaded = async () => {
      const result = await runProgram('bash', ['-c', 'source ~/.bashrc; complete -p cpcred'], {
        env: {...env, HOME: home},
      })
      return result.stdout.trim()
    }
    assert.equal(await loaded(), 'complete -F _cpcred_complete_profiles cpcred')
    await rm(path.join(env.XDG_CACHE_HOME!, 'cpcred'), {recursive: true, force: true})
    assert.equal(await loaded(), 'complete -F _cpcred_complete_profiles cpcred', 'after the cache is cleared')
    await rm(path.join(env.XDG_DATA_HOME!, 'cpcred'), {recursive: true, force: true})
    assert.equal(await loaded(), 'complete -F _cpcred_complete_profiles cpcred', 'the script rebuilt')
    assert.ok(existsSync(script))
  })

  it('the script is what `autocomplete` wrote: the plugin function and cpcred’s profile function', async () => {
    const text = await readFile(script, 'utf8')
    assert.match(text, /^_cpcred_autocomplete\(\)/m)
    assert.match(text, /^complete -F _cpcred_complete_profiles cpcred$/m)
  })
})

// zsh and fish are not on every machine (CI installs them); where they are, their scripts get the
// same checks through the real shell.
const zsh = onPath('zsh')

describe('zsh completion of profile names', {skip: zsh ? false : notInstalled('zsh')}, () => {
  let fixture: SpokeFixture
  let env: NodeJS.ProcessEnv
  let functions: string

  before(async () => {
    ;({fixture, env, functions} = await installCompletion('zsh', 'zsh-completion'))
  })

  /** What zsh offers for `cpcred WORDS…`, from the script `autocomplete zsh` wrote. */
  async function complete(...words: string[]): Promise<string[]> {
    const result = await runProgram(
      // A completion that never answers must fail the test, not hang it.
      'timeout',
      [
        '30',
        zsh!,
        '-f',
        path.join(repoRoot, 'test', 'helpers', 'zsh-complete.zsh'),
        functions,
        'cpcred',
        ...words,
      ],
      {env},
    )
    assert.equal(result.code, 0, result.stderr)
    return result.stdout.split('\n').filter(Boolean)
  }

  it('offers profile names for the commands that take them, and commands, flags and files as before', async () => {
    // The first ask starts the background refresh of the local list, and waits for it.
    assert.deepEqual(await complete('describe', `${fixture.namespace}/`), [`${fixture.namespace}/target`])
    assert.deepEqual(await complete('cache', 'clear', `${fixture.namespace}/t`), [
      `${fixture.namespace}/target`,
    ])
    assert.deepEqual(await complete('whoami', '-n', fixture.namespace, 'tar'), ['target'])
    assert.deepEqual(await complete('descr'), ['describe'])
    assert.ok((await complete('describe', '--kubec')).includes('--kubeconfig'))
    assert.ok(!(await complete('list', `${fixture.namespace}/`)).some((word) => word.includes('target')))
  })

  it("flags after a profile and after other flags; after exec's `--` the command's own completion", async () => {
    const target = `${fixture.namespace}/target`
    assert.ok((await complete('exec', target, '--paral')).includes('--parallel'))
    assert.ok((await complete('exec', '--all', '-n', fixture.namespace, '--fail')).includes('--fail-fast'))
    assert.ok((await complete('exec', target, '--', 'kubec')).includes('kubectl'))
    const dir = await tempDir('cpcred-zsh-files-')
    await writeFile(path.join(dir, 'manifest.yaml'), '')
    const offered = await complete('exec', target, '--', 'cat', `${dir}/man`)
    assert.ok(
      offered.some((word) => word.endsWith('manifest.yaml')),
      `files after the command: ${offered.join(' ')}`,
    )
  })

  it('the `autocomplete script zsh` line loads completion, and rebuilds a missing script', async () => {
    const home = await tempDir('cpcred-zsh-home-')
    await writeFile(path.join(home, '.zshrc'), (await cpcred(['autocomplete', 'script', 'zsh'], env)).stdout)
    const loaded = async () => {
      const result = await runProgram(zsh!, ['-f', '-c', 'source ~/.zshrc; print -r -- $_comps[cpcred]'], {
        env: {...env, HOME: home},
      })
      assert.equal(result.code, 0, result.stderr)
      return result.stdout.trim()
    }
    assert.equal(await loaded(), '_cpcred')
    await rm(path.join(env.XDG_CACHE_HOME!, 'cpcred'), {recursive: true, force: true})
    await rm(path.join(env.XDG_DATA_HOME!, 'cpcred'), {recursive: true, force: true})
    assert.equal(await loaded(), '_cpcred', 'the script rebuilt')
    assert.ok(existsSync(path.join(functions, '_cpcred')))
  })

  it("after exec's `--`: kubectl's own completion asks the target, not the hub", async () => {
    const kubectl = await runProgram('kubectl', ['completion', 'zsh'], {env})
    assert.equal(kubectl.code, 0, kubectl.stderr)
    await writeFile(path.join(functions, '_kubectl'), kubectl.stdout)
    const line = [`${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '--', 'kubectl']
    for (const [words, expected] of kubectlOnTarget(fixture)) {
      assert.deepEqual(await complete('exec', ...line, ...words), expected, words.join(' '))
    }
  })
})

const fish = onPath('fish')

describe(
  'fish completion of commands, flags and profile names',
  {skip: fish ? false : notInstalled('fish')},
  () => {
    let fixture: SpokeFixture
    let env: NodeJS.ProcessEnv

    before(async () => {
      ;({fixture, env} = await installCompletion('fish', 'fish-completion'))
      // fish's own configuration and data, where the instructions put the completion file.
      env = {
        ...env,
        XDG_CONFIG_HOME: await tempDir('cpcred-fish-config-'),
        XDG_DATA_HOME: await tempDir('cpcred-fish-data-'),
      }
      const setup = await cpcred(['autocomplete', 'fish'], env)
      assert.equal(setup.code, 0, setup.stderr)
      // Run the command the instructions give, in fish, as a user would paste it.
      const command = setup.stdout.split('\n').find((line) => line.includes('autocomplete script fish'))
      assert.ok(command, setup.stdout)
      const ran = await runProgram(fish!, ['-c', command.trim()], {env})
      assert.equal(ran.code, 0, ran.stderr)
      assert.equal(ran.stderr, '')
    })

    /**
     * What fish offers for `cpcred WORDS…` (`complete -C`, the candidates without their descriptions),
     * with the completion fish loads by itself from the file the instructions wrote.
     */
    async function complete(...words: string[]): Promise<string[]> {
      const result = await runProgram(
        'timeout',
        ['30', fish!, '-c', 'complete -C $argv[1]', ['cpcred', ...words].join(' ')],
        {env},
      )
      assert.equal(result.code, 0, result.stderr)
      assert.equal(result.stderr, '', 'completion prints nothing on the terminal')
      return result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0]!)
    }

    it('offers profile names (NAMESPACE/NAME) from the hub: the first TAB waits for the list', async () => {
      assert.deepEqual(await complete('describe', `${fixture.namespace}/`), [`${fixture.namespace}/target`])
      assert.deepEqual(await complete('whoami', '-n', fixture.namespace, 'tar'), ['target'])
      assert.deepEqual(await complete('cache', 'clear', `${fixture.namespace}/t`), [
        `${fixture.namespace}/target`,
      ])
      assert.deepEqual(await complete('list', `${fixture.namespace}/`), [], 'list takes no profile')
      assert.deepEqual(await complete('describe', '--context', ''), [], 'a flag value is not a profile')
    })

    it('completes commands, topics and flags, after a profile and after other flags', async () => {
      assert.deepEqual(await complete('descr'), ['describe'])
      assert.deepEqual(await complete('cache', ''), ['clear'])
      assert.deepEqual(await complete('plugin', 'tok'), ['token-request'])
      const all = await complete('')
      for (const command of ['autocomplete', 'cache', 'describe', 'exec', 'list', 'sync', 'whoami'])
        assert.ok(all.includes(command), `${command} in ${all.join(' ')}`)
      assert.ok((await complete('describe', '--kubec')).includes('--kubeconfig'))
      assert.deepEqual(await complete('exec', `${fixture.namespace}/target`, '--paral'), ['--parallel'])
      assert.deepEqual(await complete('exec', '--all', '-n', fixture.namespace, '--fail'), ['--fail-fast'])
      assert.deepEqual(await complete('describe', `${fixture.namespace}/target`, '-o', 'ya'), ['yaml'])
    })

    it("after exec's `--`: the command line as fish completes it on its own", async () => {
      const target = `${fixture.namespace}/target`
      assert.ok((await complete('exec', target, '--', 'kubec')).includes('kubectl'))
      // ls's own completion (fish ships it), not cpcred's flags.
      const ls = await complete('exec', target, '--', 'ls', '--colo')
      assert.ok(ls.includes('--color'), ls.join(' '))
      const dir = await tempDir('cpcred-fish-files-')
      await writeFile(path.join(dir, 'manifest.yaml'), '')
      assert.deepEqual(await complete('exec', target, '--', 'kubectl', 'apply', '-f', `${dir}/man`), [
        `${dir}/manifest.yaml`,
      ])
    })

    it("after exec's `--`: kubectl's own completion asks the target, not the hub", async () => {
      const kubectl = await runProgram('kubectl', ['completion', 'fish'], {env})
      assert.equal(kubectl.code, 0, kubectl.stderr)
      const completions = path.join(env.XDG_CONFIG_HOME!, 'fish', 'completions')
      await writeFile(path.join(completions, 'kubectl.fish'), kubectl.stdout)
      const line = [`${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '--', 'kubectl']
      for (const [words, expected] of kubectlOnTarget(fixture)) {
        assert.deepEqual(await complete('exec', ...line, ...words), expected, words.join(' '))
      }
    })

    it('`autocomplete script fish` loads the script `autocomplete` keeps in the data directory', async () => {
      const script = await cpcred(['autocomplete', 'script', 'fish'], env)
      assert.equal(script.code, 0, script.stderr)
      const file = path.join(env.XDG_DATA_HOME!, 'cpcred', 'completion', 'fish', 'cpcred.fish')
      assert.ok(script.stdout.includes(`source '${file}'`), script.stdout)
      assert.match(await readFile(file, 'utf8'), /^complete -c cpcred -f -a '\(__cpcred_complete\)'$/m)
    })
  },
)

describe('kubectl cpcred', () => {
  it('runs through kubectl when kubectl-cpcred is on PATH', async () => {
    const bin = await tempDir('cpcred-kubectl-plugin-')
    await symlink(cpcredBin, path.join(bin, 'kubectl-cpcred'))
    const env = {...isolatedEnv, PATH: `${bin}${path.delimiter}${process.env.PATH}`}
    const version = await runProgram('kubectl', ['cpcred', '--version'], {env})
    assert.equal(version.code, 0, version.stderr)
    assert.match(version.stdout, /^cpcred +\d+\.\d+\.\d+$/m)
    const help = await runProgram('kubectl', ['cpcred', 'list', '--help'], {env})
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /List the ClusterProfiles on the hub/)
  })

  describe('kubectl cpcred <TAB> (kubectl_complete-cpcred on PATH)', () => {
    let fixture: SpokeFixture
    let env: NodeJS.ProcessEnv

    before(async () => {
      fixture = await spokeFixture({prefix: 'kubectl-completion'})
      const bin = await tempDir('cpcred-kubectl-completion-')
      await symlink(cpcredBin, path.join(bin, 'kubectl-cpcred'))
      await symlink(
        path.join(repoRoot, 'bin', 'kubectl_complete-cpcred'),
        path.join(bin, 'kubectl_complete-cpcred'),
      )
      env = {
        ...isolatedEnv,
        PATH: `${bin}${path.delimiter}${process.env.PATH}`,
        XDG_CACHE_HOME: await tempDir('cpcred-kubectl-completion-cache-'),
        KUBECONFIG: fixture.hubKubeconfig,
      }
    })

    /** What kubectl's completion protocol answers for `kubectl cpcred WORDS…`: candidates, directive. */
    async function complete(...words: string[]): Promise<{candidates: string[]; directive: string}> {
      const result = await runProgram('kubectl', ['__complete', 'cpcred', ...words], {env})
      assert.equal(result.code, 0, result.stderr)
      const lines = result.stdout.split('\n').filter(Boolean)
      return {candidates: lines.slice(0, -1).map((line) => line.split('\t')[0]!), directive: lines.at(-1)!}
    }

    it('commands, topics, flags and profile names, no files', async () => {
      const top = await complete('')
      for (const command of ['cache', 'describe', 'exec', 'list', 'whoami'])
        assert.ok(top.candidates.includes(command), top.candidates.join(' '))
      assert.ok(!top.candidates.includes('autocomplete:script'))
      assert.equal(top.directive, ':4')
      assert.deepEqual((await complete('cache', '')).candidates, ['clear'])
      assert.deepEqual((await complete('describe', `${fixture.namespace}/`)).candidates, [
        `${fixture.namespace}/target`,
      ])
      assert.deepEqual((await complete('exec', `${fixture.namespace}/target`, '--paral')).candidates, [
        '--parallel',
      ])
    })

    it("after exec's `--`: kubectl's own completion, against the target", async () => {
      const line = [`${fixture.namespace}/target`, '--provider-file', fixture.providerFile, '--', 'kubectl']
      for (const [words, expected] of kubectlOnTarget(fixture)) {
        assert.deepEqual((await complete('exec', ...line, ...words)).candidates, expected, words.join(' '))
      }
    })

    it("after get's `--`: the types of the target's kept discovery, no files", async () => {
      await typesAfterGet(fixture, env, async (...words) => (await complete(...words)).candidates)
      assert.equal((await complete('get', `${fixture.namespace}/target`, '--', 'namespa')).directive, ':4')
    })

    it(
      'in bash, with kubectl’s completion loaded',
      {skip: existsSync(BASH_COMPLETION) ? false : notInstalled('bash-completion')},
      async () => {
        const result = await runProgram(
          'bash',
          [
            '-c',
            'source "$1"; source <(kubectl completion bash); shift; COMP_WORDS=(kubectl cpcred "$@"); COMP_CWORD=$(( $# + 1 )); COMP_LINE="kubectl cpcred $*"; COMP_POINT=${#COMP_LINE}; __start_kubectl 2>/dev/null; printf "%s\\n" "${COMPREPLY[@]}"',
            'complete',
            BASH_COMPLETION,
            'descr',
          ],
          {env},
        )
        assert.equal(result.code, 0, result.stderr)
        assert.deepEqual(result.stdout.split('\n').filter(Boolean), ['describe'])
      },
    )
  })
})
