// Names that are not Kubernetes names never reach a request path. A PlacementDecision may reference
// "../x" or a namespace "../../w3-esc" (the hub accepts both), a user may type them, a kubeconfig
// may carry them: each is refused before any request, as a per-target error (exit 1) when it came
// from the hub and as a usage error (exit 2) when it was typed. What the hub received is read from
// its audit log, not inferred from cpcred's message.
import assert from 'node:assert/strict'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {kubeCall, type Connection} from '../testenv/http.js'
import {cpcred, tempDir, testEnv, type RunResult} from '../helpers/env.js'
import {spokeFixture, type SpokeFixture} from '../helpers/fixtures.js'
import {RAW_CONTROL} from '../helpers/controls.js'
import {hubConsumer} from '../helpers/hub-consumer.js'

/** The references the issue names, each as the hub stores it in a PlacementDecision. */
const HOSTILE: {name: string; namespace?: string}[] = [
  {name: '../x'},
  {namespace: '../../w3-esc', name: 'p2'},
  {name: '.'},
  {name: '..'},
  {name: 'a/b'},
  {name: '%2F'},
  {name: 'UPPER'},
  {name: 'a'.repeat(300)},
  {name: 'evil\u001b[2J\u0007'},
]

interface AuditEvent {
  user?: {username?: string}
  requestURI?: string
  verb?: string
}

interface Summary {
  profile: string
  outcome: string
  exitCode: number
  error?: string
}

