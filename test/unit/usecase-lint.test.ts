// lintCommand with fakes at its ports: what it reads from the hub for a selection, which reports it
// writes and when, and its exit code.
import assert from 'node:assert/strict'
import path from 'node:path'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {lintCommand, type LintInput, type LintPorts} from '../../src/usecases/lint.js'
import type {ListOptions} from '../../src/usecases/ports.js'
import {cleanProfile} from '../helpers/lint-fixtures.js'

function fakes(
  profiles: ClusterProfile[],
  options: {clustersets?: Record<string, string>; refuseDir?: string; refuseWrite?: string} = {},
) {
  const asked: {pages: ListOptions[]; gets: string[]; clustersets: string[]} = {
    pages: [],
    gets: [],
    clustersets: [],
  }
  const written = new Map<string, string>()
  const directories: string[] = []
  const errors: string[] = []
  let clock = Date.parse('2030-01-01T00:00:00Z')
  const ports: LintPorts = {
    hub: {
      async getProfile(namespace, name) {
        asked.gets.push(`${namespace}/${name}`)
        return profiles.find((p) => p.metadata.namespace === namespace && p.metadata.name === name)
      },
      async listProfilePage(options) {
        asked.pages.push(options)
        return {
          items: profiles.filter(
            (p) => options.namespace === undefined || p.metadata.namespace === options.namespace,
          ),
        }
      },
      listNamespaceLabels: async () => new Map(),
      async clustersetOf(namespace) {
        asked.clustersets.push(namespace)
        if (namespace === 'forbidden') throw new CpcredError('namespaces "forbidden" is forbidden')
        const set = options.clustersets?.[namespace]
        return set === undefined ? undefined : {clusterset: set, label: 'multicluster.x-k8s.io/clusterset'}
      },
    },
    reports: {
      makeDirectory(dir) {
        if (dir === options.refuseDir) throw new CpcredError(`${dir} is a file`)
        directories.push(dir)
      },
      async writeReport(file, content) {
        if (file === options.refuseWrite)
          throw Object.assign(new Error('EACCES: permission denied'), {code: 'EACCES'})
        written.set(file, content)
      },
    },
    error: (message, hint) => errors.push(`${message} / ${hint}`),
    now: () => new Date((clock += 250)),
  }
  return {ports, asked, written, directories, errors}
}

const input = (overrides: Partial<LintInput> = {}): LintInput => ({
  refs: [],
  namespace: 'fleet',
  allNamespaces: false,
  failOn: 'error',
  reports: [],
  ...overrides,
})

function broken(name: string, namespace = 'fleet'): ClusterProfile {
  const profile = cleanProfile(name, namespace)
  profile.status!.accessProviders![0]!.cluster!.server = 'api.example.com:6443'
  return profile
}

