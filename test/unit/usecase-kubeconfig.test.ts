// The kubeconfig and sync use cases with a hand-written fake of the user's kubeconfig files: what is
// refused before anything is written, what a merge keeps, and that sync writes once or not at all;
// and the commands around them: what the selection decides and what each `sync --watch` pass says.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {parse, stringify} from 'yaml'
import {MEMBER_ID_LABEL, type ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {CpcredError, ExitCode, UsageError} from '../../src/core/errors.js'
import {parseProviderFile} from '../../src/core/access/provider-file.js'
import type {KubeconfigFiles} from '../../src/usecases/ports.js'
import {
  kubeconfigCommand,
  writeKubeconfig,
  type KubeconfigInput,
  type KubeconfigPorts,
  type KubeconfigWrite,
} from '../../src/usecases/write-kubeconfig.js'
import {
  syncCommand,
  syncKubeconfig,
  syncWatchCommand,
  SYNC_SETTLE_MS,
  type SyncInput,
  type SyncWatchInput,
  type WatchedPass,
  type KnownKubeconfig,
} from '../../src/usecases/sync-kubeconfig.js'
import type {KubeconfigDocument} from '../../src/core/kubeconfig/document.js'
import type {FleetSelectInput} from '../../src/usecases/find-profiles.js'
import type {PlacementDecision} from '../../src/core/fleet/placement.js'
import {targetHub, watchedHub} from './usecase-fakes.js'

/** Files in memory; records every write and lock, and can refuse to write. */
function fakeFiles(initial: Record<string, string> = {}, options: {failWrite?: boolean} = {}) {
  const files = new Map(Object.entries(initial))
  const writes: string[] = []
  const reads: string[] = []
  let locked = 0
  const port: KubeconfigFiles = {
    async read(file) {
      reads.push(file)
      return files.get(file)
    },
    // As stat's stamp: the same whenever the content is the same.
    async stamp(file) {
      return files.get(file)
    },
    async write(file, content) {
      if (options.failWrite) throw new CpcredError(`cannot write ${file}: read-only file system`)
      writes.push(file)
      files.set(file, content)
    },
    async withLock(_file, action) {
      locked++
      try {
        return await action()
      } finally {
        locked--
      }
    },
  }
  return {
    port,
    files,
    writes,
    reads,
    get locked() {
      return locked
    },
  }
}

const PROVIDERS = parseProviderFile(
  JSON.stringify({
    providers: [
      {
        name: 'token',
        execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: '/usr/bin/token-plugin'},
      },
    ],
  }),
  'providers.json',
).providers

function profile(key: string, provider = 'token', server?: string): ClusterProfile {
  const [namespace, name] = key.split('/') as [string, string]
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, namespace},
    spec: {clusterManager: {name: 'fleet-manager'}},
    status: {
      accessProviders: [
        {name: provider, cluster: {server: server ?? `https://${name}.${namespace}.example`}},
      ],
    },
  }
}

function request(profiles: ClusterProfile[], extra: Partial<KubeconfigWrite> = {}): KubeconfigWrite {
  return {
    profiles,
    providers: PROVIDERS,
    hub: {kubeconfigPaths: ['/home/ada/.kube/hub.yaml'], context: 'hub-admin'},
    hubServer: 'https://hub.example:6443',
    mode: 'plugin',
    pinHub: true,
    cpcredCommand: ['/opt/cpcred/bin/run.js'],
    accessProviders: [],
    asGroups: [],
    ...extra,
  }
}

/** A provider with a serviceAccountToken block: its plugin needs a hub token only cpcred mints. */
const FEDERATED = parseProviderFile(
  JSON.stringify({
    providers: [
      {
        name: 'eks',
        execConfig: {apiVersion: 'client.authentication.k8s.io/v1', command: 'aws'},
        serviceAccountToken: {audience: 'sts.amazonaws.com', fileEnv: 'F', serviceAccount: 'fleet/deployer'},
      },
    ],
  }),
  'providers.json',
).providers

/** The command each user of a written kubeconfig runs, by name. */
const commandsOf = (text: string | undefined) =>
  Object.fromEntries(
    ((parse(text ?? '') as {users?: {name: string; user: {exec: {command: string}}}[]}).users ?? []).map(
      (user) => [user.name, user.user.exec.command],
    ),
  )

const contextsOf = (text: string | undefined) =>
  ((parse(text ?? '') as {contexts?: {name: string}[]}).contexts ?? []).map((context) => context.name)