describe('names from the hub and the user are checked before any request', () => {
  let fixture: SpokeFixture
  let hub: Connection
  let auditLog: string
  let kubeconfig: string
  let username: string
  let cacheHome: string

  before(async () => {
    fixture = await spokeFixture({prefix: 'hostile'})
    const started = await testEnv()
    hub = started.hub
    assert.ok(started.env.hub.auditLog, 'the test hub keeps an audit log')
    auditLog = started.env.hub.auditLog
    cacheHome = await tempDir('cpcred-hostile-cache-')
    const {namespace} = fixture
    await kubeCall(
      hub,
      'POST',
      `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/placementdecisions`,
      {
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'PlacementDecision',
        metadata: {name: 'hostile'},
        decisions: [...HOSTILE, {name: fixture.profile.metadata.name!}].map((ref) => ({
          clusterProfileRef: ref,
        })),
      },
    )
    // A reader of its own, so that its requests are the only ones the audit log names it for.
    const reader = await hubConsumer(
      hub,
      namespace,
      'hostile-reader',
      [
        {
          apiGroups: ['multicluster.x-k8s.io'],
          resources: ['clusterprofiles', 'placementdecisions'],
          verbs: ['get', 'list', 'watch'],
        },
      ],
      namespace,
      {verb: 'get', group: 'multicluster.x-k8s.io', resource: 'placementdecisions', name: 'hostile'},
    )
    kubeconfig = reader.kubeconfig
    username = `system:serviceaccount:${namespace}:hostile-reader`
  })

  /** Every request URI the hub logged for the reader since `from` lines. */
  async function requestsSince(from: number): Promise<string[]> {
    const lines = (await readFile(auditLog, 'utf8')).split('\n').slice(from)
    return lines.flatMap((line) => {
      if (!line.trim()) return []
      const event = JSON.parse(line) as AuditEvent
      return event.user?.username === username && event.requestURI ? [event.requestURI] : []
    })
  }

  const auditLines = async () => (await readFile(auditLog, 'utf8')).split('\n').length - 1

  /** Runs cpcred as the reader; returns what it did and the paths the hub was asked for meanwhile. */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult & {paths: string[]}> {
    const from = await auditLines()
    const result = await cpcred([args[0]!, '--provider-file', fixture.providerFile, ...args.slice(1)], {
      KUBECONFIG: kubeconfig,
      XDG_CACHE_HOME: cacheHome,
      ...env,
    })
    return {...result, paths: await requestsSince(from)}
  }

  /** No path with anything but the fixture's namespace and checked names in it. */
  function assertOnlyCheckedPaths(paths: string[]) {
    for (const uri of paths) {
      const pathname = uri.split('?')[0]!
      assert.doesNotMatch(
        pathname,
        /\/\.\.?(\/|$)|%|[A-Z]|\\u|w3-esc|\/x$|\/a\/b$|aaaaaaaa|evil/,
        `requested ${uri}`,
      )
      const namespaced = /\/namespaces\/([^/]+)\//.exec(pathname)
      if (namespaced) assert.equal(namespaced[1], fixture.namespace, `requested ${uri}`)
    }
  }

  const good = () => `${fixture.namespace}/${fixture.profile.metadata.name}`

  it('exec --placement: each hostile reference is a per-target error naming it and the rule, and is never requested', async () => {
    const result = await run(['exec', '--placement', 'hostile', '-o', 'json', '--', 'true'])
    assert.equal(result.code, 1, result.stderr)
    const summary = JSON.parse(result.stdout) as Summary[]
    assert.equal(summary.length, HOSTILE.length + 1)
    const errors = summary.filter((entry) => entry.outcome === 'error')
    assert.equal(errors.length, HOSTILE.length)
    for (const entry of errors) {
      assert.equal(entry.exitCode, 1)
      assert.match(
        entry.error!,
        /references ClusterProfile ".*": a (name|namespace) must be a DNS-1123 (label|subdomain)/,
      )
      assert.match(entry.error!, /no request was made for it/)
    }
    assert.deepEqual(
      summary.filter((entry) => entry.outcome === 'passed').map((entry) => entry.profile),
      [good()],
    )
    assert.doesNotMatch(result.stderr, /does not serve/, 'no false "API not served" for a bad name')
    assertOnlyCheckedPaths(result.paths)
    const profileGets = result.paths.filter((uri) => /\/clusterprofiles\/[^?]/.test(uri))
    assert.deepEqual(
      profileGets.map((uri) => uri.split('/').pop()),
      [fixture.profile.metadata.name],
      'the one valid reference is the only profile asked for',
    )
  })

  it('list, kubeconfig, sync and doctor --placement refuse the same references without asking for them', async () => {
    const out = await tempDir('cpcred-hostile-out-')
    const commands = [
      ['list', '--placement', 'hostile', '-o', 'name'],
      ['kubeconfig', '--placement', 'hostile', '--output-file', path.join(out, 'k')],
      ['sync', '--placement', 'hostile', '--output-file', path.join(out, 'synced')],
      ['doctor', '--placement', 'hostile'],
    ]
    for (const command of commands) {
      const result = await run(command)
      assert.notEqual(result.code, 0, `${command[0]}: ${result.stderr}`)
      assert.notEqual(result.code, 3, `${command[0]}: a bad name is not an unreachable hub`)
      // doctor reports on stdout, the others on stderr.
      const said = result.stderr + result.stdout
      assert.match(said, /a (name|namespace) must be a DNS-1123/, `${command[0]}: ${said}`)
      assert.doesNotMatch(said, RAW_CONTROL, `${command[0]}: control characters made visible`)
      assertOnlyCheckedPaths(result.paths)
    }
  })

  it('a typed reference that is not a name is a usage error, and the hub is not asked anything about it', async () => {
    const typed = [
      ['exec', '../x', '--', 'true'],
      ['exec', `${fixture.namespace}/..`, '--', 'true'],
      ['exec', '../../w3-esc/p2', '--', 'true'],
      ['describe', 'clusterprofile/..'],
      ['describe', `${fixture.namespace}/%2F`],
      ['kubeconfig', 'UPPER'],
      ['doctor', 'a.b/target'],
      ['credential', '.'],
      ['exec', '-n', '..', 'target', '--', 'true'],
      ['list', '-n', '../w3-esc'],
      ['list', '--placement', '../x'],
    ]
    for (const args of typed) {
      const result = await run(args)
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`)
      assert.match(result.stderr, /DNS-1123|NAME or NAMESPACE\/NAME/, `${args.join(' ')}: ${result.stderr}`)
      assertOnlyCheckedPaths(result.paths)
      assert.deepEqual(
        result.paths.filter((uri) => uri.includes('/namespaces/')),
        [],
        `${args.join(' ')} asked for ${result.paths.join(', ')}`,
      )
    }
  })

  it('a kubeconfig context whose namespace is not a namespace is refused before any request, as clientcmd refuses it', async () => {
    const config = YAML.parse(await readFile(kubeconfig, 'utf8'))
    config.contexts[0].context.namespace = '../../w3-esc'
    const bad = path.join(fixture.dir, 'bad-namespace.kubeconfig')
    await writeFile(bad, YAML.stringify(config), {mode: 0o600})
    const result = await run(['list'], {KUBECONFIG: bad})
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /the namespace of context "hub" "\.\.\/\.\.\/w3-esc" is not a namespace name/)
    assert.deepEqual(result.paths, [])
  })
})
