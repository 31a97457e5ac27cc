// obtainCredential for a provider with a serviceAccountToken block, with hand-written fakes: the
// hub's TokenRequest, the private token files and the plugin runner.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {resolveAccess} from '../../src/core/access/resolve-access.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {obtainCredential} from '../../src/usecases/obtain-credential.js'
import {capToToken, Federation} from '../../src/usecases/federated-token.js'
import type {
  FederationHub,
  HubConfig,
  PluginProcessRunner,
  PluginRunRequest,
  TokenRequestSpec,
} from '../../src/usecases/ports.js'
import {execCredentialJson, PIN, profile, store, temp, V1} from './usecase-fakes.js'

const EXPIRES = new Date(Date.now() + 3600_000)

function jwt(namespace: string, name: string, uid: string, audience: string): string {
  const payload = {
    aud: [audience],
    sub: `system:serviceaccount:${namespace}:${name}`,
    'kubernetes.io': {namespace, serviceaccount: {name, uid}},
  }
  return `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2ln`
}

/** The hub's TokenRequest API: UIDs by ServiceAccount, a 403 for those listed as forbidden. */
function fakeHub(
  options: {
    pod?: {namespace: string; name: string}
    forbidden?: string[]
    uids?: Record<string, string>
  } = {},
) {
  const requests: Array<{namespace: string; name: string; spec: TokenRequestSpec; forbiddenHint?: string}> =
    []
  let closed = 0
  const hub: FederationHub = {
    config: {inCluster: options.pod && {dir: '/var/run/secrets', serviceAccount: options.pod}} as HubConfig,
    describe: () => 'the hub (context "hub")',
    async close() {
      closed++
    },
    async requestToken(namespace, name, spec, hints) {
      requests.push({namespace, name, spec, forbiddenHint: hints.forbiddenHint})
      const account = `${namespace}/${name}`
      if (options.forbidden?.includes(account)) {
        throw new CpcredError(`the hub refused to create a token for ServiceAccount ${account} (403)`, {
          exitCode: ExitCode.Denied,
          hint: hints.forbiddenHint,
        })
      }
      if (name === 'missing') return undefined
      const uid = options.uids?.[account] ?? `uid-${account}`
      return {
        status: {
          token: jwt(namespace, name, uid, spec.audiences[0]!),
          expirationTimestamp: EXPIRES.toISOString(),
        },
      }
    },
  }
  return {hub, requests, closed: () => closed}
}

/** A plugin that reads the token file named by F while it runs, and answers with an expiry. */
function tokenReadingPlugin(files: Map<string, string>, expiresAt?: Date) {
  const seen: Array<{request: PluginRunRequest; file: string; token: string | undefined}> = []
  const runner: PluginProcessRunner = {
    async run(request) {
      const file = request.env.F!
      seen.push({request, file, token: files.get(file)})
      return {
        exitCode: 0,
        stdout: execCredentialJson(`cloud-${seen.length}`, expiresAt),
        stderr: '',
        notFound: false,
        timedOut: false,
        outputTooLarge: false,
      }
    },
  }
  return {runner, seen}
}

function federated(serviceAccount?: string, name = 'idp'): Provider {
  return {
    name,
    execConfig: {apiVersion: V1, command: '/bin/aws'},
    serviceAccountToken: {
      audience: 'sts.amazonaws.com',
      fileEnv: 'F',
      expirationSeconds: 3600,
      ...(serviceAccount
        ? {serviceAccount: {namespace: serviceAccount.split('/')[0]!, name: serviceAccount.split('/')[1]!}}
        : {}),
    },
  }
}

function setup(hubOptions: Parameters<typeof fakeHub>[0] = {}) {
  const hub = fakeHub(hubOptions)
  const files = temp()
  const federation = new Federation({openHub: async () => hub.hub, files: files.temp})
  return {hub, files, federation}
}

const input = (provider: Provider) => ({
  resolution: resolveAccess(profile(), [provider]),
  hubIdentity: 'me@hub',
  hubPin: PIN,
  stdinIsTTY: false,
})

