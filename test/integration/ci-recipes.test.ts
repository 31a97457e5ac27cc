// The recipes of docs/ci.md, run as written against the real hub and spoke: the CI system's
// variables, secrets and expressions stood in, its install step left out (test:pack covers that).
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {copyFile, mkdir, readFile, writeFile, chmod} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {XMLParser} from 'fast-xml-parser'
import {parse} from 'yaml'
import {cpcredBin, isolatedEnv, repoRoot, runProgram, tempDir, uniqueName} from '../helpers/env.js'
import {anotherSpokeProfile, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'

const TARGETS = 6

interface GitHubStep {
  run?: string
  env?: Record<string, string>
}
interface GitHubJob {
  strategy: {matrix: {shard: number[]}}
  env: Record<string, string>
  steps: GitHubStep[]
}
interface GitLabJob {
  parallel: number
  variables: Record<string, string>
  script: string[]
  artifacts: {reports: {junit: string}; paths: string[]}
}

describe('the CI recipes of docs/ci.md', () => {
  let fixture: SpokeFixture
  let label: string
  let blocks: {yaml: string[]; sh: string[]}
  let binDir: string
  let cacheHome: string
  let expected: string[]

  before(async () => {
    fixture = await spokeFixture({prefix: 'recipes'})
    label = uniqueName('ci')
    expected = []
    for (let index = 0; index < TARGETS; index++) {
      const name = `cluster-${index}`
      await anotherSpokeProfile(fixture, name, {env: label})
      expected.push(`${fixture.namespace}/${name}`)
    }
    // The selection stands in for the recipes' env=prod.
    const doc = (await readFile(path.join(repoRoot, 'docs', 'ci.md'), 'utf8')).replaceAll(
      'env=prod',
      `env=${label}`,
    )
    blocks = {yaml: fenced(doc, 'yaml'), sh: fenced(doc, 'sh')}
    binDir = await tempDir('cpcred-bin-')
    await writeFile(
      path.join(binDir, 'cpcred'),
      `#!/bin/sh\nexec "${process.execPath}" "${cpcredBin}" "$@"\n`,
    )
    await chmod(path.join(binDir, 'cpcred'), 0o755)
    cacheHome = await tempDir('cpcred-cache-')
  })

  /** A job's checkout: the repository's ci/providers.json (no secret in it). */
  const workspace = async () => {
    const dir = await tempDir('cpcred-job-')
    await mkdir(path.join(dir, 'ci'))
    await copyFile(fixture.providerFile, path.join(dir, 'ci', 'providers.json'))
    return dir
  }
  const shellEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
    ...isolatedEnv,
    PATH: `${binDir}:${process.env.PATH}`,
    XDG_CACHE_HOME: cacheHome,
    ...extra,
  })

  it('GitHub Actions: the matrix jobs together reach every profile once and report it', async () => {
    const workflow = parse(blocks.yaml.find((block) => block.includes('strategy:'))!) as {
      jobs: {fleet: GitHubJob}
    }
    const job = workflow.jobs.fleet
    const hubKubeconfig = await readFile(fixture.hubKubeconfig, 'utf8')
    const reached: string[] = []
    for (const shard of job.strategy.matrix.shard) {
      const expressions: Record<string, string> = {
        'matrix.shard': String(shard),
        'secrets.HUB_KUBECONFIG': hubKubeconfig,
      }
      const expand = (text: string) =>
        text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
          assert.ok(
            name in expressions,
            `the recipe uses \${{ ${name} }}, which the test does not stand in for`,
          )
          return expressions[name]!
        })
      const dir = await workspace()
      const runnerTemp = await tempDir('cpcred-runner-')
      const jobEnv = Object.fromEntries(Object.entries(job.env).map(([key, value]) => [key, expand(value)]))
      for (const step of job.steps) {
        if (step.run === undefined || step.run.startsWith('npm install')) continue
        const stepEnv = Object.fromEntries(
          Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(value)]),
        )
        // GitHub runs `run:` with bash -e -o pipefail.
        const result = await runProgram(
          'bash',
          ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run)],
          {
            cwd: dir,
            env: shellEnv({...jobEnv, ...stepEnv, RUNNER_TEMP: runnerTemp}),
          },
        )
        assert.equal(result.code, 0, result.stderr)
      }
      const inShard = testcases(await readFile(path.join(dir, 'reports', `fleet-${shard}.xml`), 'utf8'))
      for (const target of inShard) assert.ok(existsSync(path.join(dir, 'logs', `${target}.log`)), target)
      reached.push(...inShard)
    }
    assert.deepEqual(reached.sort(), expected)
  })

  it('GitLab parallel: with --shard auto, the jobs together reach every profile once and report it', async () => {
    const pipeline = parse(blocks.yaml.find((block) => block.includes('parallel:'))!) as {fleet: GitLabJob}
    const job = pipeline.fleet
    const reached: string[] = []
    for (let index = 1; index <= job.parallel; index++) {
      const dir = await workspace()
      const script = job.script.filter((line) => !line.startsWith('npm install')).join('\n')
      const result = await runProgram('sh', ['-e', '-c', script], {
        cwd: dir,
        env: shellEnv({
          ...job.variables,
          CI_NODE_INDEX: String(index),
          CI_NODE_TOTAL: String(job.parallel),
          // A File-type variable: GitLab sets it to the path of the file.
          KUBECONFIG: fixture.hubKubeconfig,
        }),
      })
      assert.equal(result.code, 0, result.stderr)
      reached.push(...testcases(await readFile(path.join(dir, job.artifacts.reports.junit), 'utf8')))
    }
    assert.deepEqual(reached.sort(), expected)
  })

  it("each output recipe gives jq every target's version, one line a target", async (t) => {
    if (spawnSync('jq', ['--version']).status !== 0)
      return t.skip('jq is not installed (.ci/run installs it)')
    const recipes = blocks.sh.filter((block) => block.includes('kubectl version -o json'))
    assert.equal(recipes.length, 4)
    // The README's line of the same kind, as written (its comment cut, the selection stood in for).
    const readme = (await readFile(path.join(repoRoot, 'README.md'), 'utf8')).replaceAll(
      'env=prod',
      `env=${label}`,
    )
    const readmeLine = readme.split('\n').find((line) => line.includes('-o jsonl -- kubectl version'))
    assert.ok(readmeLine, 'the README has no -o jsonl recipe')
    const env = shellEnv({KUBECONFIG: fixture.hubKubeconfig, CPCRED_PROVIDER_FILE: 'ci/providers.json'})
    for (const recipe of [...recipes, readmeLine]) {
      const result = await runProgram('sh', ['-e', '-c', recipe], {cwd: await workspace(), env})
      assert.equal(result.code, 0, `${recipe}\n${result.stderr}`)
      // Every target's JSON is in the records or files: none of it is shown again on stderr.
      assert.doesNotMatch(result.stderr, /serverVersion/, recipe)
      const lines = result.stdout.trimEnd().split('\n')
      assert.equal(lines.length, TARGETS, `${recipe}\n${result.stdout}`)
      for (const line of lines)
        assert.match(line, readmeLine === recipe ? /^v1\.\d+\.\d+/ : /^\S+ v1\.\d+\.\d+/, recipe)
    }
  })

  it('the shell loop runs the shards side by side and fails when one of them fails', async () => {
    const loop = blocks.sh.find((block) => block.includes('pids='))!
    const dir = await workspace()
    const env = shellEnv({KUBECONFIG: fixture.hubKubeconfig, CPCRED_PROVIDER_FILE: 'ci/providers.json'})
    const result = await runProgram('sh', ['-c', loop], {cwd: dir, env})
    assert.equal(result.code, 0, result.stderr)
    const reached: string[] = []
    for (let shard = 1; shard <= 4; shard++) {
      reached.push(...testcases(await readFile(path.join(dir, 'reports', `fleet-${shard}.xml`), 'utf8')))
    }
    assert.deepEqual(reached.sort(), expected)

    // The same loop with a command that fails on one cluster exits 1.
    const failing = loop.replace(
      '-- kubectl get --raw /readyz',
      '-- sh -c \'[ "$CPCRED_PROFILE" != cluster-3 ]\'',
    )
    assert.notEqual(failing, loop)
    const failed = await runProgram('sh', ['-c', failing], {cwd: await workspace(), env})
    assert.equal(failed.code, 1, failed.stderr)
  })
})

/** The bodies of the fenced code blocks of one language. */
function fenced(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (match) => match[1]!,
  )
}

/** namespace/name of every test case of a JUnit report. */
function testcases(xml: string): string[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(xml)
  const cases = (parsed.testsuites.testsuite.testcase ?? []) as {classname: string; name: string}[]
  return cases.map((testcase) => `${testcase.classname}/${testcase.name}`)
}
