// The kubeconfig emitter against kubectl as the oracle: hostile names and values merged into a
// kubeconfig that kubectl itself wrote must load in kubectl with exactly the intended values, and
// every entry that was there before must survive unchanged.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {
  emitKubeconfig,
  emitKubeconfigAtOnce,
  emitKubeconfigJson,
  parseKubeconfig,
  sealKubeconfig,
} from '../../src/core/kubeconfig/text.js'
import type {KubeconfigDocument} from '../../src/core/kubeconfig/document.js'
import {mergeIntoKubeconfig} from '../../src/core/kubeconfig/merge.js'

/** Strings YAML 1.1, YAML 1.2 or Go's yaml read as something else, or that break a plain scalar. */
const AMBIGUOUS = [
  ...['no', 'No', 'NO', 'on', 'On', 'off', 'OFF', 'y', 'Y', 'n', 'N', 'yes', 'YES', 'true', 'False'],
  ...['~', 'null', 'Null', 'NULL', '', '<<', '='],
  ...['0x1F', '012', '0o17', '0b101', '1e3', '1_000', '+1', '-1.5', '.5', '1.', '0x1p3', '1:20', '190:20:30'],
  ...['.inf', '-.Inf', '.NaN', '+Inf', 'NaN', 'Infinity'],
  ...['2026-01-01', '2026-01-01T10:00:00Z', '2001-12-14 21:59:43.10 -5'],
]
const ODD = [
  ...[
    '*alias',
    '&anchor',
    '!tag',
    '%directive',
    '@at',
    '`tick',
    '|',
    '>',
    '?',
    '-',
    '- item',
    '[a]',
    '{a: b}',
  ],
  ...['a: b', 'a #b', '#comment', "'single", '"double', ' leading', 'trailing ', 'ünïcødé ☸', '名前', '🚀'],
  ...[
    'line\nbreak',
    'trailing\n',
    '\n',
    'tab\there',
    'cr\rhere',
    'del\u007fhere',
    'c1\u0085\u0090',
    'bom\ufeff',
  ],
  ...['bidi\u202eevil', 'nul\u0000x', 'esc\u001b[31mred', 'x'.repeat(5000)],
]
const HOSTILE = [...AMBIGUOUS, ...ODD]

function kubectlView(file: string, home: string): {status: number | null; stdout: string; stderr: string} {
  const result = spawnSync('kubectl', ['config', 'view', '--raw', '-o', 'json', '--kubeconfig', file], {
    encoding: 'utf8',
    env: {...process.env, HOME: home, KUBECONFIG: ''},
  })
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

/** The entries of a kubeconfig with these names, as kubectl's JSON holds them. */
function existingDocument(names: string[]): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: names.map((name, index) => ({
      name: `old ${name}`,
      cluster: {server: `https://old-${index}.example:6443`, 'tls-server-name': name},
    })),
    users: names.map((name) => ({name: `old ${name}`, user: {token: name === '' ? 'empty' : name}})),
    contexts: names.map((name) => ({
      name: `old ${name}`,
      context: {cluster: `old ${name}`, user: `old ${name}`, namespace: name === '' ? undefined : name},
    })),
    'current-context': `old ${names[0]}`,
    preferences: {},
  }
}

/** Generated entries whose names and values are all hostile, as a merge would add them. */
function generatedDocument(names: string[]): KubeconfigDocument {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: names.map((name, index) => ({
      name,
      cluster: {
        server: `https://new-${index}.example:6443`,
        'tls-server-name': name,
        extensions: [{name: 'client.authentication.k8s.io/exec', extension: {[name]: name, list: [name]}}],
      },
    })),
    users: names.map((name) => ({
      name,
      user: {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: '/usr/local/bin/plugin',
          args: [name],
          env: [{name: 'VALUE', value: name}],
          provideClusterInfo: true,
          interactiveMode: 'Never',
        },
      },
    })),
    contexts: names.map((name) => ({name, context: {cluster: name, user: name, namespace: name}})),
    'current-context': names[0]!,
    preferences: {},
  } as unknown as KubeconfigDocument
}

const kubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'})

