import assert from 'node:assert/strict'
import {X509Certificate} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {describe, it} from 'node:test'
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'
import {createEntry, serializeEntry} from '../../src/core/exec-credential/cache.js'
import {judgeApi} from '../../src/core/doctor/api.js'
import {judgeCache, type CacheFiles} from '../../src/core/doctor/cache.js'
import {MAX_CLOCK_SKEW_MS, clockSkewMs, judgeClock} from '../../src/core/doctor/clock.js'
import {credentialKind, hubOutageHint, judgeHubKubeconfig, judgeRbac} from '../../src/core/doctor/hub.js'
import {describeCredentialShape, judgePluginCommand, judgePluginRun} from '../../src/core/doctor/plugin.js'
import {
  judgeProfile,
  judgeProviderFile,
  judgeProviderUsage,
  judgeResolution,
} from '../../src/core/doctor/providers.js'
import {
  judgeServerTls,
  type HttpAnswer,
  type ServerProbe,
  type TlsExpectation,
} from '../../src/core/doctor/server-tls.js'
import {explainRejection} from '../../src/core/doctor/target.js'
import {hubRejectedHint} from '../../src/core/failures.js'
import {EXEC_API_V1} from '../../src/core/access/exec-config.js'
import {jwtClaims} from '../../src/core/exec-credential/jwt.js'
import type {Provider} from '../../src/core/access/provider-file.js'
import {resolveAccess} from '../../src/core/access/resolve-access.js'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/doctor/${name}`, import.meta.url), 'utf8')
const caPem = fixture('ca.pem')
const serverDer = new X509Certificate(fixture('server.pem')).raw
const clientPem = fixture('client.pem')
const now = new Date('2027-01-01T00:00:00Z')

/** A JWS compact token with this payload; the signature is a placeholder nobody verifies here. */
function jwt(payload: Record<string, unknown>): string {
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${segment({alg: 'RS256', kid: 'k1'})}.${segment(payload)}.c2lnbmF0dXJlLXNlY3JldA`
}
const seconds = (date: string) => Date.parse(date) / 1000

const provider = (name: string): Provider => ({
  name,
  execConfig: {apiVersion: EXEC_API_V1, command: `/usr/bin/${name}-plugin`},
})

function profile(
  name: string,
  offered: string[],
  extra: Partial<ClusterProfile['status']> = {},
): ClusterProfile {
  return {
    metadata: {name, namespace: 'fleet'},
    spec: {clusterManager: {name: 'ocm'}},
    status: {
      accessProviders: offered.map((entry) => ({name: entry, cluster: {server: 'https://api.example:6443'}})),
      ...extra,
    },
  }
}

describe('jwtClaims', () => {
  it('reads aud, iss, sub, exp, nbf and iat, and only those', () => {
    const claims = jwtClaims(
      jwt({
        aud: ['https://a', 'https://b'],
        iss: 'https://hub',
        sub: 'system:serviceaccount:ns:sa',
        exp: seconds('2027-01-01T01:00:00Z'),
        nbf: seconds('2026-12-31T23:00:00Z'),
        iat: seconds('2026-12-31T23:00:00Z'),
        'kubernetes.io': {namespace: 'ns'},
      }),
    )
    assert.deepEqual(claims, {
      audiences: ['https://a', 'https://b'],
      issuer: 'https://hub',
      subject: 'system:serviceaccount:ns:sa',
      expiresAt: new Date('2027-01-01T01:00:00Z'),
      notBefore: new Date('2026-12-31T23:00:00Z'),
      issuedAt: new Date('2026-12-31T23:00:00Z'),
    })
  })

  it('takes a single audience string as a list, and leaves out claims of the wrong type', () => {
    assert.deepEqual(jwtClaims(jwt({aud: 'https://a', iss: 7, exp: 'soon'})), {audiences: ['https://a']})
  })

  it('is undefined for anything that is not a JWS compact token', () => {
    for (const token of [
      'opaque-token-123',
      'a.b',
      'a.b.c.d',
      'e30.e30.x+y',
      `${jwt({}).split('.')[0]}.bm90IGpzb24.sig`,
    ]) {
      assert.equal(jwtClaims(token), undefined, token)
    }
    // A header without alg is not a JWS header.
    assert.equal(jwtClaims(`${Buffer.from('{}').toString('base64url')}.e30.sig`), undefined)
  })
})