describe('writeKubeconfig', () => {
  it('refuses an empty selection before touching a file', async () => {
    const files = fakeFiles()
    await assert.rejects(writeKubeconfig(files.port, request([]), {kind: 'stdout'}), UsageError)
    assert.deepEqual(files.writes, [])
  })

  it('refuses --as-group without --as', async () => {
    const files = fakeFiles()
    await assert.rejects(
      writeKubeconfig(files.port, request([profile('fleet/a')], {asGroups: ['ops']}), {kind: 'stdout'}),
      /--as-group needs --as/,
    )
  })

  it('will not replace an existing file without --overwrite', async () => {
    const files = fakeFiles({'/k/config': 'apiVersion: v1\nkind: Config\n'})
    await assert.rejects(
      writeKubeconfig(files.port, request([profile('fleet/a')]), {
        kind: 'file',
        file: '/k/config',
        overwrite: false,
      }),
      /already exists/,
    )
    assert.equal(files.files.get('/k/config'), 'apiVersion: v1\nkind: Config\n')
  })

  it('fails as a whole when no selected profile can be written, and writes nothing', async () => {
    const files = fakeFiles()
    await assert.rejects(
      writeKubeconfig(files.port, request([profile('fleet/a', 'nobody-has-this')], {skipUnusable: true}), {
        kind: 'file',
        file: '/k/out',
        overwrite: false,
      }),
      /none of the 1 selected profiles can be written/,
    )
    assert.deepEqual(files.writes, [])
  })

  it('skips an unusable profile with -l/--all and says why, writing the others', async () => {
    const files = fakeFiles()
    const outcome = await writeKubeconfig(
      files.port,
      request([profile('fleet/a'), profile('fleet/b', 'nobody-has-this')], {skipUnusable: true}),
      {kind: 'stdout'},
    )
    assert.deepEqual(
      outcome.skipped.map((skip) => skip.profile),
      ['fleet/b'],
    )
    assert.deepEqual(contextsOf(outcome.yaml), ['fleet/a'])
    assert.deepEqual(files.writes, [])
  })

  it('merges under the lock, keeping what the file had', async () => {
    const existing = [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: mine, cluster: {server: "https://mine.example"}}]',
      'users: [{name: mine, user: {token: x}}]',
      'contexts: [{name: mine, context: {cluster: mine, user: mine}}]',
      'current-context: mine',
      '',
    ].join('\n')
    const files = fakeFiles({'/k/config': existing})
    const outcome = await writeKubeconfig(files.port, request([profile('fleet/a')]), {
      kind: 'merge',
      file: '/k/config',
      overwrite: false,
      setCurrent: false,
    })
    assert.equal(files.locked, 0)
    assert.deepEqual(files.writes, ['/k/config'])
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'mine'])
    assert.match(outcome.messages.join('\n'), /Added to \/k\/config: .*context fleet\/a/)
  })

  it('merging again updates the entries it wrote for the same profile and hub, without --overwrite', async () => {
    const files = fakeFiles({'/k/config': 'apiVersion: v1\nkind: Config\n'})
    const merge = (profiles: ClusterProfile[], extra: Partial<KubeconfigWrite> = {}) =>
      writeKubeconfig(files.port, request(profiles, extra), {
        kind: 'merge',
        file: '/k/config',
        overwrite: false,
        setCurrent: false,
      })
    await merge([profile('fleet/a')])
    // The profile moved to a new server: the second run updates the entries in place.
    const again = await merge([profile('fleet/a', 'token', 'https://moved.example')])
    assert.deepEqual(files.writes, ['/k/config', '/k/config'])
    assert.match(
      again.messages.join('\n'),
      /Updated in \/k\/config: cluster fleet\/a, user fleet\/a, context fleet\/a/,
    )
    const merged = parse(files.files.get('/k/config') ?? '') as {
      clusters: {name: string; cluster: {server: string}}[]
    }
    assert.deepEqual(
      merged.clusters.map((cluster) => [cluster.name, cluster.cluster.server]),
      [['fleet/a', 'https://moved.example']],
    )
    assert.deepEqual(contextsOf(files.files.get('/k/config')), ['fleet/a'])
  })

  it('still refuses entries of the same name that another hub or profile owns, or no one, naming --overwrite', async () => {
    const unmarked = [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: fleet/a, cluster: {server: "https://mine.example"}}]',
      '',
    ].join('\n')
    const cases: Array<[string, Record<string, string>, Partial<KubeconfigWrite>]> = [
      ['another hub', {}, {hubServer: 'https://other-hub.example:6443'}],
      // Profile fleet/b under the name template "fleet/a" clashes with fleet/a's entries.
      ['another profile', {}, {contextNameTemplate: 'fleet/a', profiles: [profile('fleet/b')]}],
      ['no mark', {'/k/config': unmarked}, {}],
    ]
    for (const [what, initial, extra] of cases) {
      const files = fakeFiles(initial)
      if (!initial['/k/config']) {
        await writeKubeconfig(files.port, request([profile('fleet/a')]), {
          kind: 'merge',
          file: '/k/config',
          overwrite: false,
          setCurrent: false,
        })
      }
      const before = files.files.get('/k/config')
      const error = await writeKubeconfig(
        files.port,
        {...request([profile('fleet/a')]), ...extra},
        {
          kind: 'merge',
          file: '/k/config',
          overwrite: false,
          setCurrent: false,
        },
      ).then(
        () => assert.fail(`${what}: the merge should be refused`),
        (error: unknown) => error,
      )
      assert.ok(error instanceof UsageError, `${what}: ${String(error)}`)
      assert.match(error.message, /already has cluster "fleet\/a".*refusing to replace/, what)
      assert.match(error.hint ?? '', /--overwrite/, what)
      assert.equal(files.files.get('/k/config'), before, `${what}: the file is as it was`)
    }
  })

  it('never writes a plugin-mode entry that would run a federated plugin without its token', async () => {
    const files = fakeFiles()
    const providers = [...PROVIDERS, ...FEDERATED]
    for (const destination of [
      {kind: 'stdout'} as const,
      {kind: 'file', file: '/k/out', overwrite: false} as const,
      {kind: 'merge', file: '/k/merged', overwrite: false, setCurrent: false} as const,
    ]) {
      const outcome = await writeKubeconfig(
        files.port,
        request([profile('fleet/a', 'eks'), profile('fleet/b')], {
          providers,
          providerFile: '/home/ada/providers.json',
        }),
        destination,
      )
      const text = destination.kind === 'stdout' ? outcome.yaml : files.files.get(destination.file)
      assert.deepEqual(commandsOf(text), {
        'fleet/a': '/opt/cpcred/bin/run.js',
        'fleet/b': '/usr/bin/token-plugin',
      })
      assert.match(
        outcome.messages[0] ?? '',
        /^provider "eks" federates through serviceAccountToken, .* so the entries of fleet\/a run 'cpcred credential'/,
        destination.kind,
      )
    }
  })

  it('lets a failed write surface and leaves the file as it was', async () => {
    const files = fakeFiles({'/k/config': 'apiVersion: v1\nkind: Config\n'}, {failWrite: true})
    await assert.rejects(
      writeKubeconfig(files.port, request([profile('fleet/a')]), {
        kind: 'merge',
        file: '/k/config',
        overwrite: false,
        setCurrent: false,
      }),
      /read-only file system/,
    )
    assert.equal(files.files.get('/k/config'), 'apiVersion: v1\nkind: Config\n')
  })
})

