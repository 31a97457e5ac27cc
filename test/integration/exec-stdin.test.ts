// `cat app.yaml | cpcred exec --all -- kubectl apply -f -`: every target of a fan-out reads all of
// cpcred's stdin, from a private spool that no run leaves behind.
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync} from 'node:fs'
import {readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {kubeCall} from '../testenv/http.js'
import {applyProfile, cpcredBin, isolatedEnv, tempDir, testEnv, uniqueName} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {waitForPids, waitGone} from '../helpers/processes.js'

const TARGETS = 10

interface Outcome {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

describe('exec with stdin on many targets', () => {
  let fixture: SpokeFixture
  let env: NodeJS.ProcessEnv
  let runtimeDir: string
  let dir: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'stdin'})
    dir = await tempDir('cpcred-stdin-')
    runtimeDir = await tempDir('cpcred-runtime-')
    const {env: testenv, hub, spoke} = await testEnv()
    for (let index = 1; index < TARGETS; index++) {
      await applyProfile(hub, {
        metadata: {name: `member-${index}`, namespace: fixture.namespace},
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
    // The plugin's identity may create ConfigMaps on the spoke, so that apply --dry-run=server can run.
    await kubeCall(spoke, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: {name: uniqueName('stdin-apply')},
      // cluster-admin: edit is aggregated by a controller this apiserver-only spoke does not run.
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin'},
      subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: fixture.username}],
    })
    env = {
      ...isolatedEnv,
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: path.join(dir, 'cache'),
      XDG_RUNTIME_DIR: runtimeDir,
    }
  })

  /** cpcred exec on every target of the fixture, with `feed` written to its stdin (or a file as stdin). */
  function exec(
    args: string[],
    command: string[],
    stdin: {text?: string | Buffer; file?: string; slow?: string[]} = {},
  ): {done: Promise<Outcome>; pid: number; kill(signal: NodeJS.Signals): void} {
    const shell = stdin.file
      ? `exec "$@" < ${JSON.stringify(stdin.file)}`
      : stdin.slow
        ? // A producer that is still writing when the targets start.
          `(${stdin.slow.map((line, i) => `${i ? 'sleep 2; ' : ''}echo ${line}`).join('; ')}) | "$@"`
        : 'exec "$@"'
    const child = spawn(
      'sh',
      [
        '-c',
        shell,
        'sh',
        process.execPath,
        cpcredBin,
        'exec',
        '-n',
        fixture.namespace,
        '--all',
        '--parallel',
        String(TARGETS),
        '--provider-file',
        fixture.providerFile,
        ...args,
        '--',
        ...command,
      ],
      {env, stdio: [stdin.text === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']},
    )
    if (stdin.text !== undefined) child.stdin!.end(stdin.text)
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const done = new Promise<Outcome>((resolve) =>
      child.on('close', (code, signal) => resolve({code, signal, stdout, stderr})),
    )
    return {done, pid: child.pid!, kill: (signal) => child.kill(signal)}
  }

  /** Each target's lines of output, by profile name. */
  function byTarget(stdout: string): Map<string, string[]> {
    const lines = new Map<string, string[]>()
    for (const line of stdout.split('\n').filter(Boolean)) {
      const match = /^(\S+)\s+\| (.*)$/.exec(line)
      assert.ok(match, `an unprefixed line: ${line}`)
      const name = match[1]!.replace(/^.*\//, '')
      lines.set(name, [...(lines.get(name) ?? []), match[2]!])
    }
    return lines
  }

  const leftovers = async () => {
    const root = path.join(runtimeDir, `cpcred-${process.getuid!()}`)
    return existsSync(root) ? readdir(root) : []
  }

  it('gives kubectl apply -f - the same manifest on every target', async () => {
    const name = uniqueName('from-stdin')
    const manifest = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${name}`,
      '  namespace: default',
      'data:',
      '  greeting: "hello from every cluster"',
      '',
    ].join('\n')
    const outcome = await exec(
      [],
      [
        'kubectl',
        'apply',
        '--dry-run=server',
        '-f',
        '-',
        '-o',
        'jsonpath={.metadata.name}={.data.greeting}{"\\n"}',
      ],
      {text: manifest},
    ).done
    assert.equal(outcome.code, 0, outcome.stderr)
    const seen = byTarget(outcome.stdout)
    assert.equal(seen.size, TARGETS)
    for (const [target, lines] of seen) {
      assert.deepEqual(lines, [`${name}=hello from every cluster`], target)
    }
    assert.match(outcome.stderr, new RegExp(`all ${TARGETS} succeeded`))
    assert.deepEqual(await leftovers(), [], 'no spool is left after success')
  })

  it('gives 50 MB of stdin to 10 targets byte for byte, from a pipe and from a file', async () => {
    const input = Buffer.alloc(50 * 1024 * 1024)
    for (let offset = 0; offset < input.length; offset += 4096)
      input.writeUInt32LE((offset * 2654435761) >>> 0, offset)
    const expected = createHash('sha256').update(input).digest('hex')
    const file = path.join(dir, 'fifty-megabytes')
    await writeFile(file, input)
    for (const stdin of [{text: input}, {file}]) {
      const outcome = await exec([], ['sh', '-c', 'sha256sum | cut -d" " -f1'], stdin).done
      assert.equal(outcome.code, 0, outcome.stderr)
      const seen = byTarget(outcome.stdout)
      assert.equal(seen.size, TARGETS)
      for (const [target, lines] of seen) assert.deepEqual(lines, [expected], target)
    }
    assert.deepEqual(await leftovers(), [])
  })

  it('feeds targets that start before the input has ended, to its end', async () => {
    const outcome = await exec([], ['cat'], {slow: ['first', 'second']}).done
    assert.equal(outcome.code, 0, outcome.stderr)
    for (const [target, lines] of byTarget(outcome.stdout))
      assert.deepEqual(lines, ['first', 'second'], target)
  })

  it('--stdin=none gives every target /dev/null, as before', async () => {
    const outcome = await exec(['--stdin=none'], ['sh', '-c', 'readlink /proc/self/fd/0; cat; echo end'], {
      text: 'not for them\n',
    }).done
    assert.equal(outcome.code, 0, outcome.stderr)
    for (const [target, lines] of byTarget(outcome.stdout))
      assert.deepEqual(lines, ['/dev/null', 'end'], target)
  })

  it('a target that never reads stdin is not held by an input that never ends', async () => {
    // stdin is a pipe nobody closes: kubectl get does not read it, so nothing waits for its end.
    const child = spawn(
      process.execPath,
      [
        cpcredBin,
        'exec',
        '-n',
        fixture.namespace,
        '--all',
        '--provider-file',
        fixture.providerFile,
        '--',
        'sh',
        '-c',
        'echo ran',
      ],
      {env, stdio: ['pipe', 'pipe', 'pipe']},
    )
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.stdin.destroy()
    assert.equal(code, 0)
    assert.equal(byTarget(stdout).size, TARGETS)
  })

  it('leaves no spool after a failure, SIGINT, or SIGKILL (swept by the next run)', async () => {
    const failed = await exec([], ['sh', '-c', 'cat >/dev/null; exit 3'], {text: 'input\n'}).done
    assert.equal(failed.code, 1)
    assert.deepEqual(await leftovers(), [], 'no spool after a failure')

    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      const running = exec([], ['sh', '-c', 'cat; sleep 30'], {slow: ['held', 'never']})
      const deadline = Date.now() + 20_000
      // The spool exists while the targets run.
      while (!(await spoolFiles()).length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50))
      assert.equal((await spoolFiles()).length, 1, `a spool while running (${signal})`)
      // The shell started cpcred with exec: its pid is cpcred's, its stdin the producer's pipe.
      process.kill(await cpcredPid(running.pid), signal)
      const outcome = await running.done
      if (signal === 'SIGINT') {
        assert.equal(outcome.code, 130, outcome.stderr)
        assert.match(outcome.stderr, /interrupted by SIGINT/)
        assert.deepEqual(await leftovers(), [], 'no spool after SIGINT')
      } else {
        assert.equal((await spoolFiles()).length, 1, 'kill -9 leaves the spool behind')
        const next = await exec(['--stdin=none'], ['true']).done
        assert.equal(next.code, 0, next.stderr)
        assert.deepEqual(await spoolFiles(), [], 'the next run swept it')
      }
    }
  })

  it('stops the targets still running when cpcred is killed with SIGKILL, and leaves its launcher out of their environment', async () => {
    // The targets are started by cpcred's launcher, a process of its own: nothing of it shows.
    const plain = await exec(['--stdin=none'], ['sh', '-c', 'env | grep -c "^NODE_CHANNEL" || true']).done
    assert.equal(plain.code, 0, plain.stderr)
    const counts = byTarget(plain.stdout)
    assert.equal(counts.size, TARGETS)
    assert.deepEqual([...new Set([...counts.values()].flat())], ['0'])

    // A target in a group of its own never gets the terminal's ^C, and would outlive a cpcred killed
    // with SIGKILL: the launcher sees cpcred go and stops them.
    const pidFile = path.join(dir, `${uniqueName('pids')}`)
    const running = exec([], ['sh', '-c', `echo $$ >> ${pidFile}; cat; sleep 30`], {slow: ['held', 'never']})
    const pids = await waitForPids(pidFile, TARGETS, 20_000)
    process.kill(await cpcredPid(running.pid), 'SIGKILL')
    await running.done
    assert.ok(await waitGone(pids, 10_000), `targets ${pids.join(' ')} outlived cpcred`)
  })

  it('starts the targets of a wide fan-out through two launchers, so that neither waits on the other', async () => {
    // Each target waits until all have started, so all of them run at once; its parent is the
    // launcher that started it.
    const started = path.join(dir, uniqueName('started'))
    const script =
      `echo $PPID >> ${started}; i=0; ` +
      `while [ "$(wc -l < ${started})" -lt ${TARGETS} ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; echo $PPID`
    const outcome = await exec(['--stdin=none'], ['sh', '-c', script]).done
    assert.equal(outcome.code, 0, outcome.stderr)
    const parents = byTarget(outcome.stdout)
    assert.equal(parents.size, TARGETS)
    const launchers = new Set([...parents.values()].flat())
    assert.equal(launchers.size, 2, `the targets' parents: ${[...launchers].join(' ')}`)
  })

  it('refuses more than 256 MiB of stdin with a usage error, before any target sees an end of input', async () => {
    const outcome = await exec([], ['sh', '-c', 'cat >/dev/null; echo complete'], {
      file: await bigFile(257 * 1024 * 1024),
    }).done
    assert.equal(outcome.code, 2, outcome.stderr)
    assert.match(outcome.stderr, /^error: the input on stdin is larger than 256 MiB/m)
    assert.doesNotMatch(outcome.stdout, /complete/)
    assert.deepEqual(await leftovers(), [])
  })

  async function spoolFiles(): Promise<string[]> {
    const root = path.join(runtimeDir, `cpcred-${process.getuid!()}`)
    const found: string[] = []
    for (const run of await leftovers()) {
      const files = await readdir(path.join(root, run)).catch(() => [] as string[])
      if (files.includes('stdin')) found.push(path.join(root, run, 'stdin'))
    }
    return found
  }

  async function bigFile(size: number): Promise<string> {
    const file = path.join(dir, `big-${size}`)
    const handle = await import('node:fs/promises').then((fs) => fs.open(file, 'w'))
    await handle.truncate(size)
    await handle.close()
    return file
  }
})

/** The cpcred under `sh -c '(producer) | node cpcred …'`: the shell's child running bin/run.js. */
async function cpcredPid(shellPid: number): Promise<number> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const {readFile} = await import('node:fs/promises')
    const children = (await readFile(`/proc/${shellPid}/task/${shellPid}/children`, 'utf8').catch(() => ''))
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
    for (const pid of [shellPid, ...children]) {
      // The shell's own command line names bin/run.js too, as an argument: cpcred runs it as its script.
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')
      if (argv[0] === process.execPath && argv[1] === cpcredBin) return pid
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no cpcred under shell ${shellPid}`)
}