describe('the hub kubeconfig', () => {
  it('names how the user authenticates, never the credential', () => {
    assert.equal(
      credentialKind({'client-certificate-data': 'x', 'client-key-data': 'y'}),
      'client certificate',
    )
    assert.equal(credentialKind({token: 'secret'}), 'bearer token')
    assert.equal(credentialKind({tokenFile: '/t'}), 'token file')
    assert.equal(credentialKind({username: 'u', password: 'p'}), 'basic auth')
    assert.equal(credentialKind({exec: {command: 'kubelogin'}}), 'exec plugin kubelogin')
    assert.equal(credentialKind({'auth-provider': {name: 'oidc'}}), 'auth-provider oidc')
    assert.equal(credentialKind({}), 'no credentials')
    assert.equal(credentialKind(undefined), 'no credentials')
  })

  it('says which context, file, server, user and namespace are used, and warns on plain http', () => {
    const facts = {
      files: ['/home/me/.kube/config'],
      context: 'hub',
      server: 'https://hub:6443',
      user: 'me',
      userKind: 'bearer token',
      namespace: 'fleet',
    }
    assert.deepEqual(judgeHubKubeconfig(facts), {
      status: 'ok',
      detail:
        'context "hub" of /home/me/.kube/config: server https://hub:6443, user "me" (bearer token), namespace "fleet"',
    })
    assert.equal(judgeHubKubeconfig({...facts, server: 'http://hub:8080'}).status, 'warn')
  })

  it('points a hub 401 at the kind of credential', () => {
    assert.match(hubRejectedHint('exec plugin kubelogin'), /log in again with the exec plugin kubelogin/)
    assert.match(hubRejectedHint('client certificate'), /client certificate/)
    assert.match(hubRejectedHint('bearer token'), /token .* get a new one/)
  })
})