describe('syncKubeconfig', () => {
  const sync = (files: ReturnType<typeof fakeFiles>, profiles: ClusterProfile[], dryRun = false) =>
    syncKubeconfig(files.port, {...request(profiles), file: '/k/config', dryRun, setCurrent: false})

  it('a dry run plans and writes nothing', async () => {
    const files = fakeFiles()
    const outcome = await sync(files, [profile('fleet/a')], true)
    assert.equal(outcome.wrote, false)
    assert.deepEqual(
      outcome.changes.map((change) => change.action),
      ['add'],
    )
    assert.deepEqual(files.writes, [])
  })

  it('writes once, then leaves a file in step alone', async () => {
    const files = fakeFiles()
    const first = await sync(files, [profile('fleet/a'), profile('fleet/b')])
    assert.equal(first.wrote, true)
    assert.deepEqual(files.writes, ['/k/config'])
    const second = await sync(files, [profile('fleet/a'), profile('fleet/b')])
    assert.equal(second.wrote, false)
    assert.deepEqual(files.writes, ['/k/config'])
  })

  it("keeps what a watch's pass wrote sealed, so its next pass cannot find an entry changed in place", async () => {
    const files = fakeFiles()
    const known: KnownKubeconfig = {}
    const pass = {...request([profile('fleet/a')]), file: '/k/config', dryRun: false, setCurrent: false}
    await syncKubeconfig(files.port, pass, undefined, known)
    const document = known.document as KubeconfigDocument
    assert.equal(document.clusters.length, 1)
    assert.ok(Object.isFrozen(document.clusters[0]!.cluster), 'the cluster entry is not sealed')
    assert.ok(Object.isFrozen(document.users[0]!.user), 'the user entry is not sealed')
    assert.ok(Object.isFrozen(document.contexts[0]!.context), 'the context entry is not sealed')
  })

  it('writes a federated profile in cpcred mode, with a note saying why', async () => {
    const files = fakeFiles()
    const outcome = await syncKubeconfig(files.port, {
      ...request([profile('fleet/a', 'eks'), profile('fleet/b')], {
        providers: [...PROVIDERS, ...FEDERATED],
        providerFile: '/home/ada/providers.json',
      }),
      file: '/k/config',
      dryRun: false,
      setCurrent: false,
    })
    assert.deepEqual(commandsOf(files.files.get('/k/config')), {
      'fleet/a': '/opt/cpcred/bin/run.js',
      'fleet/b': '/usr/bin/token-plugin',
    })
    assert.equal(outcome.notes.length, 1)
    assert.match(outcome.notes[0]!, /provider "eks" federates .* fleet\/a run 'cpcred credential'/)
  })

  it('prunes what it wrote for a profile that is gone, and never an entry the user wrote', async () => {
    const files = fakeFiles()
    await sync(files, [profile('fleet/a'), profile('fleet/b')])
    // An entry the user wrote by hand beside cpcred's: no ownership mark.
    const document = parse(files.files.get('/k/config') ?? '') as {contexts: unknown[]}
    document.contexts.push({name: 'mine', context: {cluster: 'fleet/b', user: 'fleet/b'}})
    const withMine = stringify(document)
    files.files.set('/k/config', withMine)
    const outcome = await sync(files, [profile('fleet/a')])
    assert.deepEqual(
      outcome.changes.filter((change) => change.action === 'prune').map((change) => change.profile),
      ['fleet/b'],
    )
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'mine'])
  })
})