describe(
  'kubeconfig text: kubectl loads what cpcred writes',
  {skip: kubectl.status !== 0 && 'kubectl is not installed'},
  () => {
    let dir: string
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'cpcred-kubeconfig-text-'))
    })
    after(() => rmSync(dir, {recursive: true, force: true}))

    /** The kubectl-written YAML for a document given as JSON (exact), and kubectl's reading of it. */
    function kubectlWritten(document: unknown, name: string): {yaml: string; json: Record<string, unknown>} {
      const input = path.join(dir, `${name}.json`)
      writeFileSync(input, JSON.stringify(document))
      const yaml = spawnSync('kubectl', ['config', 'view', '--raw', '--kubeconfig', input], {
        encoding: 'utf8',
        env: {...process.env, HOME: dir, KUBECONFIG: ''},
      })
      assert.equal(yaml.status, 0, yaml.stderr)
      const yamlFile = path.join(dir, `${name}.yaml`)
      writeFileSync(yamlFile, yaml.stdout)
      const viewed = kubectlView(yamlFile, dir)
      assert.equal(viewed.status, 0, viewed.stderr)
      return {yaml: yaml.stdout, json: JSON.parse(viewed.stdout) as Record<string, unknown>}
    }

    // kubectl writes some characters raw that it then cannot read back (NUL, DEL, C1 controls, BOM):
    // a user's working file cannot hold those, so the existing entries leave them out.
    // eslint-disable-next-line no-control-regex
    const kubectlAccepts = (value: string) => !/[\u0000\u007f-\u009f\ufeff]/.test(value)

    it('keeps every existing entry of a kubectl-written file exactly, and adds hostile entries kubectl reads back', async () => {
      const before = kubectlWritten(existingDocument(HOSTILE.filter(kubectlAccepts)), 'existing')
      const existing = await parseKubeconfig(before.yaml, 'existing.yaml')
      const generated = generatedDocument(HOSTILE)
      const merged = mergeIntoKubeconfig(existing, generated, {
        overwrite: false,
        setCurrent: true,
        source: 'x',
      })
      const file = path.join(dir, 'merged.yaml')
      writeFileSync(file, await emitKubeconfig(merged.document))

      const viewed = kubectlView(file, dir)
      assert.equal(viewed.status, 0, `kubectl cannot load the merged file: ${viewed.stderr}`)
      const after = JSON.parse(viewed.stdout) as Record<string, {name: string}[]>
      for (const kind of ['clusters', 'users', 'contexts'] as const) {
        const byName = new Map(after[kind]!.map((entry) => [entry.name, entry]))
        for (const entry of before.json[kind] as {name: string}[]) {
          assert.deepEqual(
            byName.get(entry.name),
            entry,
            `existing ${kind} entry ${JSON.stringify(entry.name)}`,
          )
        }
        for (const entry of generated[kind] as {name: string}[]) {
          const read = byName.get(entry.name)
          assert.ok(read, `new ${kind} entry ${JSON.stringify(entry.name)} is missing`)
          assert.deepEqual(
            JSON.parse(JSON.stringify(read)),
            withoutEmpty(entry),
            `new ${kind} entry ${JSON.stringify(entry.name)}`,
          )
        }
      }
      assert.equal(after['current-context'] as unknown, HOSTILE[0])
    })

    for (const value of HOSTILE) {
      it(`writes ${JSON.stringify(value).slice(0, 40)} so that kubectl reads exactly that string`, async () => {
        const file = path.join(dir, 'one.yaml')
        const document = generatedDocument([value])
        writeFileSync(file, await emitKubeconfig(document))
        const viewed = kubectlView(file, dir)
        assert.equal(viewed.status, 0, viewed.stderr)
        const read = JSON.parse(viewed.stdout) as {contexts: {name: string; context: {namespace?: string}}[]}
        assert.equal(read.contexts[0]!.name, value)
        if (value !== '') assert.equal(read.contexts[0]!.context.namespace, value)

        // exec's private files have fixed keys (Go's yaml reads no key longer than 1024 characters
        // in JSON's flow style), so the JSON form gets the hostile values without the extension.
        const jsonFile = path.join(dir, 'one.json')
        delete document.clusters[0]!.cluster.extensions
        writeFileSync(jsonFile, emitKubeconfigJson(document))
        const viewedJson = kubectlView(jsonFile, dir)
        assert.equal(viewedJson.status, 0, viewedJson.stderr)
        const readJson = JSON.parse(viewedJson.stdout) as typeof read
        assert.deepEqual(readJson.contexts, read.contexts, 'the JSON form reads the same')
      })
    }
  },
)

