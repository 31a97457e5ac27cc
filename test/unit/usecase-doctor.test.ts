// doctorCommand with hand-written fakes at its edges (the hub, the targets, the probes, the provider
// file, the plugin process): which link breaks, what it says, and what is not checked after it.
import {parseAccessQuestion} from '../../src/core/doctor/target-access.js'
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {EXEC_API_V1} from '../../src/core/access/exec-config.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import type {CheckResult} from '../../src/core/doctor/checks.js'
import type {ServerProbe} from '../../src/core/doctor/server-tls.js'
import {doctorExitCode, type DoctorReport} from '../../src/core/doctor/report.js'
import {UsageError} from '../../src/core/errors.js'
import {explainFailure, INSTALL_CRD_HINT} from '../../src/core/failures.js'
import {MEMBER_ID_LABEL, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {doctorCommand, type DoctorPorts, type DoctorInput} from '../../src/usecases/doctor.js'
import type {HubConfig, HubPort, ProfileApiDiscovery} from '../../src/usecases/ports.js'

const NOW = new Date('2026-06-01T12:00:00Z')
const HUB_SERVER = 'http://127.0.0.1:6443'
const TARGET = 'http://spoke.example:6443'

const config: HubConfig = {
  merged: {
    clusters: [{name: 'hub', cluster: {server: HUB_SERVER}}],
    users: [{name: 'me', user: {exec: {command: 'kubelogin'}}}],
    contexts: [{name: 'ctx', context: {cluster: 'hub', user: 'me'}}],
    'current-context': 'ctx',
    contextSources: {},
  },
  files: ['/home/me/.kube/config'],
  context: 'ctx',
  server: HUB_SERVER,
  user: 'me',
  namespace: 'fleet',
}

const provider: Provider = {
  name: 'token',
  execConfig: {apiVersion: EXEC_API_V1, command: '/usr/bin/token-plugin'},
}

const profile: ClusterProfile = {
  metadata: {name: 'eu', namespace: 'fleet'},
  spec: {clusterManager: {name: 'ocm'}},
  status: {accessProviders: [{name: 'token', cluster: {server: TARGET}}]},
}

const SERVED: ProfileApiDiscovery = {
  group: {versions: [{version: 'v1alpha1'}], preferredVersion: {version: 'v1alpha1'}},
  version: 'v1alpha1',
  resources: {
    resources: [
      {name: 'clusterprofiles', namespaced: true},
      {name: 'clusterprofiles/status', namespaced: true},
    ],
  },
}

/** An answer over plain http with a Date header: no TLS to judge, a clock to compare. */
const plainHttp: ServerProbe = {
  http: {status: 200, date: NOW.toUTCString(), sentAt: NOW, receivedAt: NOW},
}

const http = (status: number, where = 'the hub') =>
  explainFailure({kind: 'http', status}, 'do it', where, {
    notServed: {what: 'it', hint: 'not served'},
  })

/** A hub that answers as told; `calls` records which typed calls were made. */
function fakeHub(overrides: Partial<HubPort> = {}): HubPort & {calls: string[]} {
  const calls: string[] = []
  const record =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    (...args: A) => {
      calls.push(name)
      return fn(...args)
    }
  const hub: HubPort = {
    config,
    endpoint: {server: HUB_SERVER},
    identity: () => 'hub-identity',
    pin: () => ({kubeconfigPaths: config.files, context: 'ctx', currentContext: 'ctx'}),
    describe: () => `the hub (context "ctx", ${HUB_SERVER})`,
    apiVersion: async () => 'v1alpha1',
    profileApi: async () => SERVED,
    reviewProfileAccess: async (verb) => ({verb, allowed: true}),
    reviewTokenAccess: async () => ({verb: 'create', allowed: true}),
    reviewSelf: async () => ({username: 'alice', groups: ['dev']}),
    getSecret: async () => assert.fail('doctor reads no Secret'),
    requestToken: async () => assert.fail('doctor requests no token'),
    listProfilePage: async () => ({items: [profile]}),
    watchProfiles: async () => assert.fail('doctor watches nothing'),
    getProfile: async (namespace, name) => (namespace === 'fleet' && name === 'eu' ? profile : undefined),
    listNamespaceLabels: async () => new Map(),
    clustersetOf: async () => assert.fail('doctor reads no clusterset'),
    getPlacementDecision: async () => undefined,
    listPlacementDecisions: async () => ({items: []}),
    watchPlacementDecisions: async () => assert.fail('doctor watches nothing'),
    close: async () => undefined,
    ...overrides,
  }
  const recorded = {...hub, calls} as HubPort & {calls: string[]}
  for (const name of ['profileApi', 'reviewSelf', 'reviewProfileAccess', 'close'] as const) {
    recorded[name] = record(name, hub[name] as never) as never
  }
  return recorded
}

const credentialJson = JSON.stringify({
  apiVersion: EXEC_API_V1,
  kind: 'ExecCredential',
  status: {token: 'opaque-token-0123456789', expirationTimestamp: '2099-01-01T00:00:00Z'},
})

function deps(hub: HubPort, overrides: Partial<DoctorPorts> = {}): DoctorPorts {
  return {
    hub: {
      loadConfig: async () => config,
      connect: async () => hub,
    },
    target: {
      endpoint: async (cluster) => ({server: cluster.server}),
      reviewSelf: async () => ({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        status: {userInfo: {username: 'alice@spoke'}},
      }),
      reviewRules: async () => ({resourceRules: [{verbs: ['get'], apiGroups: [''], resources: ['pods']}]}),
      reviewAccess: async () => ({allowed: true}),
    },
    probes: {
      probe: async () => plainHttp,
      findExecutable: async (command) => ({kind: 'found', path: command, fromPath: false}),
      cacheDir: '/cache',
      cacheFiles: async (key) => ({dir: '/cache', file: `/cache/${key}`}),
      lastSnapshot: async () => undefined,
    },
    loadProviders: async () => ({
      source: '/home/me/providers.json',
      providers: [provider],
      warnings: [],
      required: () => [provider],
    }),
    runner: {
      run: async () => ({
        exitCode: 0,
        stdout: credentialJson,
        stderr: '',
        notFound: false,
        timedOut: false,
        outputTooLarge: false,
      }),
    },
    now: () => NOW,
    env: {PATH: '/usr/bin'},
    stdinIsTTY: false,
    kubectl: {
      policy: () => ({
        kind: 'policy',
        policy: 'AllowAll',
        allowlist: [],
        why: '/home/me/.kube/kuberc does not exist',
      }),
      lookPath: (command) => command,
    },
    cpcredCommand: ['/opt/cpcred/bin/run.js'],
    ...overrides,
  }
}

const input = (extra: Partial<DoctorInput> = {}): DoctorInput => ({
  hub: {},
  providers: {},
  allNamespaces: false,
  all: false,
  pluginTimeoutMs: 60_000,
  profileMaxStaleMs: 3_600_000,
  ...extra,
})

function check(report: DoctorReport, id: string): CheckResult {
  const all = [...report.checks, ...report.profiles.flatMap((profile) => profile.checks)]
  const found = all.find((result) => result.id === id)
  assert.ok(found, `no check ${id}`)
  return found
}

describe('doctorCommand: the broken link and what follows it', () => {
  it('fails at the hub kubeconfig and checks nothing that needs the hub', async () => {
    const d = deps(fakeHub(), {
      hub: {
        loadConfig: async () => {
          throw new UsageError('no kubeconfig found for the hub', 'pass --kubeconfig FILE')
        },
        connect: async () => assert.fail('no hub to connect to'),
      },
    })
    const report = await doctorCommand(d, input())
    assert.equal(check(report, 'hub-kubeconfig').status, 'fail')
    assert.equal(check(report, 'hub-kubeconfig').hint, 'pass --kubeconfig FILE')
    for (const id of ['hub-tls', 'hub-identity', 'hub-rbac', 'hub-api', 'provider-usage'])
      assert.equal(check(report, id).status, 'skip', id)
    // The provider file needs no hub.
    assert.equal(check(report, 'provider-file').status, 'ok')
    assert.equal(doctorExitCode(report), 1)
  })

  it('says how credential and exec carry on when the hub refuses connections', async () => {
    const hub = fakeHub()
    const report = await doctorCommand(
      deps(hub, {
        probes: {
          ...deps(hub).probes,
          probe: async () => ({connectError: {code: 'ECONNREFUSED', reason: 'connection refused'}}),
          lastSnapshot: async (identity, namespace, name) => {
            assert.deepEqual([identity, namespace, name], ['hub-identity', 'fleet', 'eu'])
            return NOW.getTime() - 600_000
          },
        },
      }),
      input({profile: 'eu'}),
    )
    const tls = check(report, 'hub-tls')
    assert.equal(tls.status, 'fail')
    assert.match(tls.detail, /connection refused/)
    assert.match(tls.hint!, /meanwhile cpcred credential and exec use fleet\/eu as read 10m/)
    assert.equal(check(report, 'hub-identity').status, 'skip')
    assert.deepEqual(hub.calls, ['close'], 'nothing asked of a hub that cannot be reached')
    assert.equal(doctorExitCode(report), 3)
  })

  it('fails a 401 of the hub as denied, with the remedy for the kind of kubeconfig user', async () => {
    const report = await doctorCommand(
      deps(
        fakeHub({
          reviewSelf: async () => {
            throw http(401)
          },
        }),
      ),
      input(),
    )
    const identity = check(report, 'hub-identity')
    assert.equal(identity.status, 'fail')
    assert.match(identity.detail, /401 Unauthorized/)
    assert.equal(identity.hint, 'log in again with the exec plugin kubelogin of the hub kubeconfig user')
    assert.equal(check(report, 'hub-rbac').status, 'skip')
    assert.equal(doctorExitCode(report), 4)
  })

  it('only warns when the hub does not serve SelfSubjectReview (404), and goes on', async () => {
    const report = await doctorCommand(
      deps(
        fakeHub({
          reviewSelf: async () => {
            throw http(404)
          },
        }),
      ),
      input(),
    )
    assert.equal(check(report, 'hub-identity').status, 'warn')
    assert.match(check(report, 'hub-identity').detail, /older than 1\.28/)
    assert.equal(check(report, 'hub-rbac').status, 'ok')
  })

  it('fails without the ClusterProfile API, reading the discovery the hub made once', async () => {
    const hub = fakeHub({profileApi: async () => ({})})
    const report = await doctorCommand(deps(hub), input())
    const api = check(report, 'hub-api')
    assert.equal(api.status, 'fail')
    assert.equal(api.hint, INSTALL_CRD_HINT)
    assert.equal(hub.calls.filter((call) => call === 'profileApi').length, 1)
    assert.equal(check(report, 'provider-usage').status, 'skip')
    assert.equal(doctorExitCode(report), 3)
  })

  it('fails RBAC without get or list on clusterprofiles', async () => {
    const report = await doctorCommand(
      deps(fakeHub({reviewProfileAccess: async (verb) => ({verb, allowed: verb === 'get'})})),
      input(),
    )
    assert.equal(check(report, 'hub-rbac').status, 'fail')
    assert.match(check(report, 'hub-rbac').detail, /alice may not list/)
    assert.equal(doctorExitCode(report), 4)
  })

  it('asks the target what the credential may do, and about one action with --can (denied: exit 4)', async () => {
    const hub = fakeHub()
    const asked: unknown[] = []
    const target = {
      ...deps(hub).target,
      reviewRules: async (_: unknown, __: unknown, namespace: string) => {
        asked.push(namespace)
        return {resourceRules: [{verbs: ['get'], apiGroups: [''], resources: ['pods']}]}
      },
      reviewAccess: async (_: unknown, __: unknown, question: unknown) => {
        asked.push(question)
        return {allowed: false, reason: 'no RBAC policy matched'}
      },
    }
    const plain = await doctorCommand(deps(hub, {target}), input({profile: 'fleet/eu'}))
    assert.equal(check(plain, 'target-access').detail, 'in namespace default may get pods')
    assert.equal(
      plain.profiles[0]!.checks.find((result) => result.id === 'target-can'),
      undefined,
    )
    assert.deepEqual(
      plain.profiles[0]!.notDone?.map((left) => left.id),
      ['target-can'],
    )
    assert.equal(doctorExitCode(plain), 0)

    const can = parseAccessQuestion('get secrets -n ops')
    const denied = await doctorCommand(deps(fakeHub(), {target}), input({profile: 'fleet/eu', can}))
    assert.deepEqual(asked, ['default', 'ops', can])
    assert.equal(
      check(denied, 'target-can').detail,
      'may not get secrets in namespace ops: no RBAC policy matched',
    )
    assert.deepEqual(denied.profiles[0]!.notDone, [])
    assert.equal(doctorExitCode(denied), 4)
  })

  it('refuses --can without a profile, before asking the hub anything', async () => {
    const hub = fakeHub()
    const can = parseAccessQuestion('get pods')
    await assert.rejects(
      doctorCommand(deps(hub), input({can})),
      (error: unknown) =>
        error instanceof UsageError &&
        /--can asks a target/.test(error.message) &&
        /-A, -l or --all/.test(error.hint ?? ''),
    )
    assert.deepEqual(hub.calls, [])
    // With a selection it is asked of each profile.
    const fleet = await doctorCommand(deps(fakeHub()), input({can, allNamespaces: true}))
    assert.equal(fleet.mode, 'fleet')
  })

  it('explains a 401 of the target from the credential', async () => {
    const hub = fakeHub()
    const report = await doctorCommand(
      deps(hub, {
        target: {
          ...deps(hub).target,
          reviewSelf: async () => {
            throw http(401, 'the target')
          },
        },
      }),
      input({profile: 'fleet/eu'}),
    )
    const auth = check(report, 'target-auth')
    assert.equal(auth.status, 'fail')
    assert.match(auth.detail, /rejected the bearer token \(401 Unauthorized; opaque, 23 characters\)/)
    assert.equal(doctorExitCode(report), 4)
  })

  it('warns when the credential cache cannot be read', async () => {
    const hub = fakeHub()
    const base = deps(hub)
    const report = await doctorCommand(
      deps(hub, {probes: {...base.probes, cacheFiles: async () => ({unreadable: 'EACCES'})}}),
      input({profile: 'fleet/eu'}),
    )
    assert.equal(check(report, 'cache').status, 'warn')
    assert.equal(check(report, 'cache').detail, 'cannot read the credential cache: EACCES')
    assert.equal(check(report, 'cache').hint, 'check /cache')
  })

  it("names what kubectl's kuberc refuses, from the kuberc --kuberc names, and goes on", async () => {
    const asked: (string | undefined)[] = []
    const report = await doctorCommand(
      deps(fakeHub(), {
        kubectl: {
          policy: (kuberc) => {
            asked.push(kuberc)
            return {kind: 'policy', policy: 'Allowlist', allowlist: ['token-plugin'], file: '/home/me/rc'}
          },
          lookPath: (command) => (command.includes('/') ? command : `/usr/bin/${command}`),
        },
      }),
      input({profile: 'fleet/eu', kuberc: '/home/me/rc'}),
    )
    const kuberc = check(report, 'kuberc')
    assert.equal(kuberc.status, 'warn')
    assert.equal(
      kuberc.detail,
      "credentialPluginPolicy Allowlist in /home/me/rc: kubectl refuses cpcred's command (--mode cpcred) /opt/cpcred/bin/run.js; it runs the plugin (--mode plugin) /usr/bin/token-plugin",
    )
    assert.match(
      kuberc.hint!,
      /^add \{command: "\/opt\/cpcred\/bin\/run\.js"\} to credentialPluginAllowlist in \/home\/me\/rc, or run: kubectl kuberc set --kuberc \/home\/me\/rc .*--allowlist-entry command=token-plugin --allowlist-entry command=\/opt\/cpcred\/bin\/run\.js$/,
    )
    assert.deepEqual(asked, ['/home/me/rc'])
    // cpcred's own commands do not go through kubectl's policy: the plugin still runs.
    assert.equal(check(report, 'plugin-run').status, 'ok')
    assert.equal(doctorExitCode(report), 0)
  })

  it('fails (exit 5) when kubectl would run neither the plugin nor cpcred', async () => {
    const report = await doctorCommand(
      deps(fakeHub(), {
        kubectl: {
          policy: () => ({kind: 'policy', policy: 'DenyAll', allowlist: [], file: '/home/me/.kube/kuberc'}),
          lookPath: (command) => command,
        },
      }),
      input({profile: 'fleet/eu'}),
    )
    assert.equal(check(report, 'kuberc').status, 'fail')
    assert.match(
      check(report, 'kuberc').hint!,
      /set credentialPluginPolicy: Allowlist and credentialPluginAllowlist: \[\{command: "\/usr\/bin\/token-plugin"\}, \{command: "\/opt\/cpcred\/bin\/run\.js"\}\]/,
    )
    assert.equal(doctorExitCode(report), 5)
  })

  it('walks the whole chain to a profile that works, and closes the hub', async () => {
    const hub = fakeHub()
    const started: string[] = []
    const report = await doctorCommand(
      deps(hub, {onCheck: (id, profile) => started.push(profile ? `${profile}: ${id}` : id)}),
      input({profile: 'fleet/eu'}),
    )
    const failing = [...report.checks, ...report.profiles[0]!.checks].filter(
      (result) => result.status === 'fail' || result.status === 'skip',
    )
    assert.deepEqual(failing, [])
    assert.equal(check(report, 'target-auth').detail, 'accepted: you are alice@spoke')
    assert.equal(check(report, 'hub-api').status, 'ok')
    assert.ok(started.includes('fleet/eu: plugin-run'))
    assert.equal(
      check(report, 'kuberc').detail,
      'kubectl runs every credential plugin: no kuberc (/home/me/.kube/kuberc does not exist)',
    )
    assert.equal(hub.calls.at(-1), 'close')
    assert.equal(doctorExitCode(report), 0)
  })
})

describe('doctorCommand: duplicates in an inventory', () => {
  const member = (name: string, created: string): ClusterProfile => ({
    ...profile,
    metadata: {name, namespace: 'fleet', labels: {[MEMBER_ID_LABEL]: 'eu-1'}, creationTimestamp: created},
  })

  it('checks only the oldest of a member cluster, and warns while the duplicates remain', async () => {
    const items = [member('new', '2026-05-02T00:00:00Z'), member('old', '2026-05-01T00:00:00Z')]
    const hub = fakeHub({listProfilePage: async () => ({items})})
    const report = await doctorCommand(deps(hub), input({all: true}))
    assert.deepEqual(
      report.profiles.map((p) => p.profile),
      ['fleet/old'],
    )
    const profiles = check(report, 'profiles')
    assert.equal(profiles.status, 'warn')
    assert.match(
      profiles.detail,
      /inventory in namespace fleet has duplicate profiles .*"eu-1" on fleet\/old, fleet\/new/,
    )
    assert.match(profiles.detail, /using the oldest, fleet\/old, leaving out the newer fleet\/new/)
  })

  it('checks none of the oldest when they tie, and says so', async () => {
    const items = [member('a', '2026-05-01T00:00:00Z'), member('b', '2026-05-01T00:00:00Z')]
    const hub = fakeHub({listProfilePage: async () => ({items})})
    const report = await doctorCommand(deps(hub), input({all: true}))
    assert.deepEqual(report.profiles, [])
    const profiles = check(report, 'profiles')
    assert.equal(profiles.status, 'warn')
    assert.match(
      profiles.detail,
      /^0 profiles .*the oldest, fleet\/a and fleet\/b, were created at the same time/,
    )
  })
})

describe('doctorCommand: a placement', () => {
  const decision = {
    metadata: {name: 'web', namespace: 'fleet'},
    decisions: [{clusterProfileRef: {name: 'eu'}}, {clusterProfileRef: {name: 'gone'}}],
  }

  it('refuses a placement beside -l or --all', async () => {
    await assert.rejects(doctorCommand(deps(fakeHub()), input({placement: 'web', all: true})), UsageError)
  })

  it('checks the decided profiles and fails the selection on a reference no profile answers to', async () => {
    const hub = fakeHub({getPlacementDecision: async (_ns, name) => (name === 'web' ? decision : undefined)})
    const report = await doctorCommand(deps(hub), input({placement: 'web'}))
    assert.equal(report.mode, 'fleet')
    assert.deepEqual(
      report.profiles.map((p) => p.profile),
      ['fleet/eu'],
    )
    const profiles = check(report, 'profiles')
    assert.equal(profiles.status, 'fail')
    assert.match(profiles.detail, /1 profile decided by web .*ClusterProfile fleet\/gone not found/)
    assert.equal(doctorExitCode(report), 1)
  })

  it('--healthy leaves out what is not healthy and says why, without failing', async () => {
    const hub = fakeHub({listProfilePage: async () => ({items: [{...profile, status: {...profile.status}}]})})
    const report = await doctorCommand(deps(hub), input({all: true, healthy: true}))
    assert.deepEqual(report.profiles, [])
    const profiles = check(report, 'profiles')
    assert.equal(profiles.status, 'warn')
    assert.match(profiles.detail, /skipped fleet\/eu: no ControlPlaneHealthy condition/)
  })
})