describe('syncKubeconfig: profiles that stand for one member cluster', () => {
  const member = (key: string, created: string) => {
    const p = profile(key)
    p.metadata.labels = {[MEMBER_ID_LABEL]: 'eu-1'}
    p.metadata.creationTimestamp = created
    return p
  }
  const sync = (files: ReturnType<typeof fakeFiles>, profiles: ClusterProfile[], noDedupe = false) =>
    syncKubeconfig(files.port, {
      ...request(profiles),
      file: '/k/config',
      dryRun: false,
      setCurrent: false,
      noDedupe,
    })

  it('writes the oldest, prunes the newer, and keeps the entries of the oldest that tie as they are', async () => {
    const files = fakeFiles()
    const a = member('fleet/a', '2026-11-20T10:00:00Z')
    const b = member('fleet/b', '2026-11-21T10:00:00Z')
    await sync(files, [a, b], true)
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'fleet/b'])

    const folded = await sync(files, [b, a])
    assert.deepEqual(contextsOf(files.files.get('/k/config')), ['fleet/a'])
    assert.deepEqual(
      folded.changes.filter((change) => change.action === 'prune'),
      [
        {
          action: 'prune',
          profile: 'fleet/b',
          name: 'fleet/b',
          detail: 'fleet/a, the oldest, stands for the same member cluster',
        },
      ],
    )
    assert.equal(folded.warnings.length, 1)
    assert.match(folded.warnings[0]!, /^the inventory in namespace fleet has duplicate profiles/)

    // c ties with a: neither is written nor pruned, and b goes.
    const tied = await sync(files, [a, b, member('fleet/c', '2026-11-20T10:00:00Z')])
    assert.deepEqual(contextsOf(files.files.get('/k/config')), ['fleet/a'])
    assert.deepEqual(
      tied.changes.map((change) => [change.action, change.profile]),
      [
        ['skip', 'fleet/a'],
        ['skip', 'fleet/c'],
      ],
    )
    assert.match(
      tied.changes[0]!.detail!,
      /tie \(fleet\/a and fleet\/c, created 2026-11-20T10:00:00Z\), so none of them/,
    )
  })
})

describe('syncKubeconfig: profiles selected but not read', () => {
  it('keeps the entry of a profile a placement references but that could not be read, and says why', async () => {
    const files = fakeFiles()
    await syncKubeconfig(files.port, {
      ...request([profile('fleet/a'), profile('fleet/b')]),
      file: '/k/config',
      dryRun: false,
      setCurrent: false,
    })
    const outcome = await syncKubeconfig(files.port, {
      ...request([profile('fleet/a')]),
      file: '/k/config',
      dryRun: false,
      setCurrent: false,
      unread: new Map([['fleet/b', 'ClusterProfile fleet/b cannot be read: forbidden']]),
    })
    assert.deepEqual(
      outcome.changes.filter((change) => change.action === 'prune'),
      [],
      'an unreadable profile is not pruned',
    )
    assert.ok(
      outcome.changes.some((change) => change.action === 'skip' && change.profile === 'fleet/b'),
      JSON.stringify(outcome.changes),
    )
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'fleet/b'])
  })
})