describe('judgeServerTls', () => {
  const hub: TlsExpectation = {
    side: {kind: 'hub', cluster: 'prod-hub'},
    server: 'https://api.example:6443',
    caPem,
    insecure: false,
  }
  const target: TlsExpectation = {
    side: {kind: 'target', profile: 'fleet/eu-1', provider: 'token', manager: 'ocm'},
    server: 'https://10.0.0.1:6443',
    caPem,
    insecure: false,
  }
  const verified: ServerProbe = {
    tls: {protocol: 'TLSv1.3', certificate: serverDer},
    http: {status: 200, sentAt: now, receivedAt: now, version: 'v1.34.10'},
  }

  it('describes a verified server: CA, protocol, certificate, expiry and version', () => {
    assert.deepEqual(judgeServerTls(verified, hub, now), {
      status: 'ok',
      detail:
        'verified (TLSv1.3) against the CA in the hub kubeconfig: certificate CN=api.example, issued by CN=doctor-test-ca, ' +
        'expires 2036-11-19T23:20:32Z (in 9y); Kubernetes v1.34.10',
    })
  })

  it('warns a week before the serving certificate expires', () => {
    const late = new Date('2036-11-15T00:00:00Z')
    const outcome = judgeServerTls(verified, target, late)
    assert.equal(outcome.status, 'warn')
    assert.match(outcome.hint!, /target's administrator should renew/)
  })

  it('fails a refused connection as unreachable (3), with a hint for the right side', () => {
    const refused: ServerProbe = {connectError: {code: 'ECONNREFUSED', reason: 'connection refused'}}
    const forHub = judgeServerTls(refused, hub, now)
    assert.deepEqual(
      [forHub.status, forHub.exitCode, forHub.detail],
      ['fail', 3, 'cannot connect to https://api.example:6443: connection refused'],
    )
    assert.match(forHub.hint!, /cluster "prod-hub" in the hub kubeconfig/)
    assert.match(judgeServerTls(refused, target, now).hint!, /profile fleet\/eu-1/)
  })

  it('names the certificate and the CA it is not signed by', () => {
    const untrusted: ServerProbe = {
      tls: {
        protocol: 'TLSv1.3',
        certificate: serverDer,
        verifyError: {
          code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
          reason: 'its certificate is not signed by a trusted CA',
        },
      },
    }
    const other = fixture('../describe/example-ca.pem')
    const forTarget = judgeServerTls(untrusted, {...target, caPem: other}, now)
    assert.equal(forTarget.exitCode, 3)
    assert.equal(
      forTarget.detail,
      'the certificate of https://10.0.0.1:6443 (CN=api.example, issued by CN=doctor-test-ca) is not signed by ' +
        'the CA in the profile\'s entry for provider "token" (CN=example-ca)',
    )
    assert.equal(
      forTarget.hint,
      `the profile's certificate-authority-data (provider "token") is not this cluster's CA: ask the cluster manager "ocm" ` +
        'to publish the CA that issued it (CN=doctor-test-ca)',
    )
    // A CA of the same name that did not sign it (every home-made CA is "my-ca").
    assert.match(
      judgeServerTls(untrusted, hub, now).detail,
      /is not signed by the CA in the hub kubeconfig \(CN=doctor-test-ca, another CA of the same name\)$/,
    )
    const forHub = judgeServerTls(untrusted, {...hub, caPem: undefined}, now)
    assert.match(
      forHub.detail,
      /is not signed by any CA this machine trusts \(the hub kubeconfig has no certificate-authority-data\)$/,
    )
    assert.match(forHub.hint!, /certificate-authority-data of cluster "prod-hub"/)
  })

  it('names the host names a certificate is for when the server name does not match', () => {
    const wrongName: ServerProbe = {
      tls: {
        certificate: serverDer,
        verifyError: {code: 'ERR_TLS_CERT_ALTNAME_INVALID', reason: 'not valid for that host name'},
      },
    }
    const outcome = judgeServerTls(
      wrongName,
      {...hub, server: 'https://127.0.0.1:6443', tlsServerName: 'hub.internal'},
      now,
    )
    assert.equal(
      outcome.detail,
      'the certificate of https://127.0.0.1:6443 is for api.example, 10.0.0.1, not hub.internal',
    )
    assert.match(outcome.hint!, /tls-server-name on cluster "prod-hub"/)
  })

  it('explains an expired certificate and one not valid yet (check the clock)', () => {
    const probe = (code: string): ServerProbe => ({
      tls: {certificate: serverDer, verifyError: {code, reason: code}},
    })
    const expired = judgeServerTls(probe('CERT_HAS_EXPIRED'), target, new Date('2037-01-01T00:00:00Z'))
    assert.match(expired.detail, /\(CN=api\.example\) expired 2036-11-19T23:20:32Z \(\d+d ago\)$/)
    assert.match(expired.hint!, /target's administrator must renew it/)
    const early = judgeServerTls(probe('CERT_NOT_YET_VALID'), target, now)
    assert.match(early.detail, /is not valid yet \(not before 2026-11-22T23:20:32Z\)/)
    assert.match(early.hint!, /clock/)
  })

  it('flags insecure-skip-tls-verify, plain http and a proxy', () => {
    const insecure = judgeServerTls(
      {tls: {certificate: serverDer, verifyError: {code: 'DEPTH_ZERO_SELF_SIGNED_CERT', reason: 'x'}}},
      {...target, insecure: true, caPem: undefined},
      now,
    )
    assert.equal(insecure.status, 'warn')
    assert.match(
      insecure.detail,
      /^not verified \(insecure-skip-tls-verify\): anyone on the path can pose as the target of fleet\/eu-1/,
    )
    assert.match(insecure.hint!, /ask the cluster manager "ocm" to publish certificate-authority-data/)
    const http = judgeServerTls(
      {http: {status: 200, sentAt: now, receivedAt: now}},
      {...hub, server: 'http://hub:8080'},
      now,
    )
    assert.deepEqual(
      [http.status, http.detail],
      ['warn', 'http://hub:8080 answered over plain http: credentials travel unencrypted'],
    )
    const proxied = judgeServerTls({proxy: 'http://proxy:3128'}, hub, now)
    assert.equal(proxied.status, 'warn')
    assert.match(proxied.detail, /reached through proxy http:\/\/proxy:3128/)
  })
})

describe('clocks', () => {
  const answer = (date: string | undefined, sentAt: string, receivedAt: string): HttpAnswer => ({
    status: 200,
    date,
    sentAt: new Date(sentAt),
    receivedAt: new Date(receivedAt),
  })

  it('compares the middle of the Date header second with the middle of the request', () => {
    const skew = clockSkewMs(
      answer('Fri, 01 Jan 2027 00:00:10 GMT', '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.200Z'),
    )
    assert.equal(skew, 10_500 - 100)
  })

  it('passes within 30 s and flags more, saying which way', () => {
    const near = judgeClock(
      answer('Fri, 01 Jan 2027 00:00:20 GMT', '2027-01-01T00:00:00Z', '2027-01-01T00:00:00Z'),
      'the hub',
    )
    assert.deepEqual(near, {status: 'ok', detail: "this machine's clock is within 21s of the hub's"})
    const behind = judgeClock(
      answer('Fri, 01 Jan 2027 00:05:00 GMT', '2027-01-01T00:00:00Z', '2027-01-01T00:00:00Z'),
      'the target',
    )
    assert.equal(behind.status, 'warn')
    assert.equal(behind.detail, "this machine's clock is 5m behind the target's (its Date header)")
    const ahead = judgeClock(
      answer('Fri, 01 Jan 2027 00:00:00 GMT', '2027-01-01T00:01:00Z', '2027-01-01T00:01:00Z'),
      'the hub',
    )
    assert.match(ahead.detail, /is 59s ahead of the hub's/)
    assert.ok(MAX_CLOCK_SKEW_MS === 30_000)
  })

  it('says why a clock could not be read', () => {
    assert.deepEqual(judgeClock(undefined, 'the hub', 'connection reset'), {
      status: 'warn',
      detail: "could not read the hub's clock: connection reset",
    })
    assert.match(
      judgeClock(answer(undefined, '2027-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), 'the hub').detail,
      /no usable Date header/,
    )
  })
})

describe('hub RBAC and API', () => {
  const all = ['get', 'list', 'watch'].map((verb) => ({verb, allowed: true}))

  it('lists what the user may do', () => {
    assert.deepEqual(judgeRbac(all, ['get', 'list'], {user: 'alice', namespace: 'fleet'}), {
      status: 'ok',
      detail: 'alice may get, list, watch clusterprofiles in namespace "fleet"',
    })
  })

  it('passes without an optional verb, saying what would need it', () => {
    const noList = [
      {verb: 'get', allowed: true},
      {verb: 'list', allowed: false},
      {verb: 'watch', allowed: false},
    ]
    const outcome = judgeRbac(noList, ['get'], {user: 'alice'})
    assert.equal(outcome.status, 'ok')
    assert.equal(
      outcome.detail,
      "alice may get clusterprofiles in all namespaces; not list ('cpcred list', -l and --all need it); not watch (only watching needs it)",
    )
  })

  it('fails as denied (4) without a required verb, and names the role to ask for', () => {
    const denied = [
      {verb: 'get', allowed: false, reason: 'no RBAC policy matched'},
      {verb: 'list', allowed: false},
      {verb: 'watch', allowed: false},
    ]
    const outcome = judgeRbac(denied, ['get', 'list'], {
      user: 'system:serviceaccount:ns:bot',
      namespace: 'fleet',
    })
    assert.equal(outcome.exitCode, 4)
    assert.equal(
      outcome.detail,
      'system:serviceaccount:ns:bot may not get or list clusterprofiles.multicluster.x-k8s.io in namespace "fleet" (no RBAC policy matched)',
    )
    assert.match(
      outcome.hint!,
      /grant system:serviceaccount:ns:bot get and list on clusterprofiles\.multicluster\.x-k8s\.io in namespace "fleet" \(docs\/examples\/hub-consumer\.yaml/,
    )
  })

  const group = {versions: [{version: 'v1alpha1'}], preferredVersion: {version: 'v1alpha1'}}
  const resources = {
    resources: [{name: 'clusterprofiles', namespaced: true}, {name: 'clusterprofiles/status'}],
  }

  it('passes the upstream CRD and names the versions served', () => {
    assert.deepEqual(judgeApi(group, resources, 'v1alpha1'), {
      status: 'ok',
      detail:
        'multicluster.x-k8s.io/v1alpha1 clusterprofiles served and read (versions v1alpha1, preferred v1alpha1)',
    })
  })

  it('fails as not served (3) without the group, the version or the resource', () => {
    const missing = judgeApi(undefined, undefined, undefined)
    assert.equal(missing.exitCode, 3)
    assert.match(
      missing.detail,
      /does not serve the multicluster\.x-k8s\.io API: the ClusterProfile CRD is not installed/,
    )
    assert.match(missing.hint!, /install the ClusterProfile CRD/)
    const newer = judgeApi(
      {versions: [{version: 'v1beta1'}], preferredVersion: {version: 'v1beta1'}},
      undefined,
      undefined,
    )
    assert.equal(
      newer.detail,
      'the hub serves multicluster.x-k8s.io versions v1beta1, preferred v1beta1, but not v1alpha1 or v1alpha2, which cpcred reads',
    )
    const forced = judgeApi(group, undefined, undefined, 'v1alpha2')
    assert.match(forced.detail, /but not v1alpha2, which cpcred reads/)
    assert.match(forced.hint!, /leave out --api-version/)
    assert.equal(judgeApi(group, {resources: []}, 'v1alpha1').exitCode, 3)
    assert.equal(
      judgeApi(group, {resources: [{name: 'clusterprofiles', namespaced: false}]}, 'v1alpha1').exitCode,
      3,
    )
    assert.equal(
      judgeApi(group, {resources: [{name: 'clusterprofiles', namespaced: true}]}, 'v1alpha1').status,
      'warn',
    )
  })
})

describe('providers and profiles', () => {
  it('lists the providers of the file, and fails without any', () => {
    assert.deepEqual(judgeProviderFile('/p.json', [provider('a'), provider('b')], []), {
      status: 'ok',
      detail: '/p.json: 2 providers (a, b)',
    })
    assert.equal(
      judgeProviderFile('/p.json', [provider('a')], ['unknown field "x" is ignored']).status,
      'warn',
    )
    const none = judgeProviderFile(
      'no provider file (/home/me/.config/cpcred/providers.json does not exist)',
      [],
      [],
    )
    assert.equal(none.status, 'fail')
    assert.match(none.hint!, /docs\/providers\.md/)
  })

  it('counts the profiles that can be reached, and does not warn of providers this namespace does not use', () => {
    // The provider file serves every namespace: "old" may be another namespace's.
    const profiles = [profile('a', ['token']), profile('b', ['secret']), profile('c', ['other'])]
    const outcome = judgeProviderUsage(
      [provider('token'), provider('secret'), provider('old')],
      profiles,
      'in namespace "fleet"',
    )
    assert.equal(outcome.status, 'ok')
    assert.equal(outcome.detail, '2 of 3 profiles in namespace "fleet" can be reached with your providers')
    assert.equal(judgeProviderUsage([provider('token')], [profile('a', ['token'])], 'here').status, 'ok')
    assert.equal(
      judgeProviderUsage([provider('token')], [], 'in namespace "empty"').hint,
      'look elsewhere with -n NAMESPACE or -A',
    )
  })

  it('warns when no provider reaches any profile, naming what they offer and what the file has', () => {
    const outcome = judgeProviderUsage(
      [provider('old')],
      [profile('a', ['token']), profile('b', ['token', 'secret'])],
      'in namespace "fleet"',
    )
    assert.equal(outcome.status, 'warn')
    assert.equal(
      outcome.detail,
      '0 of 2 profiles in namespace "fleet" can be reached with your providers: they offer "token", "secret", your provider file has "old"',
    )
    assert.match(outcome.hint!, /add a provider the profiles offer/)
  })

  it("shows the profile's manager and health, warning when the control plane is not healthy", () => {
    assert.equal(
      judgeProfile(profile('a', [])).detail,
      'fleet/a, managed by "ocm"; no ControlPlaneHealthy condition reported',
    )
    const unhealthy = profile('a', [], {
      conditions: [
        {type: 'ControlPlaneHealthy', status: 'False', reason: 'Unreachable', message: 'probe timed out'},
      ],
    })
    assert.deepEqual(
      [judgeProfile(unhealthy).status, judgeProfile(unhealthy).detail],
      ['warn', 'fleet/a, managed by "ocm"; ControlPlaneHealthy False (Unreachable): probe timed out'],
    )
    assert.match(judgeProfile(unhealthy).hint!, /reports the control plane as not healthy/)
    // Unknown is not a report of trouble: the manager cannot tell.
    const unknown = profile('a', [], {
      conditions: [{type: 'ControlPlaneHealthy', status: 'Unknown', reason: 'Probing'}],
    })
    assert.equal(judgeProfile(unknown).status, 'warn')
    assert.doesNotMatch(judgeProfile(unknown).hint!, /not healthy/)
    assert.match(judgeProfile(unknown).hint!, /cannot tell whether the control plane is healthy/)
  })

  it("explains the choice with describe's decisions, and flags a deprecated or overriding entry", () => {
    const plain = profile('a', ['token'])
    assert.deepEqual(judgeResolution(resolveAccess(plain, [provider('token')]), plain), {
      status: 'ok',
      detail:
        'Chose provider "token" (1st of 1 configured): the first configured provider that the profile offers. ' +
        `The cluster comes from the profile's status.accessProviders entry "token".`,
    })
    const both = profile('a', ['token'], {
      credentialProviders: [{name: 'token', cluster: {server: 'https://old'}}],
    })
    assert.match(
      judgeResolution(resolveAccess(both, [provider('token')]), both).detail,
      /It overrides the deprecated credentialProviders entry of the same name\.$/,
    )
    const old: ClusterProfile = {
      ...plain,
      status: {credentialProviders: [{name: 'token', cluster: {server: 'https://api.example:6443'}}]},
    }
    const outcome = judgeResolution(resolveAccess(old, [provider('token')]), old)
    assert.equal(outcome.status, 'warn')
    assert.match(outcome.detail, /deprecated status\.credentialProviders/)
    assert.equal(outcome.hint, 'ask the cluster manager to publish status.accessProviders')
  })
})

describe('the plugin', () => {
  const from = {name: 'token', source: '/p.json'}

  it('says where a command was found', () => {
    assert.deepEqual(
      judgePluginCommand({kind: 'found', path: '/usr/bin/kubelogin', fromPath: true}, 'kubelogin', from),
      {
        status: 'ok',
        detail: 'kubelogin is /usr/bin/kubelogin (found in PATH)',
      },
    )
  })

  it('fails as a plugin failure (5) with the install hint, or what to fix', () => {
    const missing = judgePluginCommand({kind: 'not-found', searched: ['/usr/bin', '/bin']}, 'kubelogin', {
      ...from,
      installHint: '  brew install kubelogin\n',
    })
    assert.deepEqual(missing, {
      status: 'fail',
      detail: 'kubelogin is not in PATH (/usr/bin:/bin)',
      hint: 'brew install kubelogin',
      exitCode: 5,
    })
    const absent = judgePluginCommand({kind: 'not-found', searched: ['/opt/p']}, '/opt/p', from)
    assert.deepEqual(
      [absent.detail, absent.hint],
      [
        '/opt/p does not exist',
        'install the plugin, or fix execConfig.command of provider "token" in /p.json',
      ],
    )
    const mode = judgePluginCommand({kind: 'not-executable', path: '/opt/p', mode: 0o100644}, '/opt/p', from)
    assert.deepEqual([mode.detail, mode.hint], ['/opt/p is not executable (mode 0644)', 'chmod +x /opt/p'])
  })

  it('describes a JWT by length and claims, never by its text or signature', () => {
    const token = jwt({
      aud: ['https://t:6443'],
      iss: 'https://hub',
      sub: 'system:serviceaccount:ns:sa',
      exp: seconds('2027-01-01T01:00:00Z'),
    })
    const text = describeCredentialShape(
      {token, expirationTimestamp: '2027-01-01T01:00:00Z', expiresAt: new Date('2027-01-01T01:00:00Z')},
      now,
    )
    assert.equal(
      text,
      `bearer token (JWT, ${token.length} characters: aud https://t:6443, iss https://hub, sub system:serviceaccount:ns:sa, ` +
        'exp 2027-01-01T01:00:00Z), expires 2027-01-01T01:00:00Z (in 60m)',
    )
    for (const part of token.split('.')) assert.ok(!text.includes(part))
  })

  it('describes an opaque token and a client certificate without their secrets', () => {
    assert.equal(
      describeCredentialShape({token: 'sk-0123456789'}, now),
      'bearer token (opaque, 13 characters), no expirationTimestamp (kubectl asks again only after a 401; cpcred caches it only with --cache-ttl)',
    )
    assert.match(
      describeCredentialShape({clientCertificateData: clientPem, clientKeyData: 'KEY'}, now),
      /^client certificate CN=alice, O=devs, issued by CN=doctor-test-ca, valid until 2036-/,
    )
  })

  it('fails a plugin that hands out an expired token, and warns when its expiry is wrong or it is slow', () => {
    const base = {elapsedMs: 120, timeoutMs: 120_000, now}
    const expired = judgePluginRun({
      ...base,
      credential: {token: jwt({exp: seconds('2026-12-31T00:00:00Z')})},
    })
    assert.deepEqual([expired.status, expired.exitCode], ['fail', 5])
    assert.match(expired.detail, /the token expired at 2026-12-31T00:00:00Z$/)
    const claimsLonger = judgePluginRun({
      ...base,
      credential: {
        token: jwt({exp: seconds('2027-01-01T00:10:00Z')}),
        expirationTimestamp: '2027-01-01T01:00:00Z',
        expiresAt: new Date('2027-01-01T01:00:00Z'),
      },
    })
    assert.equal(claimsLonger.status, 'warn')
    assert.match(claimsLonger.hint!, /report the token's own expiry/)
    const slow = judgePluginRun({...base, elapsedMs: 70_000, credential: {token: 'opaque'}})
    assert.deepEqual([slow.status, slow.detail.endsWith('took 1m10s')], ['warn', true])
    assert.equal(judgePluginRun({...base, credential: {token: 'opaque'}}).detail.endsWith('took 120ms'), true)
  })
})

describe('explainRejection', () => {
  const server = 'https://target:6443'
  const token = (claims: Record<string, unknown>) => ({
    token: jwt({exp: seconds('2027-01-01T01:00:00Z'), ...claims}),
  })

  it('names an audience that is not the target URL', () => {
    const {detail, hint} = explainRejection(
      token({aud: ['https://elsewhere'], iss: 'https://hub'}),
      server,
      now,
    )
    assert.equal(
      detail,
      `${server} rejected the token (401 Unauthorized): its audience is https://elsewhere, not the target's URL ${server}`,
    )
    assert.match(hint, /audience https:\/\/target:6443/)
  })

  it('with the right audience, points at the issuer trust', () => {
    const {detail, hint} = explainRejection(token({aud: [`${server}/`], iss: 'https://hub'}), server, now)
    assert.match(
      detail,
      /from issuer https:\/\/hub for audience https:\/\/target:6443\/: the target does not trust that issuer/,
    )
    assert.match(
      hint,
      /must trust issuer https:\/\/hub for audience https:\/\/target:6443 \(AuthenticationConfiguration/,
    )
  })

  it('names an expired token first', () => {
    const {detail} = explainRejection(
      {token: jwt({aud: ['https://elsewhere'], exp: seconds('2026-12-01T00:00:00Z')})},
      server,
      now,
    )
    assert.match(detail, /it expired at 2026-12-01T00:00:00Z$/)
  })

  it('handles opaque tokens and client certificates', () => {
    assert.match(
      explainRejection({token: 'opaque'}, server, now).detail,
      /rejected the bearer token \(401 Unauthorized; opaque, 6 characters\)/,
    )
    const certificate = explainRejection({clientCertificateData: clientPem, clientKeyData: 'k'}, server, now)
    assert.match(
      certificate.detail,
      /rejected the client certificate CN=alice, O=devs, issued by CN=doctor-test-ca/,
    )
    assert.match(
      certificate.hint,
      /--client-ca-file must include the CA that issued it \(CN=doctor-test-ca\)/,
    )
  })
})

describe('judgeCache', () => {
  const key = 'a'.repeat(64)
  const base: CacheFiles = {
    dir: '/c/credentials',
    dirInfo: {mode: 0o40700, uid: 1000},
    file: `/c/credentials/${key}.json`,
    uid: 1000,
  }
  const entryText = (expires: string) =>
    serializeEntry(
      createEntry(
        key,
        {token: 'secret-token', expirationTimestamp: expires, expiresAt: new Date(expires)},
        now,
      )!,
    )
  const file = {mode: 0o100600, uid: 1000}

  it('is fine without a directory or an entry', () => {
    assert.equal(
      judgeCache({...base, dirInfo: undefined}, key, 'ns/p', now).outcome.detail,
      'no cached credentials yet (/c/credentials does not exist)',
    )
    assert.match(
      judgeCache(base, key, 'ns/p', now).outcome.detail,
      /^no entry for ns\/p: the next credential comes from the plugin/,
    )
  })

  it('describes a usable entry (never its token) and hands it back for a check against the target', () => {
    const {outcome, usable} = judgeCache(
      {...base, fileInfo: file, text: entryText('2027-01-01T01:00:00Z')},
      key,
      'ns/p',
      now,
    )
    assert.equal(outcome.status, 'ok')
    assert.equal(
      outcome.detail,
      `${base.file} (0600): bearer token, expires 2027-01-01T01:00:00Z, served until 2027-01-01T00:59:00Z`,
    )
    assert.equal(usable?.credential.token, 'secret-token')
    assert.ok(!outcome.detail.includes('secret-token'))
  })

  it('says an expired entry will be replaced, and a corrupt one ignored', () => {
    const expired = judgeCache(
      {...base, fileInfo: file, text: entryText('2027-01-01T00:00:30Z')},
      key,
      'ns/p',
      now,
    )
    assert.deepEqual([expired.outcome.status, expired.usable], ['ok', undefined])
    assert.match(expired.outcome.detail, /^an expired entry/)
    const corrupt = judgeCache({...base, fileInfo: file, text: '{'}, key, 'ns/p', now)
    assert.equal(corrupt.outcome.status, 'warn')
    assert.equal(corrupt.outcome.hint, "remove it with 'cpcred cache clear ns/p'")
  })

  it('fails an entry other users can read, and warns on a lax or foreign directory', () => {
    const open = judgeCache(
      {...base, fileInfo: {mode: 0o100644, uid: 1000}, text: entryText('2027-01-01T01:00:00Z')},
      key,
      'ns/p',
      now,
    )
    assert.deepEqual([open.outcome.status, open.outcome.exitCode], ['fail', 1])
    assert.match(open.outcome.detail, /is mode 0644: other users may read the cached credential of ns\/p$/)
    const foreign = judgeCache({...base, fileInfo: {mode: 0o100600, uid: 0}}, key, 'ns/p', now)
    assert.match(foreign.outcome.detail, /belongs to another user \(uid 0\)/)
    const lax = judgeCache({...base, dirInfo: {mode: 0o40755, uid: 1000}}, key, 'ns/p', now)
    assert.deepEqual([lax.outcome.status, lax.outcome.hint], ['warn', 'chmod 700 /c/credentials'])
    const theirs = judgeCache({...base, dirInfo: {mode: 0o40700, uid: 0}}, key, 'ns/p', now)
    assert.match(theirs.outcome.detail, /so cpcred does not use the cache$/)
  })
})

describe('a hub outage: what credential and exec do meanwhile', () => {
  const day = 24 * 3_600_000
  it('names the copy in use and how long it may still be used', () => {
    assert.equal(
      hubOutageHint({maxStaleMs: day, profile: 'fleet/eu', ageMs: 5 * 60_000}),
      'meanwhile cpcred credential and exec use fleet/eu as read 5m ago (--profile-max-stale 24h0m0s: 23h more), with credentials already cached',
    )
  })

  it('says when they fail instead: no copy, a copy too old, or --profile-max-stale 0s', () => {
    assert.match(hubOutageHint({maxStaleMs: day, profile: 'fleet/eu'}), /^no copy of fleet\/eu was kept/)
    assert.match(
      hubOutageHint({maxStaleMs: day, profile: 'fleet/eu', ageMs: 2 * day}),
      /read 2d ago, older than --profile-max-stale 24h0m0s allows: .* fail for it/,
    )
    assert.match(
      hubOutageHint({maxStaleMs: 0, profile: 'fleet/eu', ageMs: 1000}),
      /fail until the hub is back/,
    )
  })

  it('speaks of profiles in general when none is checked', () => {
    assert.match(hubOutageHint({maxStaleMs: day}), /use profiles read within --profile-max-stale 24h0m0s/)
  })
})
