// cpcred get against the real hub and spoke, the spoke exposed as several profiles (and one profile
// whose cluster is down): the merged table is, row for row, what kubectl (the clusters' release, first
// on PATH) prints on each target, the CLUSTER column aside; -o json goes back through kubectl apply.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {chmod, readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import {
  applyProfile,
  cpcred,
  cpcredBin,
  createNamespace,
  isolatedEnv,
  repoRoot,
  runProgram,
  tempDir,
  testEnv,
  uniqueName,
} from '../helpers/env.js'
import {anotherSpokeProfile, spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {internalsProbe} from '../helpers/processes.js'
import {grantClusterRole, kubeCall, waitFor, type Connection} from '../testenv/http.js'

const ANNOTATION = 'multicluster.x-k8s.io/cluster-profile'
const PODS = ['web-10', 'web-2', 'web-1']

/** The rows of a kubectl table, each split into its cells (tabwriter pads with at least 3 spaces). */
function rowsOf(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trimEnd().split(/ {3,}/))
}

/** A row with its AGE cell (at `age`) made a placeholder: the servers print ages at different moments. */
function withoutAge(rows: string[][], age: number): string[][] {
  return rows.map((row) =>
    row.map((cell, index) => (index === age && /^\d+[smhdy]/.test(cell) ? '<age>' : cell)),
  )
}