describe("kubeconfig and sync: kubectl's credential-plugin policy", () => {
  /** A kuberc whose Allowlist names only the provider's plugin. */
  const onlyThePlugin = (asked: (string | undefined)[] = []) => ({
    preferences: {
      policy: (kuberc?: string) => {
        asked.push(kuberc)
        return {
          kind: 'policy' as const,
          policy: 'Allowlist' as const,
          allowlist: ['/usr/bin/token-plugin'],
          file: '/home/ada/.kube/kuberc',
        }
      },
      lookPath: (command: string) => command,
    },
    kuberc: '/home/ada/.kube/kuberc',
  })

  it('--mode cpcred: warns that kubectl will refuse cpcred, with the entry to add, and still writes', async () => {
    const files = fakeFiles()
    const asked: (string | undefined)[] = []
    const outcome = await writeKubeconfig(
      files.port,
      request([profile('fleet/a')], {mode: 'cpcred'}),
      {kind: 'file', file: '/k/out', overwrite: false},
      onlyThePlugin(asked),
    )
    assert.deepEqual(files.writes, ['/k/out'])
    assert.deepEqual(asked, ['/home/ada/.kube/kuberc'])
    assert.equal(outcome.warnings.length, 1)
    assert.match(
      outcome.warnings[0]!,
      /^kubectl will refuse to run \/opt\/cpcred\/bin\/run\.js, the exec command of the entries just written: .*credentialPluginAllowlist in \/home\/ada\/\.kube\/kuberc:\n {2}- command: "\/opt\/cpcred\/bin\/run\.js"\nor run .*: kubectl kuberc set --kuberc \/home\/ada\/\.kube\/kuberc --section credentialplugin --policy Allowlist --allowlist-entry command=\/usr\/bin\/token-plugin --allowlist-entry command=\/opt\/cpcred\/bin\/run\.js$/,
    )
  })

  it('--mode plugin: no warning when the plugin is on the list', async () => {
    const outcome = await writeKubeconfig(
      fakeFiles().port,
      request([profile('fleet/a')]),
      {kind: 'stdout'},
      onlyThePlugin(),
    )
    assert.deepEqual(outcome.warnings, [])
  })

  it('sync warns once per refused command however many entries run it', async () => {
    const outcome = await syncKubeconfig(
      fakeFiles().port,
      {
        ...request([profile('fleet/a'), profile('fleet/b')], {mode: 'cpcred'}),
        file: '/k/config',
        dryRun: false,
        setCurrent: false,
      },
      onlyThePlugin(),
    )
    assert.equal(outcome.wrote, true)
    assert.equal(outcome.warnings.filter((warning) => warning.startsWith('kubectl will refuse')).length, 1)
  })
})

/** A slice of a PlacementDecision in "fleet" naming these profiles (NAME or NAMESPACE/NAME). */
function decision(name: string, refs: string[]): PlacementDecision {
  return {
    metadata: {name, namespace: 'fleet'},
    decisions: refs.map((ref) => {
      const [namespace, profileName] = ref.includes('/') ? ref.split('/') : [undefined, ref]
      return {clusterProfileRef: {name: profileName!, ...(namespace ? {namespace} : {})}}
    }),
  }
}

/** Profiles that stand for one member cluster, created at `created`. */
function memberOf(key: string, created: string, memberId = 'eu-1'): ClusterProfile {
  const p = profile(key)
  p.metadata.labels = {[MEMBER_ID_LABEL]: memberId}
  p.metadata.creationTimestamp = created
  return p
}

function withHealth(p: ClusterProfile, status: string, reason: string): ClusterProfile {
  p.status!.conditions = [{type: 'ControlPlaneHealthy', status, reason}]
  return p
}

const entries = (() => {
  const {profiles: _profiles, providers: _providers, ...rest} = request([])
  return rest
})()

/** `cpcred kubeconfig` on a hub of these profiles and decisions, with these files. */
function kubeconfigWorld(
  profiles: ClusterProfile[],
  decisions: PlacementDecision[] = [],
  files = fakeFiles(),
) {
  let providersAsked = 0
  const ports: KubeconfigPorts = {
    hub: targetHub(profiles, decisions).hub,
    files: files.port,
    providers: () => {
      providersAsked++
      return PROVIDERS
    },
  }
  const input = (extra: Partial<KubeconfigInput> = {}, selection: Partial<FleetSelectInput> = {}) => ({
    selection: {refs: [], all: true, namespace: 'fleet', allNamespaces: false, ...selection},
    noDedupe: false,
    usable: false,
    entries,
    merge: false,
    overwrite: false,
    setCurrent: false,
    ...extra,
  })
  return {ports, input, files, providersAsked: () => providersAsked}
}

