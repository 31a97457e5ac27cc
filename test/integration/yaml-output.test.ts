// -o yaml against the real hub reads back, through the YAML readers users have (PyYAML, YAML 1.1 as
// Go's yaml v2 and Ruby read it; js-yaml's default schema), as exactly what -o json prints: a
// profile whose display name is `no`, whose property is `on` and whose label is a date, its
// creationTimestamp, and a kubectl that answers with a date for its version.
import assert from 'node:assert/strict'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {applyProfile, cpcred, isolatedEnv, tempDir, testEnv, type RunResult} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {pyyamlMissing, readWithJsYaml, readWithPyYaml, type Reading} from '../helpers/yaml-readers.js'

describe('-o yaml reads back as -o json', () => {
  let fixture: SpokeFixture
  let kubectlDir: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'yaml-output'})
    const {hub} = await testEnv()
    await applyProfile(hub, {
      metadata: {
        name: 'ambiguous',
        namespace: fixture.namespace,
        labels: {release: '2026-01-01', canary: 'yes', wave: '012'},
      },
      spec: {displayName: 'no', clusterManager: {name: 'test-manager'}},
      status: {
        accessProviders: fixture.profile.status!.accessProviders,
        properties: [
          {name: 'feature.example.com', value: 'on'},
          {name: 'uptime.example.com', value: '190:20:30'},
          {name: 'since.example.com', value: '2026-01-01T00:00:00Z'},
        ],
        conditions: [
          {
            type: 'ControlPlaneHealthy',
            status: 'True',
            reason: 'Healthy',
            message: 'off',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    })
    // A kubectl whose version reads as a date: `cpcred version` reports what it said.
    kubectlDir = await tempDir('cpcred-yaml-output-kubectl-')
    await writeFile(
      path.join(kubectlDir, 'kubectl'),
      `#!/bin/sh\necho '{"clientVersion": {"gitVersion": "2026-01-01"}}'\n`,
      {mode: 0o755},
    )
  })

  const hubEnv = () => ({KUBECONFIG: fixture.hubKubeconfig})
  const cases: {
    what: string
    args: (output: string[]) => string[]
    env: () => NodeJS.ProcessEnv
    stable?: string
  }[] = [
    {what: 'list', args: (output) => ['list', '-n', fixture.namespace, ...output], env: hubEnv},
    {
      what: 'describe',
      args: (output) => [
        'describe',
        `${fixture.namespace}/ambiguous`,
        '--provider-file',
        fixture.providerFile,
        ...output,
      ],
      env: hubEnv,
    },
    {
      // Each target's record, its stdout `on` and its stderr of two lines (a literal block); the
      // durations of the two runs differ.
      what: 'exec',
      args: (output) => [
        'exec',
        `${fixture.namespace}/ambiguous`,
        '--provider-file',
        fixture.providerFile,
        ...output,
        '--',
        'sh',
        '-c',
        'printf on; printf "2026-01-01\\nno\\n" >&2',
      ],
      env: hubEnv,
      stable: 'durationMs',
    },
    {
      what: 'version',
      args: (output) => ['version', ...output],
      env: () => ({PATH: `${kubectlDir}${path.delimiter}${isolatedEnv.PATH}`}),
    },
  ]

  /** Each case's -o json and -o yaml, run once for both readers. */
  const outputs = new Map<
    string,
    Promise<{json: unknown; yaml: string; read: (reading: Reading) => Reading}>
  >()
  const outputOf = (what: string) => {
    const known = outputs.get(what)
    if (known) return known
    const {args, env, stable} = cases.find((entry) => entry.what === what)!
    const run = async () => {
      const ran = async (format: string) => {
        const result: RunResult = await cpcred(args(['-o', format]), env())
        assert.equal(result.code, 0, result.stderr)
        return result.stdout
      }
      // A field that differs from run to run is left out of both.
      const drop = (key: string, value: unknown) => (key === stable ? undefined : value)
      const yaml = await ran('yaml')
      const read = (reading: Reading) =>
        'value' in reading ? {value: JSON.parse(JSON.stringify(reading.value), drop) as unknown} : reading
      return {json: JSON.parse(await ran('json'), drop) as unknown, yaml, read}
    }
    const output = run()
    outputs.set(what, output)
    return output
  }

  for (const {what} of cases) {
    it(`${what} -o yaml: js-yaml's default load reads -o json`, async () => {
      const {json, yaml, read} = await outputOf(what)
      assert.deepEqual(read(readWithJsYaml(yaml)), {value: json}, yaml)
    })

    it(`${what} -o yaml: PyYAML's safe_load reads -o json`, {skip: pyyamlMissing}, async () => {
      const {json, yaml, read} = await outputOf(what)
      assert.deepEqual(read(readWithPyYaml([yaml])[0]!), {value: json}, yaml)
    })
  }

  it('the values are there to be misread: the test holds what it means to', async () => {
    const {json: listed} = await outputOf('list')
    const profile = (listed as {items: {spec: {displayName: string}; metadata: {name: string}}[]}).items.find(
      (item) => item.metadata.name === 'ambiguous',
    )
    assert.equal(profile?.spec.displayName, 'no')
    const {yaml} = await outputOf('describe')
    assert.match(yaml, /creationTimestamp: "\d{4}-\d\d-\d\dT/)
    const {json: records, yaml: execYaml} = await outputOf('exec')
    assert.deepEqual(
      (records as {stdout: string; stderr: string}[]).map(({stdout, stderr}) => [stdout, stderr]),
      [['on', '2026-01-01\nno\n']],
    )
    assert.match(execYaml, /stderr: \|\n {4}2026-01-01\n {4}no\n/, 'text of lines as a literal block')
    const {json: version} = await outputOf('version')
    assert.equal((version as {kubectl: {version: string}}).kubectl.version, '2026-01-01')
  })
})