describe('cpcred get', () => {
  let fixture: SpokeFixture
  let cacheHome: string
  let spokeNamespace: string
  let spoke: Connection
  let spokeKubeconfig: string
  let group: string
  const profiles: string[] = []
  let down: string
  let label: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'get'})
    cacheHome = await tempDir('cpcred-cache-')
    const {env, hub} = await testEnv()
    spoke = (await testEnv()).spoke
    spokeKubeconfig = env.spoke.kubeconfig
    // The spoke as three profiles, and a fourth whose cluster is not there.
    profiles.push(`${fixture.namespace}/target`)
    label = uniqueName('get')
    for (const name of ['target-b', 'target-c']) {
      await anotherSpokeProfile(fixture, name, {env: label})
      profiles.push(`${fixture.namespace}/${name}`)
    }
    // Down, in a namespace of its own: the docs' --all in the fixture's namespace finds only the spoke.
    const downNamespace = await createNamespace(hub, 'get-down')
    await applyProfile(hub, {
      metadata: {name: 'down', namespace: downNamespace},
      spec: {clusterManager: {name: 'test-manager'}},
      status: {accessProviders: [{name: 'fake', cluster: {server: 'https://127.0.0.1:9'}}]},
    })
    down = `${downNamespace}/down`
    // The docs' --placement web: two of the spoke's profiles.
    await kubeCall(
      hub,
      'POST',
      `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${fixture.namespace}/placementdecisions`,
      {
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'PlacementDecision',
        metadata: {name: 'web'},
        schedulerName: 'test-scheduler',
        decisions: ['target', 'target-b'].map((name) => ({clusterProfileRef: {name}, reason: 'fits'})),
      },
    )

    // What the plugin's identity may read on the spoke.
    const reader = uniqueName('get-reader')
    await grantClusterRole(spoke, reader, fixture.username, [
      {apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list']},
    ])

    // Pods (Pending: the spoke has no nodes) and a CRD with its own columns, one of them wide.
    spokeNamespace = await createNamespace(spoke, 'get-spoke')
    for (const name of PODS) {
      await kubeCall(spoke, 'POST', `/api/v1/namespaces/${spokeNamespace}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name, labels: {app: 'web', run: spokeNamespace}},
        spec: {containers: [{name: 'c', image: 'registry.invalid/none'}]},
      })
    }
    group = `${uniqueName('get')}.example.com`
    await kubeCall(spoke, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {name: `widgets.${group}`},
      spec: {
        group,
        scope: 'Namespaced',
        names: {
          plural: 'widgets',
          singular: 'widget',
          kind: 'Widget',
          shortNames: ['wdg'],
          categories: ['gettest'],
        },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {openAPIV3Schema: {type: 'object', 'x-kubernetes-preserve-unknown-fields': true}},
            additionalPrinterColumns: [
              {name: 'Colour', type: 'string', jsonPath: '.spec.colour'},
              {name: 'Size', type: 'integer', jsonPath: '.spec.size'},
              {name: 'Shape', type: 'string', jsonPath: '.spec.shape', priority: 1},
              {name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp'},
            ],
          },
        ],
      },
    })
    await waitFor('the Widget CRD to be served', 60_000, async () => {
      const found = await kubeCall<{resources?: {name: string}[]}>(spoke, 'GET', `/apis/${group}/v1`).catch(
        () => undefined,
      )
      return found?.resources?.some((resource) => resource.name === 'widgets') ? true : undefined
    })
    for (const [name, colour, size, shape] of [
      ['b', 'blue', 3, 'round'],
      ['a', 'red', 12, 'square'],
    ] as const) {
      await kubeCall(spoke, 'POST', `/apis/${group}/v1/namespaces/${spokeNamespace}/widgets`, {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: {name},
        spec: {colour, size, shape},
      })
    }
  })

  const get = (args: string[]) =>
    cpcred(['get', '--provider-file', fixture.providerFile, ...args], {
      KUBECONFIG: fixture.hubKubeconfig,
      XDG_CACHE_HOME: cacheHome,
    })
  const kubectl = (args: string[]) => runProgram('kubectl', ['--kubeconfig', spokeKubeconfig, ...args])

  /**
   * cpcred's table for `words` on the spoke's profiles, and kubectl's on the spoke: the header and
   * each target's rows, CLUSTER aside, are kubectl's (AGE at `age` in kubectl's row made a placeholder).
   */
  async function assertLikeKubectl(words: string[], age: number, targets = profiles.slice(0, 2)) {
    const oracle = await kubectl(['get', ...words])
    assert.equal(oracle.code, 0, oracle.stderr)
    const expected = withoutAge(rowsOf(oracle.stdout), age)
    const result = await get([...targets, '--', ...words])
    assert.equal(result.code, 0, result.stderr)
    const rows = withoutAge(rowsOf(result.stdout), age + 1)
    assert.deepEqual(rows[0], ['CLUSTER', ...expected[0]!], "one header: CLUSTER, then kubectl's")
    for (const target of targets) {
      const mine = rows.slice(1).filter((row) => row[0] === target)
      assert.deepEqual(
        mine.map((row) => row.slice(1)),
        expected.slice(1),
        `${target}'s rows are kubectl's`,
      )
    }
    assert.equal(rows.length, 1 + targets.length * (expected.length - 1))
    return result
  }

  it('prints, for pods, one table whose rows per target are what kubectl get prints there', async () => {
    await assertLikeKubectl(['pods', '-n', spokeNamespace], 4)
  })

  it('is kubectl for a cluster-scoped resource (namespaces), -l and --no-headers', async () => {
    await assertLikeKubectl(['namespaces', spokeNamespace, 'default'], 2)
    const result = await get([
      profiles[0]!,
      '--',
      'pods',
      '-n',
      spokeNamespace,
      '-l',
      'app=web',
      '--no-headers',
    ])
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(
      rowsOf(result.stdout).map((row) => row.slice(0, 2)),
      PODS.map((pod) => [profiles[0]!, pod]).sort((a, b) => a[1]!.localeCompare(b[1]!)),
    )
  })

  it("shows a CRD's own columns by its short name, its wide column only with -o wide", async () => {
    await assertLikeKubectl(['wdg', '-n', spokeNamespace], 3)
    await assertLikeKubectl(['widgets', '-n', spokeNamespace, '-o', 'wide'], 4)
    await assertLikeKubectl([`widgets.${group}`, '-n', spokeNamespace, '-o', 'wide'], 4)
  })

  it('adds NAMESPACE with -A, as kubectl', async () => {
    await assertLikeKubectl(['pods', '-A', '-l', `run=${spokeNamespace}`], 5)
  })

  it('sorts the rows of all targets together: a JSONPath as kubectl --sort-by, a column by its values', async () => {
    const byName = await get([
      ...profiles.slice(0, 2),
      '--',
      'pods',
      '-n',
      spokeNamespace,
      '--sort-by',
      '.metadata.name',
    ])
    assert.equal(byName.code, 0, byName.stderr)
    const oracle = await kubectl([
      'get',
      'pods',
      '-n',
      spokeNamespace,
      '--sort-by',
      '.metadata.name',
      '--no-headers',
    ])
    const order = rowsOf(oracle.stdout).map((row) => row[0])
    assert.deepEqual(order, ['web-1', 'web-10', 'web-2'], "kubectl's own order: text, not numbers")
    assert.deepEqual(
      rowsOf(byName.stdout)
        .slice(1)
        .map((row) => row[1]),
      order.flatMap((name) => [name, name]),
    )
    const bySize = await get([profiles[0]!, '--', 'widgets', '-n', spokeNamespace, '--sort-by', 'size'])
    assert.equal(bySize.code, 0, bySize.stderr)
    assert.deepEqual(
      rowsOf(bySize.stdout)
        .slice(1)
        .map((row) => row[1]),
      ['b', 'a'],
      '3 before 12',
    )
  })

  it('-o json is one List of annotated items that kubectl apply --dry-run=client takes', async () => {
    const result = await get([...profiles.slice(0, 2), '--', 'pods', '-n', spokeNamespace, '-o', 'json'])
    assert.equal(result.code, 0, result.stderr)
    const list = JSON.parse(result.stdout) as {
      kind: string
      items: {kind: string; metadata: {name: string; annotations: Record<string, string>}}[]
    }
    assert.equal(list.kind, 'List')
    assert.deepEqual(
      list.items
        .map((item) => `${item.metadata.annotations[ANNOTATION]} ${item.kind}/${item.metadata.name}`)
        .sort(),
      profiles
        .slice(0, 2)
        .flatMap((profile) => PODS.map((pod) => `${profile} Pod/${pod}`))
        .sort(),
    )
    const applied = spawnSync(
      'kubectl',
      ['--kubeconfig', spokeKubeconfig, 'apply', '--dry-run=client', '-f', '-'],
      {
        input: result.stdout,
        encoding: 'utf8',
      },
    )
    assert.equal(applied.status, 0, applied.stderr)
    assert.equal(applied.stdout.trim().split('\n').length, 2 * PODS.length, applied.stdout)
  })

  it('-o name and -o jsonl say which profile each object came from', async () => {
    const names = await get([profiles[0]!, '--', 'pods', '-n', spokeNamespace, '-o', 'name'])
    assert.equal(names.code, 0, names.stderr)
    assert.deepEqual(
      names.stdout.trim().split('\n').sort(),
      PODS.map((pod) => `${profiles[0]} pod/${pod}`).sort(),
    )
    const lines = await get([profiles[0]!, '--', 'widgets', '-n', spokeNamespace, '-o', 'jsonl'])
    assert.equal(lines.code, 0, lines.stderr)
    const objects = lines.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {kind: string; metadata: {annotations: Record<string, string>}})
    assert.deepEqual(
      objects.map((object) => [object.kind, object.metadata.annotations[ANNOTATION]]),
      [
        ['Widget', profiles[0]],
        ['Widget', profiles[0]],
      ],
    )
  })

  it('a target that is down is a row and exit 1; the others still print; the JUnit report has its case', async () => {
    const report = path.join(await tempDir('cpcred-get-report-'), 'get.xml')
    const result = await get([
      profiles[0]!,
      down,
      profiles[1]!,
      '--report',
      `junit=${report}`,
      '--',
      'pods',
      '-n',
      spokeNamespace,
    ])
    assert.equal(result.code, 1, result.stderr)
    const rows = rowsOf(result.stdout)
    assert.equal(rows.filter((row) => row[0] === profiles[0]).length, PODS.length)
    assert.equal(rows.filter((row) => row[0] === profiles[1]).length, PODS.length)
    const failed = rows.at(-1)!
    assert.equal(failed[0], down)
    assert.match(failed[1]!, /^<error: cannot reach the target: .*>$/)
    const junit = spawnSync('cat', [report], {encoding: 'utf8'}).stdout
    assert.match(junit, new RegExp(`name="down"[^>]*>\\s*<error`))
    // With -o json the failure is in the List's status.
    const json = await get([profiles[0]!, down, '--', 'pods', '-n', spokeNamespace, '-o', 'json'])
    assert.equal(json.code, 1)
    const list = JSON.parse(json.stdout) as {
      items: unknown[]
      status: {failures: {cluster: string; exitCode: number}[]}
    }
    assert.equal(list.items.length, PODS.length)
    assert.deepEqual(
      list.status.failures.map((failure) => [failure.cluster, failure.exitCode]),
      [[down, 3]],
    )
  })

  it('a resource one target lacks is that row; a word no target knows says so', async () => {
    const result = await get([profiles[0]!, '--', 'gadgets'])
    assert.equal(result.code, 1)
    assert.deepEqual(rowsOf(result.stdout), [
      [profiles[0], '<error: the server doesn\'t have a resource type "gadgets">'],
    ])
  })

  it('one profile named by itself is read from the hub again only after --profile-max-age; no undici is loaded', async () => {
    const {env} = await testEnv()
    assert.ok(env.hub.auditLog, 'the test hub keeps an audit log')
    const profilePath = `/namespaces/${fixture.namespace}/clusterprofiles/target`
    const reads = async () =>
      (await readFile(env.hub.auditLog!, 'utf8'))
        .split('\n')
        .filter((line) => line.includes(profilePath) && line.includes('"ResponseComplete"')).length
    const probe = await internalsProbe(await tempDir('cpcred-get-probe-'), 'undici')
    const run = (maxAge: string) =>
      cpcred(
        [
          'get',
          profiles[0]!,
          '--provider-file',
          fixture.providerFile,
          '--profile-max-age',
          maxAge,
          '--',
          'pods',
          '-n',
          spokeNamespace,
        ],
        {KUBECONFIG: fixture.hubKubeconfig, XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: probe.nodeOptions},
      )
    const first = await run('1h')
    assert.equal(first.code, 0, first.stderr)
    const afterFirst = await reads()
    const second = await run('1h')
    assert.equal(second.code, 0, second.stderr)
    const names = (stdout: string) => rowsOf(stdout).map((row) => row[1])
    assert.deepEqual(names(second.stdout), names(first.stdout))
    assert.equal(await reads(), afterFirst, 'the second get used the copy the first read')
    // Node 22 and later load undici only for fetch and WebSocket: cpcred's requests use neither.
    assert.equal(await probe.last(), '', 'what the get loaded of undici')
    const third = await run('0s')
    assert.equal(third.code, 0, third.stderr)
    assert.ok((await reads()) > afterFirst, '--profile-max-age 0s reads the profile again')
  })

  it('keeps discovery per server: the spoke has one entry, however many profiles name it', async () => {
    const entries = await readdir(path.join(cacheHome, 'cpcred', 'discovery'))
    assert.equal(entries.length, 1, entries.join(' '))
  })

  it('runs the examples of docs/get.md as written', async () => {
    const doc = await readFile(path.join(repoRoot, 'docs', 'get.md'), 'utf8')
    const blocks = [...doc.matchAll(/^ *```sh\n([\s\S]*?)^ *```/gm)].map((match) => match[1]!)
    const lines = blocks
      .flatMap((block) => block.replace(/\|\n\s*/g, '| ').split('\n'))
      .map((line) => line.trim())
      .filter((line) => line.startsWith('cpcred '))
    assert.ok(lines.length >= 6, lines.join('\n'))
    const binDir = await tempDir('cpcred-bin-')
    await writeFile(
      path.join(binDir, 'cpcred'),
      `#!/bin/sh\nexec "${process.execPath}" "${cpcredBin}" "$@"\n`,
    )
    await chmod(path.join(binDir, 'cpcred'), 0o755)
    for (const line of lines) {
      const command = line
        .replaceAll('fleet-prod/eu-west-1', profiles[0]!)
        .replaceAll('fleet-prod/us-east-1', profiles[1]!)
        .replaceAll('-n fleet-prod', `-n ${fixture.namespace}`)
        .replaceAll('--all', `--all -n ${fixture.namespace}`)
        .replaceAll('env=prod', `env=${label}`)
        .replaceAll('-n kube-system', `-n ${spokeNamespace}`)
        .replaceAll('-n web', `-n ${spokeNamespace}`)
      const result = await runProgram('bash', ['-c', `set -eo pipefail\n${command}`], {
        env: {
          ...isolatedEnv,
          PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
          // cpcred's hub apart from kubectl's cluster, as the README says they are kept.
          CPCRED_HUB_KUBECONFIG: fixture.hubKubeconfig,
          KUBECONFIG: spokeKubeconfig,
          CPCRED_PROVIDER_FILE: fixture.providerFile,
          XDG_CACHE_HOME: cacheHome,
        },
      })
      assert.equal(result.code, 0, `${command}\n${result.stderr}`)
    }
  })

  it('refuses kubectl get words without -- (exit 2), showing the form', async () => {
    const result = await get([profiles[0]!, 'pods'])
    assert.equal(result.code, 2)
    assert.match(result.stderr, /kubectl get's words go after --/)
    assert.match(result.stderr, /cpcred get \[PROFILE\.\.\.\] -- TYPE/)
  })
})