describe('kubeconfigCommand: what the selection decides', () => {
  it('--min-targets: a smaller selection fails, naming the scope, and nothing is written', async () => {
    const w = kubeconfigWorld([profile('fleet/a')])
    const outcome = await kubeconfigCommand(w.ports, w.input({minTargets: 2, outputFile: '/k/out'}))
    assert.ok(outcome.error instanceof CpcredError, String(outcome.error))
    assert.match(
      outcome.error.message,
      /^1 ClusterProfile found in fleet namespace, fewer than --min-targets 2$/,
    )
    assert.equal(outcome.written, undefined)
    assert.deepEqual(w.files.writes, [])
  })

  it('a selection that matches nothing says so, succeeds, and needs no provider', async () => {
    const w = kubeconfigWorld([profile('elsewhere/a')])
    const outcome = await kubeconfigCommand(w.ports, w.input())
    assert.equal(outcome.noProfiles, 'No ClusterProfiles found in fleet namespace.')
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.equal(outcome.error, undefined)
    assert.equal(w.providersAsked(), 0)
  })

  it('an unusable profile of -l/--all is left out and reported, the others written, and the command fails quietly', async () => {
    const w = kubeconfigWorld([profile('fleet/a'), profile('fleet/b', 'other-idp')])
    const outcome = await kubeconfigCommand(w.ports, w.input())
    assert.deepEqual(contextsOf(outcome.written?.yaml), ['fleet/a'])
    assert.deepEqual(
      outcome.unusable.map(({profile}) => profile),
      ['fleet/b'],
    )
    assert.match(outcome.unusable[0]!.reason, /other-idp/)
    assert.equal(outcome.targets, 2)
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.equal(outcome.error, undefined)
  })

  it('--usable leaves an unusable profile out without a word, and succeeds', async () => {
    const w = kubeconfigWorld([profile('fleet/a'), profile('fleet/b', 'other-idp')])
    const outcome = await kubeconfigCommand(w.ports, w.input({usable: true}))
    assert.deepEqual(contextsOf(outcome.written?.yaml), ['fleet/a'])
    assert.deepEqual(outcome.unusable, [])
    assert.equal(outcome.exitCode, ExitCode.Success)
  })

  it('a named profile that is unusable fails the whole kubeconfig', async () => {
    const w = kubeconfigWorld([profile('fleet/a'), profile('fleet/b', 'other-idp')])
    const outcome = await kubeconfigCommand(
      w.ports,
      w.input({}, {all: false, refs: [{name: 'a'}, {name: 'b'}]}),
    )
    assert.ok(outcome.error instanceof CpcredError, String(outcome.error))
    assert.match(outcome.error.message, /other-idp/)
    assert.equal(outcome.written, undefined)
  })

  it('a reference no profile answers to is reported, the rest written, and the command fails quietly', async () => {
    const w = kubeconfigWorld(
      [profile('fleet/a'), profile('fleet/b', 'other-idp')],
      [decision('web', ['a', 'b', 'gone'])],
    )
    const outcome = await kubeconfigCommand(w.ports, w.input({}, {all: false, placement: 'web'}))
    assert.deepEqual(
      outcome.unresolved.map(({profile}) => profile),
      ['fleet/gone'],
    )
    assert.deepEqual(contextsOf(outcome.written?.yaml), ['fleet/a'])
    // The unresolved reference is the failure said; the unusable one is not said on top of it.
    assert.deepEqual(outcome.unusable, [])
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.equal(outcome.error, undefined)
  })

  it('a placement whose every reference is unresolved writes nothing and fails quietly, with no "no profiles" note', async () => {
    const w = kubeconfigWorld([], [decision('web', ['gone'])])
    const outcome = await kubeconfigCommand(w.ports, w.input({}, {all: false, placement: 'web'}))
    assert.equal(outcome.unresolved.length, 1)
    assert.equal(outcome.noProfiles, undefined)
    assert.equal(outcome.written, undefined)
    assert.equal(outcome.exitCode, ExitCode.Failure)
  })

  it('folds profiles of one member cluster into the oldest, and says so; --no-dedupe keeps both but still warns', async () => {
    const profiles = [
      memberOf('fleet/new', '2026-11-21T10:00:00Z'),
      memberOf('fleet/old', '2026-11-20T10:00:00Z'),
    ]
    const folded = await kubeconfigCommand(kubeconfigWorld(profiles).ports, kubeconfigWorld(profiles).input())
    assert.deepEqual(contextsOf(folded.written?.yaml), ['fleet/old'])
    assert.deepEqual(
      folded.folds.map((fold) => [fold.kept, fold.folded]),
      [['fleet/old', ['fleet/new']]],
    )
    assert.equal(folded.duplicateWarnings.length, 1)
    const w = kubeconfigWorld(profiles)
    const kept = await kubeconfigCommand(w.ports, w.input({noDedupe: true}))
    assert.deepEqual(contextsOf(kept.written?.yaml).sort(), ['fleet/new', 'fleet/old'])
    assert.deepEqual(kept.folds, [])
    assert.equal(kept.duplicateWarnings.length, 1)
  })

  it('profiles of one member cluster that tie get no entry, and no "no profiles" note: the fold says why', async () => {
    const w = kubeconfigWorld([
      memberOf('fleet/a', '2026-11-20T10:00:00Z'),
      memberOf('fleet/b', '2026-11-20T10:00:00Z'),
    ])
    const outcome = await kubeconfigCommand(w.ports, w.input())
    assert.equal(outcome.targets, 0)
    assert.equal(outcome.noProfiles, undefined)
    assert.equal(outcome.written, undefined)
    assert.equal(outcome.exitCode, ExitCode.Success)
    assert.deepEqual(outcome.folds[0]?.tied, ['fleet/a', 'fleet/b'])
  })

  it('refuses --merge into stdout, after the selection is said', async () => {
    const w = kubeconfigWorld([profile('fleet/a')])
    const outcome = await kubeconfigCommand(w.ports, w.input({merge: true, outputFile: '-'}))
    assert.ok(outcome.error instanceof UsageError, String(outcome.error))
    assert.match(outcome.error.message, /--merge needs a file/)
    assert.deepEqual(w.files.writes, [])
  })
})