describe('obtainCredential with a serviceAccountToken block', () => {
  it('hands the plugin the minted token in a private file named by fileEnv, then removes it', async () => {
    const {hub, files, federation} = setup()
    const plugin = tokenReadingPlugin(files.files)
    const obtained = await obtainCredential(
      {runner: plugin.runner, federation},
      input(federated('ci/deployer')),
    )
    assert.deepEqual(
      hub.requests.map(({namespace, name, spec}) => [namespace, name, spec]),
      [['ci', 'deployer', {audiences: ['sts.amazonaws.com'], expirationSeconds: 3600}]],
    )
    assert.equal(plugin.seen.length, 1)
    const {request, file, token} = plugin.seen[0]!
    assert.match(file, /^\/run\/cpcred\/token-\d+$/)
    assert.equal(token, jwt('ci', 'deployer', 'uid-ci/deployer', 'sts.amazonaws.com'))
    // Never in argv or as a variable's value: only the file's path travels.
    assert.ok(!request.args.some((arg) => arg.includes(token!)))
    assert.ok(!Object.values(request.env).some((value) => value.includes(token!)))
    assert.equal(files.files.size, 0, 'the token file is removed after the run')
    assert.equal(obtained.credential.token, 'cloud-1')
    assert.deepEqual(obtained.federation, {
      serviceAccount: 'ci/deployer',
      audience: 'sts.amazonaws.com',
      fileEnv: 'F',
      podOwn: false,
      expirationTimestamp: EXPIRES.toISOString(),
    })
    await federation.close()
    assert.equal(hub.closed(), 1)
    assert.equal(files.disposed(), 1)
  })

  it('removes the token file when the plugin fails too', async () => {
    const {files, federation} = setup()
    const runner: PluginProcessRunner = {
      run: async () => ({
        exitCode: 1,
        stdout: '',
        stderr: 'no',
        notFound: false,
        timedOut: false,
        outputTooLarge: false,
      }),
    }
    await assert.rejects(
      obtainCredential({runner, federation}, input(federated('ci/deployer'))),
      /exited with code 1/,
    )
    assert.equal(files.files.size, 0)
  })

  it("cuts the hub's token out of what the plugin says on stderr, on success and in a failure", async () => {
    const token = jwt('ci', 'deployer', 'uid-ci/deployer', 'sts.amazonaws.com')
    const said: string[] = []
    const answer = (exitCode: number) => {
      const runner: PluginProcessRunner = {
        run: async () => ({
          exitCode,
          stdout: exitCode === 0 ? execCredentialJson('cloud') : '',
          stderr: `debug: web identity token ${token}\n`,
          notFound: false,
          timedOut: false,
          outputTooLarge: false,
        }),
      }
      return obtainCredential(
        {runner, federation: setup().federation},
        {...input(federated('ci/deployer')), onPluginStderr: (text) => said.push(text)},
      )
    }
    await answer(0)
    assert.equal(said.length, 1)
    assert.ok(!said[0]!.includes(token), said[0])
    assert.match(said[0]!, /<redacted>/)
    await assert.rejects(
      answer(1),
      (error: Error) => !error.message.includes(token) && /<redacted>/.test(error.message),
    )
  })

  it("uses the pod's own ServiceAccount when the block names none", async () => {
    const {hub, files, federation} = setup({pod: {namespace: 'jobs', name: 'runner'}})
    const plugin = tokenReadingPlugin(files.files)
    const obtained = await obtainCredential({runner: plugin.runner, federation}, input(federated()))
    assert.deepEqual(
      hub.requests.map(({namespace, name}) => `${namespace}/${name}`),
      ['jobs/runner'],
    )
    assert.equal(obtained.federation?.podOwn, true)
  })

  it('outside a pod, a block without serviceAccount is a usage error naming the provider, before any plugin', async () => {
    const {hub, files, federation} = setup()
    const plugin = tokenReadingPlugin(files.files)
    await assert.rejects(
      obtainCredential({runner: plugin.runner, federation}, input(federated())),
      (error: CpcredError) => error.exitCode === ExitCode.Usage && /provider "idp"/.test(error.message),
    )
    assert.equal(hub.requests.length, 0)
    assert.equal(plugin.seen.length, 0)
  })

  it('a caller that may not create the token gets exit 4 naming the ServiceAccount and the RBAC it needs', async () => {
    const {files, federation} = setup({forbidden: ['ci/deployer']})
    const plugin = tokenReadingPlugin(files.files)
    await assert.rejects(
      obtainCredential({runner: plugin.runner, federation}, input(federated('ci/deployer'))),
      (error: CpcredError) =>
        error.exitCode === ExitCode.Denied &&
        /ServiceAccount ci\/deployer/.test(error.message) &&
        /serviceaccounts\/token with resourceNames \["deployer"\]/.test(error.hint ?? ''),
    )
    assert.equal(plugin.seen.length, 0)
  })

  it('a missing ServiceAccount is named', async () => {
    const {files, federation} = setup()
    const plugin = tokenReadingPlugin(files.files)
    await assert.rejects(
      obtainCredential({runner: plugin.runner, federation}, input(federated('ci/missing'))),
      /no ServiceAccount ci\/missing on the hub/,
    )
  })

  it('two ServiceAccounts, or one made again (another UID), never share a cache entry', async () => {
    const cache = store()
    const uids: Record<string, string> = {}
    const {files} = setup({uids})
    const plugin = tokenReadingPlugin(files.files)
    const obtainAs = (serviceAccount: string) =>
      obtainCredential(
        {runner: plugin.runner, cache: cache.store, federation: setup({uids}).federation},
        input(federated(serviceAccount)),
      )
    const a = await obtainAs('ci/a')
    const b = await obtainAs('ci/b')
    assert.notEqual(a.cacheKey, b.cacheKey)
    assert.equal(plugin.seen.length, 2)
    // The same again (a new run): served from the cache under the same key.
    const again = setup({uids})
    const cached = await obtainCredential(
      {runner: plugin.runner, cache: cache.store, federation: again.federation},
      input(federated('ci/a')),
    )
    assert.equal(cached.cacheKey, a.cacheKey)
    assert.equal(cached.fromCache, true)
    // ci/a deleted and made again: same name, another UID, another entry.
    uids['ci/a'] = 'uid-new'
    const remade = setup({uids})
    const fresh = await obtainCredential(
      {runner: plugin.runner, cache: cache.store, federation: remade.federation},
      input(federated('ci/a')),
    )
    assert.notEqual(fresh.cacheKey, a.cacheKey)
    assert.equal(fresh.fromCache, false)
  })

  it('mints once per provider in a run (a fan-out of one provider asks the hub once)', async () => {
    const {hub, files, federation} = setup()
    const plugin = tokenReadingPlugin(files.files)
    await Promise.all(
      [1, 2, 3].map(() => obtainCredential({runner: plugin.runner, federation}, input(federated('ci/a')))),
    )
    assert.equal(hub.requests.length, 1)
  })

  it('while the hub is down (a stale profile), fails with exit 3 rather than run without a token', async () => {
    const {hub, federation} = setup()
    const {runner} = tokenReadingPlugin(new Map())
    await assert.rejects(
      obtainCredential(
        {runner, federation},
        {...input(federated('ci/a')), cacheOnly: 'the hub cannot be reached'},
      ),
      (error: CpcredError) =>
        error.exitCode === ExitCode.Unreachable &&
        /needs a token of a hub ServiceAccount/.test(error.message),
    )
    assert.equal(hub.requests.length, 0)
  })

  it('a credential never outlives the token it was exchanged with', async () => {
    const {files, federation} = setup()
    const later = new Date(EXPIRES.getTime() + 6 * 3600_000)
    const plugin = tokenReadingPlugin(files.files, later)
    const obtained = await obtainCredential({runner: plugin.runner, federation}, input(federated('ci/a')))
    assert.equal(obtained.credential.expiresAt?.getTime(), EXPIRES.getTime())
    // No expiry from the plugin: the token's.
    const none = capToToken({token: 't'}, EXPIRES)
    assert.equal(none.expiresAt, EXPIRES)
    assert.match(none.expirationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    // An earlier expiry is kept as it is.
    const sooner = {token: 't', expiresAt: new Date(EXPIRES.getTime() - 1000), expirationTimestamp: 'x'}
    assert.equal(capToToken(sooner, EXPIRES), sooner)
  })
})
