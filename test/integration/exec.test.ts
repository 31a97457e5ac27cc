import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcred, cpcredBin, isolatedEnv, tempDir, testEnv, uniqueName} from '../helpers/env.js'
import {KUBECTL_WHOAMI, pluginRecords, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {kubeCall, kubeRequest} from '../testenv/http.js'
import {bundleProbe, waitForLines} from '../helpers/processes.js'
import {freePorts} from '../testenv/testenv.js'

describe('cpcred exec against the real spoke', () => {
  let fixture: SpokeFixture
  let cacheHome: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'exec'})
    cacheHome = await tempDir('cpcred-cache-')
    // Two more targets in the same namespace for fan-out: one reachable, one whose provider the
    // consumer does not have.
    const {env, hub} = await testEnv()
    const server = env.spoke.server
    for (const [name, provider] of [
      ['second', 'fake'],
      ['unreachable', 'nobody-has-this'],
    ] as const) {
      await applyProfile(hub, {
        metadata: {name, namespace: fixture.namespace, labels: {fanout: 'yes'}},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {name: provider, cluster: {server, 'certificate-authority-data': env.spoke.caData}},
          ],
        },
      })
    }
  })

  const exec = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cpcred(['exec', ...args], {KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome, ...env})
  const target = () => `${fixture.namespace}/target`

  it('runs real kubectl against the target as the identity the plugin obtained', async () => {
    const result = await exec([target(), '--provider-file', fixture.providerFile, '--', ...KUBECTL_WHOAMI])
    assert.equal(result.code, 0, result.stderr)
    assert.equal(JSON.parse(result.stdout).status.userInfo.username, fixture.username)
  })

  it("returns the command's exit code and gives it CPCRED_PROFILE and CPCRED_NAMESPACE", async () => {
    const result = await exec([
      target(),
      '--provider-file',
      fixture.providerFile,
      '--',
      'sh',
      '-c',
      'echo "$CPCRED_NAMESPACE/$CPCRED_PROFILE"; exit 7',
    ])
    assert.equal(result.code, 7)
    assert.equal(result.stdout, `${target()}\n`)
  })

  it('forwards SIGTERM to the command and removes the temporary kubeconfig', async () => {
    const dir = await tempDir()
    const seen = path.join(dir, 'kubeconfig-path')
    const trapped = path.join(dir, 'trapped')
    const child = spawn(
      process.execPath,
      [
        cpcredBin,
        'exec',
        target(),
        '--provider-file',
        fixture.providerFile,
        '--',
        'sh',
        '-c',
        `echo "$KUBECONFIG" > ${seen}; trap 'echo term > ${trapped}; exit 143' TERM; sleep 60 & wait`,
      ],
      {env: {...isolatedEnv, KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome}, stdio: 'ignore'},
    )
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const kubeconfig = (await waitForLines(seen, 1, 20_000))[0]!
    assert.ok(existsSync(kubeconfig), 'the temporary kubeconfig exists while the command runs')
    assert.equal((await stat(kubeconfig)).mode & 0o777, 0o600)
    assert.equal((await stat(path.dirname(kubeconfig))).mode & 0o777, 0o700)
    child.kill('SIGTERM')
    assert.equal(await exited, 143)
    assert.equal((await readFile(trapped, 'utf8')).trim(), 'term')
    assert.ok(!existsSync(kubeconfig), 'the temporary kubeconfig is gone')
    assert.ok(!existsSync(path.dirname(kubeconfig)), 'its private directory is gone too')
  })

  it('runs the same exec again from its answer: the same kubeconfig and environment, no cpcred loaded', async () => {
    const dir = await tempDir('cpcred-exec-answers-')
    const probe = await bundleProbe(dir, 'exec.cjs')
    const seen = path.join(dir, 'seen')
    const answersCache = await tempDir('cpcred-cache-')
    const run = async (command: string[]) => {
      const result = await cpcred(
        ['exec', target(), '--provider-file', fixture.providerFile, '--', ...command],
        {
          KUBECONFIG: fixture.hubKubeconfig,
          XDG_CACHE_HOME: answersCache,
          NODE_OPTIONS: probe.nodeOptions,
        },
      )
      return {...result, how: await probe.last()}
    }
    const script = `echo "$KUBECONFIG" > ${seen}; echo "$CPCRED_NAMESPACE/$CPCRED_PROFILE"; exit 7`
    const first = await run(['sh', '-c', script])
    assert.deepEqual([first.code, first.stdout, first.how], [7, `${target()}\n`, 'full'])
    const again = await run(['sh', '-c', script])
    assert.deepEqual([again.code, again.stdout, again.how], [7, `${target()}\n`, 'answer'])
    const kubeconfig = (await readFile(seen, 'utf8')).trim()
    assert.ok(
      !existsSync(kubeconfig) && !existsSync(path.dirname(kubeconfig)),
      'the temporary kubeconfig is gone',
    )

    // The answer is the target, not the command: real kubectl reaches the spoke as the plugin's identity.
    const whoami = await run(KUBECTL_WHOAMI)
    assert.equal(whoami.how, 'answer')
    assert.equal(whoami.code, 0, whoami.stderr)
    assert.equal(JSON.parse(whoami.stdout).status.userInfo.username, fixture.username)
    const missing = await run(['no-such-command-anywhere'])
    assert.equal(missing.how, 'answer')
    assert.equal(missing.code, 127)
    assert.match(missing.stderr, /^error: no-such-command-anywhere: command not found/)
  })

  it('never puts the token on any command line, nor in --verbose output', async () => {
    const token = (await readFile(fixture.tokenFile, 'utf8')).trim()
    // From inside the command: scan every process's argv on the machine for the token.
    const scan = `
      const fs = require('fs'); const token = fs.readFileSync(process.env.TOKEN_FILE, 'utf8').trim(); let hits = 0, scanned = 0
      for (const pid of fs.readdirSync('/proc')) { if (!/^\\d+$/.test(pid)) continue
        try { const argv = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8'); scanned++; if (argv.includes(token)) hits++ } catch {} }
      console.log(JSON.stringify({hits, scanned}))`
    const result = await exec(
      [
        target(),
        '--provider-file',
        fixture.providerFile,
        '--no-cache',
        '-v',
        '--',
        process.execPath,
        '-e',
        scan,
      ],
      {
        TOKEN_FILE: fixture.tokenFile,
      },
    )
    assert.equal(result.code, 0, result.stderr)
    const {hits, scanned} = JSON.parse(result.stdout)
    assert.ok(scanned > 3, 'the scan saw the running processes')
    assert.equal(hits, 0)
    assert.match(result.stderr, /cpcred: .*credential from the plugin/)
    assert.ok(!result.stderr.includes(token) && !result.stdout.includes(token))
  })

  it('fans out over a selector in parallel, prefixes output, and exits 1 when one target fails', async () => {
    const result = await exec([
      'target',
      '-n',
      fixture.namespace,
      '-l',
      'fanout=yes',
      '--provider-file',
      fixture.providerFile,
      '--',
      'sh',
      '-c',
      'echo hello from $CPCRED_PROFILE',
    ])
    assert.equal(result.code, 1)
    // The named profile joins the labelled ones.
    const width = `${fixture.namespace}/unreachable`.length
    assert.match(
      result.stdout,
      new RegExp(`^${`${fixture.namespace}/second`.padEnd(width)} \\| hello from second$`, 'm'),
    )
    assert.match(
      result.stdout,
      new RegExp(`^${`${fixture.namespace}/target`.padEnd(width)} \\| hello from target$`, 'm'),
    )
    assert.match(result.stderr, /no provider in common for ClusterProfile .*\/unreachable/)
    assert.match(result.stderr, /PROFILE\s+EXIT\s+DURATION\s+NOTE/)
    assert.match(result.stderr, /1 of 3 failed/)
  })

  it('prints a JSON summary for CI with -o json, the output lines going to stderr', async () => {
    const result = await exec([
      '-n',
      fixture.namespace,
      '-l',
      'fanout=yes',
      '--provider-file',
      fixture.providerFile,
      '-o',
      'json',
      '--',
      'sh',
      '-c',
      'test "$CPCRED_PROFILE" = second',
    ])
    assert.equal(result.code, 1)
    const summary = JSON.parse(result.stdout) as {profile: string; exitCode: number; error?: string}[]
    assert.deepEqual(summary.map(({profile, exitCode}) => [profile, exitCode]).sort(), [
      [`${fixture.namespace}/second`, 0],
      [`${fixture.namespace}/unreachable`, 1],
    ])
  })

  it('refuses to guess a target without a terminal, and needs a command', async () => {
    const noTarget = await exec(['--provider-file', fixture.providerFile, '--', 'true'])
    assert.equal(noTarget.code, 2)
    assert.match(noTarget.stderr, /^error: no target given\n/)
    const noCommand = await exec([target(), '--provider-file', fixture.providerFile])
    assert.equal(noCommand.code, 2)
    assert.match(noCommand.stderr, /^error: no command to run\n/)
    const missing = await exec([
      target(),
      '--provider-file',
      fixture.providerFile,
      '--',
      'no-such-command-here',
    ])
    assert.equal(missing.code, 127)
    assert.match(missing.stderr, /^error: no-such-command-here: command not found\n/)
  })
})