describe('syncCommand: what the selection decides', () => {
  const pass = {...entries, providers: PROVIDERS, file: '/k/config', dryRun: false, setCurrent: false}
  const input = (extra: Partial<SyncInput> = {}, selection: Partial<SyncInput['selection']> = {}) => ({
    selection: {all: true, namespace: 'fleet', allNamespaces: false, ...selection},
    pass,
    ...extra,
  })

  it('--min-targets: refuses before anything is pruned', async () => {
    const files = fakeFiles()
    const hub = targetHub([profile('fleet/a')]).hub
    await syncCommand({hub, files: files.port}, input())
    const writes = files.writes.length
    const outcome = await syncCommand({hub: targetHub([]).hub, files: files.port}, input({minTargets: 1}))
    assert.ok(outcome.error instanceof CpcredError, String(outcome.error))
    assert.match(
      outcome.error.message,
      /^0 ClusterProfiles found in fleet namespace, fewer than --min-targets 1$/,
    )
    assert.equal(outcome.pass, undefined)
    assert.equal(files.writes.length, writes)
    assert.deepEqual(contextsOf(files.files.get('/k/config')), ['fleet/a'])
  })

  it('says when the selection matched nothing, and still prunes', async () => {
    const files = fakeFiles()
    await syncCommand({hub: targetHub([profile('fleet/a')]).hub, files: files.port}, input())
    const outcome = await syncCommand({hub: targetHub([]).hub, files: files.port}, input())
    assert.equal(outcome.noProfiles, 'No ClusterProfiles found in fleet namespace.')
    assert.deepEqual(
      outcome.pass?.changes.map((change) => change.action),
      ['prune'],
    )
    assert.equal(outcome.exitCode, ExitCode.Success)
  })

  it('a reference no profile answers to keeps its entry, is a skip of the plan, and fails the run quietly', async () => {
    const files = fakeFiles()
    const decisions = [decision('web', ['a', 'b'])]
    await syncCommand(
      {hub: targetHub([profile('fleet/a'), profile('fleet/b')], decisions).hub, files: files.port},
      input({}, {all: false, placement: 'web'}),
    )
    const outcome = await syncCommand(
      {hub: targetHub([profile('fleet/a')], decisions).hub, files: files.port},
      input({}, {all: false, placement: 'web'}),
    )
    assert.equal(outcome.exitCode, ExitCode.Failure)
    assert.equal(outcome.error, undefined)
    assert.deepEqual(
      outcome.pass?.changes.map((change) => [change.action, change.profile]),
      [['skip', 'fleet/b']],
    )
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'fleet/b'])
  })

  it('--healthy: what it left out comes with why', async () => {
    const outcome = await syncCommand(
      {
        hub: targetHub([
          withHealth(profile('fleet/a'), 'True', 'Up'),
          withHealth(profile('fleet/b'), 'False', 'Down'),
        ]).hub,
        files: fakeFiles().port,
      },
      input({}, {healthy: true}),
    )
    assert.deepEqual(outcome.healthSkipped, [
      {profile: 'fleet/b', reason: 'ControlPlaneHealthy is False: Down', kind: 'not healthy'},
    ])
    assert.deepEqual(
      outcome.pass?.changes.map((change) => [change.action, change.profile]),
      [['add', 'fleet/a']],
    )
  })
})

