// docs/examples/fleet-job.yaml as the tests apply it, and the JUnit reports its pods write.
import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {XMLParser} from 'fast-xml-parser'
import YAML from 'yaml'
import {examplesDir} from '../../scripts/manifests.js'
import {isolatedEnv, runProgram, type RunResult} from './env.js'

export const FLEET_JOB_FILE = 'fleet-job.yaml'

/**
 * The file with each ${NAME} replaced in its text, as envsubst does, so numbers stay numbers;
 * comment lines are left as they are.
 */
export function renderedFleetJob(text: string, variables: Record<string, string>): string {
  return text
    .split('\n')
    .map((line) =>
      line.trimStart().startsWith('#')
        ? line
        : line.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_match, name: string) => {
            const value = variables[name]
            if (value === undefined) throw new Error(`${FLEET_JOB_FILE}: \${${name}} has no value`)
            return value
          }),
    )
    .join('\n')
}

/**
 * Renders docs/examples/fleet-job.yaml with `variables` into `dir`, applies it to the hub with
 * kubectl as the guide does, and returns its objects as applied.
 */
export async function applyFleetJob<T>(
  hubKubeconfig: string,
  dir: string,
  variables: Record<string, string>,
): Promise<T[]> {
  const manifest = path.join(dir, FLEET_JOB_FILE)
  const text = await readFile(path.join(examplesDir, FLEET_JOB_FILE), 'utf8')
  await writeFile(manifest, renderedFleetJob(text, variables))
  const applied = await runProgram('kubectl', ['--kubeconfig', hubKubeconfig, 'apply', '-f', manifest], {
    env: {...isolatedEnv},
  })
  assert.equal(applied.code, 0, applied.stderr)
  return YAML.parseAllDocuments(await readFile(manifest, 'utf8')).map((document) => document.toJS() as T)
}

export function junitTestcases(xml: string): {classname: string; name: string; failed: boolean}[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(xml)
  const cases = (parsed.testsuites.testsuite.testcase ?? []) as Record<string, unknown>[]
  return cases.map((testcase) => ({
    classname: String(testcase.classname),
    name: String(testcase.name),
    failed: testcase.failure !== undefined || testcase.error !== undefined,
  }))
}

export type JUnitCase = ReturnType<typeof junitTestcases>[number]

/**
 * What the Job's pods say, one shard each: every pod wrote its report; the pod that ran `unusable`
 * (it offers only a provider no provider file of the examples has) failed with exit 1 and said why,
 * every other pod succeeded. The profiles that passed and failed, and each pod's cases.
 */
export async function shardOutcomes(
  shards: {result: RunResult; report: string}[],
  unusable: string,
): Promise<{passed: string[]; failed: string[]; cases: JUnitCase[][]}> {
  const passed: string[] = []
  const failed: string[] = []
  const cases: JUnitCase[][] = []
  for (const [index, {result, report}] of shards.entries()) {
    assert.ok(existsSync(report), `pod ${index} wrote no report: ${result.stderr}`)
    const podCases = junitTestcases(await readFile(report, 'utf8'))
    cases.push(podCases)
    for (const testcase of podCases) (testcase.failed ? failed : passed).push(testcase.name)
    if (podCases.some((testcase) => testcase.name === unusable)) {
      assert.equal(result.code, 1, `pod ${index}: ${result.stderr}`)
      assert.match(
        result.stderr,
        new RegExp(`${unusable} +1 .*no provider in common .*"gke-workload-identity"`),
      )
    } else {
      assert.equal(result.code, 0, `pod ${index}: ${result.stderr}`)
    }
  }
  return {passed, failed, cases}
}