describe('cpcred exec: a command that outlives its first credential', () => {
  it('renews it while the command runs: kubectl proxy keeps working after the first token is revoked', async () => {
    const {env, spoke} = await testEnv()
    // Tokens of a spoke ServiceAccount, each bound to a Secret: deleting the Secret revokes the token
    // on the spoke at once, so only a credential that was really renewed keeps working.
    const account = uniqueName('renewed')
    await kubeCall(spoke, 'POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {name: account},
    })
    const boundToken = async (index: number) => {
      const secret = await kubeCall<{metadata: {uid: string}}>(
        spoke,
        'POST',
        '/api/v1/namespaces/default/secrets',
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {name: `${account}-${index}`},
        },
      )
      const review = await kubeCall<{status: {token: string}}>(
        spoke,
        'POST',
        `/api/v1/namespaces/default/serviceaccounts/${account}/token`,
        {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: {
            expirationSeconds: 3600,
            boundObjectRef: {
              kind: 'Secret',
              apiVersion: 'v1',
              name: `${account}-${index}`,
              uid: secret.metadata.uid,
            },
          },
        },
      )
      return review.status.token
    }
    const [first, second] = [await boundToken(0), await boundToken(1)]
    // The plugin hands out whatever the token file holds, saying it lasts 20 s: exec starts the
    // command with 10 s of it left at least, and renews it when 10 s are left.
    const fixture = await spokeFixture({prefix: 'renew', pluginEnv: {PLUGIN_TTL_SECONDS: '20'}})
    await writeFile(fixture.tokenFile, first, {mode: 0o600})
    const port = (await freePorts(1))[0]!
    const started = Date.now()
    const child = spawn(
      process.execPath,
      [
        cpcredBin,
        'exec',
        `${fixture.namespace}/target`,
        '--provider-file',
        fixture.providerFile,
        '--',
        'kubectl',
        'proxy',
        `--port=${port}`,
      ],
      {
        env: {...isolatedEnv, KUBECONFIG: env.hub.kubeconfig, XDG_CACHE_HOME: await tempDir('cpcred-cache-')},
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const whoami = async () => {
      const response = await fetch(
        `http://127.0.0.1:${port}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
        {
          method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview'}),
        },
      )
      const body = (await response.json()) as {status?: {userInfo?: {username?: string}}}
      return {status: response.status, username: body.status?.userInfo?.username}
    }
    const expected = `system:serviceaccount:default:${account}`
    try {
      let answer: {status: number; username?: string} | undefined
      while (!answer && Date.now() - started < 15_000) {
        answer = await whoami().catch(() => undefined)
        if (!answer) await new Promise((resolve) => setTimeout(resolve, 200))
      }
      assert.deepEqual(answer, {status: 201, username: expected}, stderr)
      const firstAnswered = Date.now()
      // The next plugin run gives the second token; the first is revoked once it has expired, and
      // once kubectl's read of the token file is old enough to be read again (50 s, client-go's
      // cached file token source).
      await writeFile(fixture.tokenFile, second, {mode: 0o600})
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, started + 22_000 - Date.now(), firstAnswered + 51_000 - Date.now())),
      )
      await kubeCall(spoke, 'DELETE', `/api/v1/namespaces/default/secrets/${account}-0`)
      await waitUntil('the spoke to reject the first token', async () => {
        const {status} = await kubeRequest(
          {server: env.spoke.server, caPem: spoke.caPem, bearerToken: first},
          'GET',
          '/api',
        )
        return status === 401
      })
      // The same kubectl process: it read the token file again, which cpcred had renewed meanwhile.
      assert.deepEqual(await whoami(), {status: 201, username: expected}, stderr)
      const runs = await pluginRecords(fixture)
      assert.ok(runs.length >= 2, `the plugin ran again to renew the credential (${runs.length} runs)`)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
    assert.doesNotMatch(stderr, /could not renew/)
  })
})

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
