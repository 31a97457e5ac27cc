// cpcred as a Unix and kubectl citizen, through the real binary: one argument grammar, help and
// typos, exit codes a script can trust, and signals that stop a shell loop.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {chmod, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createNamespace,
  isolatedEnv,
  runProgram,
  tempDir,
  testEnv,
} from '../helpers/env.js'
import {RAW_CONTROL} from '../helpers/controls.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

describe('cpcred as a Unix and kubectl citizen', () => {
  let fixture: SpokeFixture
  let dir: string
  let env: NodeJS.ProcessEnv

  before(async () => {
    fixture = await spokeFixture({prefix: 'citizen'})
    dir = await tempDir('cpcred-citizen-')
    const {env: testenv, hub} = await testEnv()
    for (const name of ['second', 'third']) {
      await applyProfile(hub, {
        metadata: {name, namespace: fixture.namespace, labels: {tier: 'more'}},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {server: testenv.spoke.server, 'certificate-authority-data': testenv.spoke.caData},
            },
          ],
        },
      })
    }
    env = {KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: path.join(dir, 'cache')}
  })

  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => cpcred(args, {...env, ...extra})
  const providers = () => ['--provider-file', fixture.providerFile]

  it('reads -n=NS, -nNS, -o=name and -l=k=v as kubectl does, on the fast path and oclif alike', async () => {
    for (const args of [
      ['list', `-n=${fixture.namespace}`, '-o=name'],
      ['list', `-n${fixture.namespace}`, '-oname'],
      ['list', '--namespace', fixture.namespace, '--output=name'],
    ]) {
      const listed = await run(args)
      assert.equal(listed.code, 0, listed.stderr)
      assert.equal(listed.stdout.trim().split('\n').length, 3, args.join(' '))
    }
    const selected = await run(['list', `-n=${fixture.namespace}`, '-l=tier=more', '-o=name'])
    assert.equal(selected.stdout.trim().split('\n').length, 2, selected.stderr)

    const executed = await run([
      'exec',
      `-n=${fixture.namespace}`,
      '--all',
      ...providers(),
      '-o=json',
      '--',
      'true',
    ])
    assert.equal(executed.code, 0, executed.stderr)
    assert.equal((JSON.parse(executed.stdout) as unknown[]).length, 3)

    const kubeconfig = await run(['kubeconfig', `-n=${fixture.namespace}`, '-l=tier=more', ...providers()])
    assert.equal(kubeconfig.code, 0, kubeconfig.stderr)
    assert.equal(kubeconfig.stdout.match(/^- context:/gm)?.length, 2)
  })

  it('calls an unknown flag a usage error with the nearest flag, never advice to move it after --', async () => {
    for (const [args, nearest] of [
      [['list', '--namspace', 'x'], '--namespace'],
      [['exec', '--all', '--paralel', '2', '--', 'true'], '--parallel'],
      [['kubeconfig', '--all', '--mrege'], '--merge'],
      [['describe', 'x', '--show-evn'], '--show-env'],
    ] as const) {
      const result = await run([...args])
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, new RegExp(`^error: unknown flag: --\\S+ \\(did you mean ${nearest}\\?\\)`))
      assert.doesNotMatch(result.stderr, /after --|positional/i)
    }
    const negative = await run(['exec', '--all', '--parallel', '-3', '--', 'true'])
    assert.equal(negative.code, 2)
    assert.match(negative.stderr, /^error: --parallel "-3" is not a whole number of 1 or more/)
  })

  it('has `help` and `help COMMAND`, and names the nearest command for a typo without a terminal', async () => {
    const help = await run(['help'])
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /^COMMANDS$/m)
    assert.match(help.stdout, /^ {2}exec /m)
    const helpExec = await run(['help', 'exec'])
    assert.equal(helpExec.code, 0, helpExec.stderr)
    assert.match(helpExec.stdout, /\$ cpcred exec \[PROFILE\.\.\.\]/)

    const typo = await run(['sycn', '--all'])
    assert.equal(typo.code, 2)
    assert.equal(
      typo.stderr,
      'error: unknown command "sycn" for "cpcred"\nDid you mean "cpcred sync"? Run \'cpcred help\' for the commands.\n',
    )
    const far = await run(['zzzzzzzz'])
    assert.equal(far.code, 2)
    assert.doesNotMatch(far.stderr, /Did you mean/)
    assert.doesNotMatch(far.stderr, RAW_CONTROL)

    // The same rule whatever follows the typo, and under help: the command's words, never its arguments.
    const suggestions = {
      'hub use': [
        ['hub', 'usee'],
        ['hub', 'usee', 'hub-a', '-n', 'x'],
        ['help', 'hub', 'usee'],
      ],
      exec: [
        ['help', 'exce'],
        ['exce', 'fleet/a', '--', 'kubectl', 'get', 'pods'],
      ],
    }
    for (const [nearest, lines] of Object.entries(suggestions)) {
      for (const line of lines) {
        const typed = line
          .filter((word) => word !== 'help')
          .slice(0, nearest.split(' ').length)
          .join(' ')
        const result = await run(line)
        assert.equal(result.code, 2, line.join(' '))
        assert.equal(
          result.stderr,
          `error: unknown command "${typed}" for "cpcred"\nDid you mean "cpcred ${nearest}"? Run 'cpcred help' for the commands.\n`,
          line.join(' '),
        )
        assert.equal(result.stdout, '')
      }
    }
  })

  it('shows `kubectl cpcred` in help when kubectl runs it as its plugin', async () => {
    const bin = path.join(dir, 'bin')
    await runProgram('mkdir', ['-p', bin])
    await symlink(cpcredBin, path.join(bin, 'kubectl-cpcred'))
    const result = await runProgram('kubectl', ['cpcred', 'exec', '--help'], {
      env: {...isolatedEnv, PATH: `${bin}:${process.env.PATH}`},
    })
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /^ {2}\$ kubectl cpcred exec \[PROFILE\.\.\.\]/m)
    assert.doesNotMatch(result.stdout, /\$ cpcred /)
  })

  it('says where it looked when a selection is empty (exit 0), and --min-targets makes that a failure', async () => {
    const note = `No ClusterProfiles match -l tier=none in ${fixture.namespace} namespace.\n`
    for (const args of [
      ['list', '-l', 'tier=none'],
      ['exec', '-l', 'tier=none', ...providers(), '--', 'true'],
      ['kubeconfig', '-l', 'tier=none', ...providers()],
    ]) {
      const result = await run([args[0]!, '-n', fixture.namespace, ...args.slice(1)])
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', note], args.join(' '))
    }
    const everywhere = await run(['list', '-A', '-l', 'tier=none'])
    assert.equal(everywhere.stderr, 'No ClusterProfiles match -l tier=none in any namespace.\n')

    for (const args of [
      ['exec', '-l', 'tier=more', '--min-targets', '3', ...providers(), '--', 'true'],
      ['kubeconfig', '-l', 'tier=more', '--min-targets=3', ...providers()],
      ['sync', '-l', 'tier=more', '--min-targets', '3', ...providers(), '--output-file', path.join(dir, 'k')],
    ]) {
      const result = await run([args[0]!, '-n', fixture.namespace, ...args.slice(1)])
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`)
      assert.match(
        result.stderr,
        new RegExp(
          `^error: 2 ClusterProfiles matching -l tier=more in ${fixture.namespace} namespace, fewer than --min-targets 3`,
        ),
      )
    }
  })

  it('announces a shard taken from CPCRED_SHARD', async () => {
    const result = await run(['list', '-n', fixture.namespace, '-o', 'name'], {CPCRED_SHARD: '1/2'})
    assert.equal(result.code, 0, result.stderr)
    // The shard may hold none of these three: then the note names it too.
    assert.match(result.stderr, /^Working on shard 1\/2 of the selection \(CPCRED_SHARD=1\/2\)\.\n/)
  })

  it("exits 127 and 126 with the shell's words when the command cannot start, for one target and many", async () => {
    const notExecutable = path.join(dir, 'not-executable.sh')
    await writeFile(notExecutable, 'echo never\n')
    await chmod(notExecutable, 0o644)
    for (const [command, code, words] of [
      ['no-such-command-anywhere', 127, 'command not found'],
      [notExecutable, 126, 'Permission denied'],
    ] as const) {
      const one = await run(['exec', `${fixture.namespace}/target`, ...providers(), '--', command])
      assert.equal(one.code, code, one.stderr)
      assert.match(one.stderr, new RegExp(`^error: ${command}: ${words}\\n`))
      const many = await run([
        'exec',
        '-n',
        fixture.namespace,
        '--all',
        ...providers(),
        '-o',
        'json',
        '--',
        command,
      ])
      assert.equal(many.code, 1)
      for (const target of JSON.parse(many.stdout) as {exitCode: number; error: string}[]) {
        assert.deepEqual([target.exitCode, target.error], [code, `${command}: ${words}`])
      }
    }
  })

  /** Runs `script` in bash in a process group of its own, as a terminal runs a job. */
  function job(script: string): {
    group: number
    done: Promise<{code: number | null; signal: string | null; out: string}>
  } {
    const child = spawn('bash', ['-c', script], {
      detached: true,
      env: {...isolatedEnv, ...env, CPCRED: `${process.execPath} ${cpcredBin}`},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    return {
      group: child.pid!,
      done: new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal, out}))),
    }
  }

  async function whenPrinted(file: string): Promise<void> {
    const {existsSync} = await import('node:fs')
    const deadline = Date.now() + 20_000
    while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  }

  it('^C stops a shell loop of single-target execs, as it stops a loop of plain commands', async () => {
    const started = path.join(dir, 'loop-started')
    const loop = job(
      `for i in 1 2 3; do $CPCRED exec ${fixture.namespace}/target --provider-file ${fixture.providerFile} -- ` +
        `sh -c 'touch ${started}; sleep 10'; echo "next $?"; done`,
    )
    await whenPrinted(started)
    // What a terminal does on ^C: SIGINT to the whole foreground process group.
    process.kill(-loop.group, 'SIGINT')
    const outcome = await loop.done
    assert.equal(outcome.signal, 'SIGINT', outcome.out)
    assert.doesNotMatch(outcome.out, /next/)
  })

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`reports a fan-out stopped by ${signal} as interrupted, and exits ${code}`, async () => {
      const started = path.join(dir, `fan-out-${signal}`)
      const fanOut = job(
        `$CPCRED exec -n ${fixture.namespace} --all --parallel 1 --provider-file ${fixture.providerFile} -- ` +
          `sh -c 'touch ${started}; sleep 10'; echo "cpcred exited $?"`,
      )
      await whenPrinted(started)
      const pids = await runProgram('pgrep', ['-f', '-g', String(fanOut.group), `${cpcredBin} exec`])
      for (const pid of pids.stdout.trim().split('\n').filter(Boolean)) process.kill(Number(pid), signal)
      const outcome = await fanOut.done
      assert.match(outcome.out, new RegExp(`cpcred exited ${code}`))
      assert.match(outcome.out, new RegExp(`interrupted by ${signal}: 1 of 3 started, 2 not started`))
      assert.doesNotMatch(outcome.out, /3 of 3 failed|--fail-fast/)
    })
  }

  it('takes - and /dev/stdout as stdout, TYPE/NAME as a profile, and writes what it can with --all', async () => {
    const dash = await run([
      'kubeconfig',
      `${fixture.namespace}/target`,
      ...providers(),
      '--output-file',
      '-',
    ])
    assert.equal(dash.code, 0, dash.stderr)
    assert.match(dash.stdout, /^apiVersion: v1$/m)
    // Through a pipe, as `… --output-file /dev/stdout | cat`: no read of the pipe, no temp file, no lock.
    const device = await runProgram(
      'bash',
      [
        '-c',
        `timeout 20 "$@" --output-file /dev/stdout | cat`,
        'bash',
        process.execPath,
        cpcredBin,
        'kubeconfig',
        `${fixture.namespace}/target`,
        ...providers(),
      ],
      {env: {...isolatedEnv, ...env}},
    )
    assert.equal(device.code, 0, device.stderr)
    assert.match(device.stdout, /^apiVersion: v1$/m)
    const syncDash = await run(['sync', '--all', ...providers(), '--output-file', '-'])
    assert.equal(syncDash.code, 2)

    // kubectl's TYPE/NAME from `list -o name`, one describe each, as a shell pipeline writes it.
    const described = await runProgram(
      'bash',
      [
        '-c',
        `"$@" list -n ${fixture.namespace} -o name | xargs -n1 "$@" describe -n ${fixture.namespace} --provider-file ${fixture.providerFile}`,
        'bash',
        process.execPath,
        cpcredBin,
      ],
      {env: {...isolatedEnv, ...env}},
    )
    assert.equal(described.code, 0, described.stderr)
    assert.equal(described.stdout.match(/^Name:/gm)?.length, 3, described.stdout)

    const {env: testenv, hub} = await testEnv()
    const namespace = await createNamespace(hub, 'citizen-mixed')
    for (const [name, provider] of [
      ['reachable', 'fake'],
      ['stranger', 'someone-elses'],
    ] as const) {
      await applyProfile(hub, {
        metadata: {name, namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {accessProviders: [{name: provider, cluster: {server: testenv.spoke.server}}]},
      })
    }
    const partial = await run(['kubeconfig', '-n', namespace, '--all', ...providers()])
    assert.equal(partial.code, 1, partial.stderr)
    assert.match(partial.stdout, new RegExp(`name: ${namespace}/reachable`))
    assert.doesNotMatch(partial.stdout, /stranger/)
    assert.match(partial.stderr, new RegExp(`^warning: skipped ${namespace}/stranger: `, 'm'))
    const usable = await run(['kubeconfig', '-n', namespace, '--all', '--usable', ...providers()])
    assert.equal(usable.code, 0, usable.stderr)
    assert.equal(usable.stdout, partial.stdout)
    assert.doesNotMatch(usable.stderr, /stranger/)
  })
})
