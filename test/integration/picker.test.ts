import assert from 'node:assert/strict'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcred, cpcredBin, isolatedEnv, tempDir, testEnv} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {runOnTty, type TtySession} from '../helpers/tty.js'

/** The profiles the picker offers, in the order it lists them (namespace/name). */
const FLEET = ['alpha-east', 'ap-east-1', 'ap-south-1', 'ap-south-2', 'beta-west']

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

describe('interactive picking on a terminal', () => {
  let fixture: SpokeFixture

  before(async () => {
    fixture = await spokeFixture({prefix: 'picker', profileName: 'alpha-east'})
    const {env, hub} = await testEnv()
    for (const name of FLEET.slice(1)) {
      await applyProfile(hub, {
        metadata: {name, namespace: fixture.namespace},
        spec: {clusterManager: {name: 'test-manager'}},
        status: {
          accessProviders: [
            {
              name: 'fake',
              cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData},
            },
          ],
        },
      })
    }
  })

  const env = (extra: NodeJS.ProcessEnv = {}) => ({
    ...isolatedEnv,
    KUBECONFIG: fixture.hubKubeconfig,
    LANG: 'C.UTF-8',
    ...extra,
  })
  const execArgs = () => [
    'exec',
    '-n',
    fixture.namespace,
    '--provider-file',
    fixture.providerFile,
    '--',
    'sh',
    '-c',
    'echo ran on $CPCRED_PROFILE',
  ]
  const ranOn = (output: string) => [...output.matchAll(/ran on ([\w-]+)/g)].map((match) => match[1]).sort()

  /** `cpcred exec` with no target on a terminal, once its picker shows the whole list. */
  async function execPicker(extraEnv: NodeJS.ProcessEnv = {}): Promise<TtySession> {
    const session = runOnTty([process.execPath, cpcredBin, ...execArgs()], env(extraEnv))
    await session.waitFor('Run on which clusters?')
    await session.waitFor('beta-west')
    return session
  }

  it('describe without a name offers a fuzzy search over the profiles', async () => {
    const session = runOnTty(
      [
        process.execPath,
        cpcredBin,
        'describe',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
      ],
      env(),
    )
    await session.waitFor('Which ClusterProfile?')
    await session.waitFor('beta-west')
    session.type('btw')
    await settle()
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.match(output, /Name:\s+beta-west/)
  })

  it('describe: Ctrl-C in the single select exits 130 quietly', async () => {
    const session = runOnTty(
      [
        process.execPath,
        cpcredBin,
        'describe',
        '-n',
        fixture.namespace,
        '--provider-file',
        fixture.providerFile,
      ],
      env(),
    )
    await session.waitFor('Which ClusterProfile?')
    await session.waitFor('beta-west')
    session.type('\x03')
    const {code, output} = await session.exited
    assert.equal(code, 130, output)
    assert.doesNotMatch(output, /error|cancelled|Name:/i)
  })

  it('exec: typed letters filter and never select (`ap` is not select-all), Enter runs the highlighted one', async () => {
    const session = await execPicker()
    session.type('ap')
    await session.waitFor('(0 selected) ap')
    await settle()
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.deepEqual(ranOn(output), ['ap-east-1'])
    assert.doesNotMatch(output, /Run on \d+ clusters\?/)
  })

  it('exec: space selects, Ctrl-A selects all the filter shows; up to 3 run without a question', async () => {
    const session = await execPicker()
    session.type(' ') // alpha-east, the first entry
    await session.waitFor('(1 selected)')
    session.type('south')
    await session.waitFor('(1 selected) south')
    session.type('\x01') // Ctrl-A: both ap-south entries
    await session.waitFor('(3 selected)')
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.deepEqual(ranOn(output), ['alpha-east', 'ap-south-1', 'ap-south-2'])
    assert.doesNotMatch(output, /Run on \d+ clusters\?/)
  })

  for (const answer of [
    {typed: '\r', shown: 'Enter (the default, No)'},
    {typed: 'n\r', shown: 'n'},
  ]) {
    it(`exec: more than 3 clusters asks "Run on N clusters? (y/N)"; ${answer.shown} runs nothing`, async () => {
      const session = await execPicker()
      session.type('\x01')
      await session.waitFor(`(${FLEET.length} selected)`)
      session.type('\r')
      await session.waitFor(`Run on ${FLEET.length} clusters? (y/N)`)
      session.type(answer.typed)
      const {code, output} = await session.exited
      // A cancel, as Esc and Ctrl-C are: 130, quietly, the answer left on screen.
      assert.equal(code, 130, output)
      assert.deepEqual(ranOn(output), [])
      assert.match(output, new RegExp(`Run on ${FLEET.length} clusters\\? no`))
      assert.doesNotMatch(output, /error/i)
    })
  }

  for (const cancel of [
    {typed: '\x1b', shown: 'Esc'},
    {typed: '\x03', shown: 'Ctrl-C'},
  ]) {
    it(`exec: ${cancel.shown} clears the picker off the screen`, async () => {
      const session = await execPicker()
      await settle()
      session.type(cancel.typed)
      const {code, output} = await session.exited
      assert.equal(code, 130, output)
      // After the list was last drawn, every line of it (the question, 5 profiles, the help) erased.
      const after = output.slice(output.lastIndexOf('beta-west'))
      const erased = after.split('\x1b[2K').length - 1
      assert.ok(erased >= FLEET.length + 2, `${erased} lines erased after the list: ${JSON.stringify(after)}`)
    })
  }

  it('exec: "y" to the confirmation runs on every chosen cluster', async () => {
    const session = await execPicker()
    session.type('\x01')
    await session.waitFor(`(${FLEET.length} selected)`)
    session.type('\r')
    await session.waitFor(`Run on ${FLEET.length} clusters? (y/N)`)
    session.type('y\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    assert.deepEqual(ranOn(output), FLEET)
    // The answer line left on screen counts a large choice instead of listing it.
    assert.match(output, new RegExp(`Run on which clusters\\?.*\\) ${FLEET.length} clusters`))
  })

  it('exec: Ctrl-C in the picker exits 130 quietly and runs nothing', async () => {
    const session = await execPicker()
    session.type(' ')
    await session.waitFor('(1 selected)')
    session.type('\x03')
    const {code, output} = await session.exited
    assert.equal(code, 130, output)
    assert.deepEqual(ranOn(output), [])
    assert.doesNotMatch(output, /error|cancelled/i)
  })

  it('exec | tee: with stdout piped the picker is drawn on /dev/tty, and only the run goes down the pipe', async () => {
    const log = path.join(await tempDir('cpcred-picker-pipe-'), 'log')
    const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`
    const pipeline = `${[process.execPath, cpcredBin, ...execArgs()].map(quote).join(' ')} | cat > ${quote(log)}`
    const session = runOnTty(['sh', '-c', pipeline], env())
    await session.waitFor('Run on which clusters?')
    session.type('beta')
    await session.waitFor('(0 selected) beta')
    await settle()
    session.type('\r')
    const {code, output} = await session.exited
    assert.equal(code, 0, output)
    const piped = await readFile(log, 'utf8')
    assert.deepEqual(ranOn(piped), ['beta-west'])
    assert.doesNotMatch(piped, /Run on which clusters/)
  })

  it('exec with stdin not a terminal never prompts: a usage error names the flags to pass', async () => {
    const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`
    const session = runOnTty(
      ['sh', '-c', `echo data | ${[process.execPath, cpcredBin, ...execArgs()].map(quote).join(' ')}`],
      env(),
    )
    const {code, output} = await session.exited
    assert.equal(code, 2, output)
    assert.doesNotMatch(output, /Run on which clusters/)
    assert.match(output, /no target given/)
    assert.match(output, /-l SELECTOR or --all/)
    // And without any terminal (CI) likewise.
    const ci = await cpcred(execArgs(), {KUBECONFIG: fixture.hubKubeconfig})
    assert.equal(ci.code, 2, ci.stderr)
    assert.match(ci.stderr, /-l SELECTOR or --all/)
  })

  it('draws ASCII where the locale is not UTF-8 (LC_ALL=C) or TERM is dumb, and glyphs where it is', async () => {
    for (const ascii of [{LC_ALL: 'C'}, {TERM: 'dumb'}]) {
      const session = await execPicker(ascii)
      await session.waitFor(/> \[ \] [\w-]+\/alpha-east/)
      session.type('\x03')
      const {code, output} = await session.exited
      assert.equal(code, 130, output)
      assert.doesNotMatch(output, /[❯◯◉✓✗…—]/)
    }
    const session = await execPicker()
    await session.waitFor(/❯ ◯ [\w-]+\/alpha-east/)
    session.type('\x03')
    assert.equal((await session.exited).code, 130)
  })

  it("marks the profiles none of the consumer's providers reaches", async () => {
    const {hub} = await testEnv()
    const far = await spokeFixture({prefix: 'picker-reach', profileName: 'near'})
    await applyProfile(hub, {
      metadata: {name: 'far', namespace: far.namespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {accessProviders: [{name: 'elsewhere', cluster: {server: 'https://far.invalid'}}]},
    })
    const session = runOnTty(
      [
        process.execPath,
        cpcredBin,
        'exec',
        '-n',
        far.namespace,
        '--provider-file',
        far.providerFile,
        '--',
        'true',
      ],
      env(),
    )
    await session.waitFor('Run on which clusters?')
    await session.waitFor('/near')
    await settle()
    session.type('\x03')
    const {code, output} = await session.exited
    assert.equal(code, 130, output)
    assert.match(output, /\/far \(healthy: [^)]*\) ✗ no provider of yours\r?$/m)
    assert.doesNotMatch(output, /\/near \(healthy: [^)]*\) ✗/)
    // The single select of a command that needs a credential marks them too.
    const whoami = runOnTty(
      [process.execPath, cpcredBin, 'whoami', '-n', far.namespace, '--provider-file', far.providerFile],
      env(),
    )
    await whoami.waitFor('Which ClusterProfile?')
    await whoami.waitFor('/near')
    await settle()
    whoami.type('\x03')
    const picked = await whoami.exited
    assert.equal(picked.code, 130, picked.output)
    assert.match(picked.output, /\/far \(healthy: [^)]*\) ✗ no provider of yours\r?$/m)
    assert.doesNotMatch(picked.output, /\/near \(healthy: [^)]*\) ✗/)
  })
})