/** `sync --watch` of namespace fleet into /k/config, keeping what it passes and reports. */
function watchFleet(
  world: ReturnType<typeof watchedHub>,
  files = fakeFiles(),
  selection: Partial<SyncWatchInput['selection']> = {},
) {
  const passes: WatchedPass[] = []
  const problems: string[] = []
  const stop = new AbortController()
  const running = syncWatchCommand(
    {
      hub: world.hub,
      files: files.port,
      onPass: (pass) => passes.push(pass),
      onProblem: (message) => problems.push(message),
    },
    {
      selection: {namespace: 'fleet', allNamespaces: false, ...selection},
      pass: {...entries, providers: PROVIDERS, file: '/k/config', dryRun: false, setCurrent: false},
      signal: stop.signal,
    },
  )
  /** Waits (5 s at most) until `done` holds. */
  const until = async (done: () => boolean, what: string) => {
    for (let waited = 0; !done(); waited += 10) {
      assert.ok(waited < 5000, `waited for ${what}: ${JSON.stringify(problems)}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return {
    passes,
    problems,
    until,
    /** The count-th pass, once it has been made. */
    passed: async (count: number) => {
      await until(() => passes.length >= count, `pass ${count}`)
      return passes[count - 1]!
    },
    stopped: async () => {
      stop.abort()
      await running
    },
  }
}

describe('syncWatchCommand: what each pass says', () => {
  it('says a skipped profile, and what --healthy left out, again only when what is said of it changes', async () => {
    const a = withHealth(profile('fleet/a'), 'True', 'Up')
    const down = withHealth(profile('fleet/down'), 'False', 'Down')
    // Two profiles of one member cluster that tie: skipped on every pass.
    const tied = [
      withHealth(memberOf('fleet/t1', '2026-11-20T10:00:00Z'), 'True', 'Up'),
      withHealth(memberOf('fleet/t2', '2026-11-20T10:00:00Z'), 'True', 'Up'),
    ]
    const world = watchedHub([a, down, ...tied])
    const {passes, problems, passed, stopped} = watchFleet(world, fakeFiles(), {healthy: true})
    const said = (pass: WatchedPass) => ({
      first: pass.first,
      health: pass.healthSkipped.map(({profile, reason}) => `${profile}: ${reason}`),
      changes: pass.changes.map((change) => `${change.action} ${change.profile}`),
    })
    try {
      assert.deepEqual(said(await passed(1)), {
        first: true,
        health: ['fleet/down: ControlPlaneHealthy is False: Down'],
        changes: ['add fleet/a', 'skip fleet/t1', 'skip fleet/t2'],
      })
      a.status!.accessProviders![0]!.cluster!.server = 'https://a.moved.example'
      world.change('MODIFIED', a)
      assert.deepEqual(said(await passed(2)), {first: false, health: [], changes: ['update fleet/a']})
      assert.equal(
        passes[1]!.outcome.changes.filter((change) => change.action === 'skip').length,
        2,
        'the whole plan still has the skips',
      )
      world.change('MODIFIED', withHealth(down, 'False', 'Unreachable'))
      assert.deepEqual(said(await passed(3)), {
        first: false,
        health: ['fleet/down: ControlPlaneHealthy is False: Unreachable'],
        changes: [],
      })
    } finally {
      await stopped()
    }
    assert.deepEqual(problems, [])
  })
})

describe('syncWatchCommand: changes during a long pass', () => {
  it('make one more pass, with the selection as it is when that pass starts', async () => {
    const profiles = ['fleet/a', 'fleet/b', 'fleet/c'].map((key) => profile(key))
    const world = watchedHub(profiles)
    const files = fakeFiles()
    // The second pass waits for the lock until the test lets it go.
    let locks = 0
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const withLock = files.port.withLock
    files.port.withLock = async (file, action) => {
      if (++locks === 2) await held
      return withLock(file, action)
    }
    const {passes, until, passed, stopped} = watchFleet(world, files)
    const settled = () => new Promise((resolve) => setTimeout(resolve, SYNC_SETTLE_MS * 2))
    try {
      await passed(1)
      for (const [index, moved] of profiles.entries()) {
        moved.status!.accessProviders![0]!.cluster!.server = `https://moved-${index}.example`
        world.change('MODIFIED', moved)
        if (index === 0) await until(() => locks === 2, 'the second pass to wait for the lock')
        else await settled()
      }
      release()
      await passed(3)
      await settled()
    } finally {
      await stopped()
    }
    const changes = passes.map((pass) => pass.changes.map((change) => `${change.action} ${change.profile}`))
    assert.deepEqual(changes, [
      ['add fleet/a', 'add fleet/b', 'add fleet/c'],
      ['update fleet/a'],
      ['update fleet/b', 'update fleet/c'],
    ])
  })
})

describe('syncWatchCommand: the file between passes', () => {
  it('is read again only when it changed since the watch last read or wrote it', async () => {
    const mine = (name: string) => [
      `clusters: [{name: ${name}, cluster: {server: "https://${name}.example"}}]`,
      `users: [{name: ${name}, user: {token: x}}]`,
      `contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}}}]`,
    ]
    const files = fakeFiles({'/k/config': ['apiVersion: v1', 'kind: Config', ...mine('mine'), ''].join('\n')})
    const a = profile('fleet/a')
    const world = watchedHub([a])
    const {passes, passed, stopped} = watchFleet(world, files)
    const move = (server: string) => {
      a.status!.accessProviders![0]!.cluster!.server = server
      world.change('MODIFIED', a)
    }
    try {
      await passed(1)
      assert.equal(files.reads.length, 1)
      move('https://a.moved.example')
      await passed(2)
      assert.equal(files.reads.length, 1, 'the file the watch wrote itself is not read again')
      // The user adds an entry of their own (kubectl config set-context …).
      const edited = parse(files.files.get('/k/config')!) as {contexts: unknown[]}
      edited.contexts.push({name: 'theirs', context: {cluster: 'mine', user: 'mine'}})
      files.files.set('/k/config', stringify(edited))
      move('https://a.moved-again.example')
      await passed(3)
      assert.equal(files.reads.length, 2, 'a file changed by someone else is read')
    } finally {
      await stopped()
    }
    assert.deepEqual(
      passes.map((pass) => pass.changes.map((change) => `${change.action} ${change.profile}`)),
      [['add fleet/a'], ['update fleet/a'], ['update fleet/a']],
    )
    assert.deepEqual(contextsOf(files.files.get('/k/config')).sort(), ['fleet/a', 'mine', 'theirs'])
  })
})