describe('lintCommand', () => {
  it('a report directory that cannot be made fails before the hub is read', async () => {
    const {ports, asked} = fakes([cleanProfile()], {refuseDir: path.resolve('in-the-way')})
    await assert.rejects(
      lintCommand(ports, input({reports: [{kind: 'junit', file: path.resolve('in-the-way/lint.xml')}]})),
      /in-the-way is a file/,
    )
    assert.deepEqual(asked.pages, [])
    assert.deepEqual(asked.gets, [])
  })

  it('a report that cannot be written is said and fails the run, the other reports are still written', async () => {
    const bad = path.resolve('bad.xml')
    const good = path.resolve('good.json')
    const {ports, errors, written} = fakes([cleanProfile()], {refuseWrite: bad})
    const outcome = await lintCommand(
      ports,
      input({
        reports: [
          {kind: 'junit', file: bad},
          {kind: 'json', file: good},
        ],
      }),
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.deepEqual(errors, [
      `could not write the junit report ${bad}: EACCES: permission denied / check the path given to --report`,
    ])
    assert.deepEqual(JSON.parse(written.get(good)!).counts, {error: 0, 'will-break': 0, warning: 0})
  })

  it('a named profile that does not exist is the finder’s error', async () => {
    const {ports} = fakes([cleanProfile()])
    await assert.rejects(
      lintCommand(ports, input({refs: [{name: 'nope'}]})),
      /ClusterProfile "nope" not found in namespace "fleet"/,
    )
  })

  it('without names or -l: the whole namespace; exit 1 on an error at --fail-on error', async () => {
    const {ports, asked} = fakes([cleanProfile('a'), broken('b'), broken('c', 'other')])
    const outcome = await lintCommand(ports, input())
    assert.deepEqual(
      asked.pages.map((page) => page.namespace),
      ['fleet'],
    )
    assert.deepEqual(outcome.report.counts, {error: 1, 'will-break': 0, warning: 0})
    assert.deepEqual(
      outcome.report.inventories.map((inventory) => inventory.namespace),
      ['fleet'],
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
  })

  it('-A: every namespace, one inventory each; a namespace that cannot be read is no label', async () => {
    const labelled = cleanProfile('a', 'legacy')
    labelled.status!.properties = []
    const {ports, asked} = fakes([labelled, cleanProfile('b', 'forbidden'), cleanProfile('c', 'fleet')], {
      clustersets: {legacy: 'prod'},
    })
    const outcome = await lintCommand(ports, input({allNamespaces: true, failOn: 'warning'}))
    assert.deepEqual(
      asked.pages.map((page) => page.namespace),
      [undefined],
    )
    assert.deepEqual(asked.clustersets.sort(), ['fleet', 'forbidden', 'legacy'])
    assert.deepEqual(
      outcome.report.inventories.map((inventory) => [inventory.namespace, inventory.counts.warning]),
      [
        ['fleet', 0],
        ['forbidden', 0],
        ['legacy', 1],
      ],
    )
    assert.equal(outcome.report.inventories[2]!.findings[0]!.rule, 'clusterset-namespace-label')
    assert.equal(outcome.exitCode, ExitCode.Failure)
  })

  it('names: only those profiles, found where they are named', async () => {
    const {ports, asked} = fakes([cleanProfile('a'), broken('b'), cleanProfile('c', 'other')])
    const outcome = await lintCommand(ports, input({refs: [{name: 'a'}, {namespace: 'other', name: 'c'}]}))
    assert.deepEqual(asked.gets, ['fleet/a', 'other/c'])
    assert.deepEqual(asked.pages, [])
    assert.equal(outcome.report.profiles, 2)
    assert.equal(outcome.exitCode, ExitCode.Success)
  })

  it('-l: the selector goes to the hub', async () => {
    const {ports, asked} = fakes([cleanProfile('a')])
    await lintCommand(ports, input({selector: 'env=prod'}))
    assert.equal(asked.pages[0]!.labelSelector, 'env=prod')
    assert.equal(asked.pages[0]!.namespace, 'fleet')
  })

  it('checks each page as it arrives, while the next is read; the report is the one-page report', async () => {
    // c's membership is only in its namespace's legacy label: a finding only with that label read.
    const unlisted = cleanProfile('c', 'west')
    delete unlisted.status!.properties
    const profiles = [cleanProfile('a', 'east'), broken('b', 'east'), unlisted, broken('d', 'west')]
    const clustersets = {west: 'prod'}
    const whole = await lintCommand(fakes(profiles, {clustersets}).ports, input({allNamespaces: true}))
    // The same profiles, a page each; what the hub is asked, in order.
    const paged = fakes(profiles, {clustersets})
    const events: string[] = []
    paged.ports.hub.listProfilePage = async (_options, next) => {
      const index = next === undefined ? 0 : Number(next)
      events.push(`page ${index}`)
      return {items: [profiles[index]!], next: index + 1 < profiles.length ? String(index + 1) : undefined}
    }
    const clustersetOf = paged.ports.hub.clustersetOf
    paged.ports.hub.clustersetOf = (namespace) => {
      events.push(`label ${namespace}`)
      return clustersetOf(namespace)
    }
    const outcome = await lintCommand(paged.ports, input({allNamespaces: true}))
    assert.deepEqual(outcome.report, whole.report)
    assert.deepEqual(
      outcome.report.inventories.map((inventory) => inventory.findings.map((f) => `${f.profile} ${f.rule}`)),
      [['b server-url'], ['c clusterset-namespace-label', 'd server-url']],
    )
    // Each page is checked as soon as it is read, while the next is on its way: page N's namespace
    // label (its checks need it) is asked for right after page N+1; each namespace's label once.
    assert.deepEqual(events, ['page 0', 'page 1', 'label east', 'page 2', 'page 3', 'label west'])
  })

  it('--fail-on: will-break findings pass at error and fail at will-break', async () => {
    const profile = cleanProfile('a')
    profile.status!.accessProviders![0]!.cluster!['certificate-authority'] = '/ca.pem'
    const atError = await lintCommand(fakes([profile]).ports, input())
    assert.equal(atError.exitCode, ExitCode.Success)
    const atWillBreak = await lintCommand(fakes([profile]).ports, input({failOn: 'will-break'}))
    assert.equal(atWillBreak.exitCode, ExitCode.Failure)
  })

  it('the JUnit report: a case per profile and rule, failing at --fail-on, the rest passing', async () => {
    const file = path.resolve('reports/lint.xml')
    const {ports, written, directories} = fakes([cleanProfile('a'), broken('b')])
    await lintCommand(ports, input({reports: [{kind: 'junit', file}]}))
    assert.deepEqual(directories, [path.resolve('reports')])
    const xml = written.get(file)!
    assert.match(
      xml,
      /<testsuite name="cpcred lint" tests="32" failures="1" errors="0" skipped="0" time="0.250"/,
    )
    assert.match(xml, /<testcase classname="fleet" name="a server-url" time="0.000"\/>/)
    assert.match(
      xml,
      /<testcase classname="fleet" name="b server-url" time="0.000">\n {6}<failure message="status.accessProviders\[0\].cluster.server: provider &quot;idp&quot;: &quot;api.example.com:6443&quot; has no host&#10;publish the API server/,
    )
  })
})