describe('parseKubeconfig', () => {
  it('reads scalars as Go does, dates as strings, and names a broken file', async () => {
    const document = (await parseKubeconfig('a: yes\nb: "no"\nc: 012\nd: 2026-01-01\n', 'f')) as Record<
      string,
      unknown
    >
    assert.deepEqual(document, {a: true, b: 'no', c: 10, d: '2026-01-01'})
    await assert.rejects(parseKubeconfig('a: [', '/x/config'), /^UsageError: \/x\/config is not valid YAML/)
  })

  it('reads back exactly what cpcred wrote, hostile values included, and a file written otherwise as Go does', async () => {
    for (const document of [existingDocument(HOSTILE), generatedDocument(HOSTILE)]) {
      const text = await emitKubeconfig(document)
      assert.deepEqual(await parseKubeconfig(text, 'f'), JSON.parse(JSON.stringify(document)))
      // The same document read otherwise: one byte more, and the text is no longer cpcred's as written.
      assert.deepEqual(await parseKubeconfig(`${text}\n`, 'f'), JSON.parse(JSON.stringify(document)))
    }
    const almost = await emitKubeconfig({a: 'yes', b: '012'})
    assert.deepEqual(await parseKubeconfig(almost.replace(/"/g, ''), 'f'), {a: true, b: 10})
  })
})

describe('emitKubeconfig', () => {
  it('writes the same bytes as the yaml package writes the whole document at once', async () => {
    const words = [
      ...HOSTILE,
      ...[
        '--flag',
        '-x',
        '/x',
        '_x',
        'a:b',
        'a=b',
        'x~',
        'a:',
        'e1',
        'E+5',
        'x@y',
        'a--',
        'Yes',
        'k'.repeat(1100),
      ],
    ]
    const values: unknown[] = [
      ...words,
      0,
      -1,
      1.5,
      -0,
      1e21,
      2 ** 60,
      true,
      null,
      undefined,
      [],
      {},
      [[1, [{}]]],
    ]
    const documents: unknown[] = [existingDocument(HOSTILE), generatedDocument(HOSTILE), {}, null, [1, 'no']]
    for (const value of values) {
      const key = typeof value === 'string' ? value : 'key'
      documents.push({
        apiVersion: 'v1',
        clusters: [{name: 'n1', cluster: {value, list: [value, [value], {value}], [key]: value}}],
        users: [value, [value], {[key]: {[key]: [value]}}],
        contexts: [],
        [key]: value,
      })
    }
    for (const document of documents) {
      const once = await emitKubeconfigAtOnce(document)
      assert.equal(await emitKubeconfig(document), once, JSON.stringify(document).slice(0, 200))
      assert.equal(await emitKubeconfig(document), once, 'the second time, from the entries kept')
    }
  })

  it('writes an entry it wrote before the same way, and one changed in place since anew', async () => {
    const document = generatedDocument(HOSTILE)
    const first = await emitKubeconfig(document)
    assert.equal(await emitKubeconfig(document), first)
    assert.equal(await emitKubeconfig(structuredClone(document)), first)
    document.clusters[1]!.cluster.server = 'https://moved.example:6443'
    const moved = (await parseKubeconfig(await emitKubeconfig(document), 'f')) as KubeconfigDocument
    assert.equal(moved.clusters[1]!.cluster.server, 'https://moved.example:6443')
  })

  it('writes a sealed entry from the text it kept, without reading the entry again', async () => {
    const document = generatedDocument(HOSTILE)
    const cluster = document.clusters[0]!.cluster
    const server = cluster.server
    let reads = 0
    Object.defineProperty(cluster, 'server', {enumerable: true, get: () => (reads++, server)})
    const first = await emitKubeconfig(sealKubeconfig(document))
    const readsForFirst = reads
    assert.ok(readsForFirst > 0)
    assert.equal(await emitKubeconfig(document), first)
    assert.equal(reads, readsForFirst, 'the second write read the sealed entry again')
    // Kept text could go stale only if the entry could change: it cannot.
    assert.throws(() => Object.assign(document.contexts[0]!.context, {namespace: 'x'}), TypeError)
    assert.equal(await emitKubeconfig(document), first)
  })
})

/** kubectl omits the empty tls-server-name and namespace (omitempty in client-go's v1 types). */
function withoutEmpty(entry: unknown): unknown {
  const omitted = new Set(['tls-server-name', 'namespace'])
  return JSON.parse(
    JSON.stringify(entry, (key, value: unknown) => (omitted.has(key) && value === '' ? undefined : value)),
  )
}
