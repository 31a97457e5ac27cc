// The in-cluster hub config's pure rules, as client-go has them: when clientcmd falls back to it,
// the server, the namespace, who the token names, and how plugins find a hub pinned "in-cluster".
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  fallsBackToInCluster,
  inClusterKubeconfig,
  inClusterNamespace,
  inClusterPossible,
  inClusterServer,
  isEmptyKubeconfig,
  serviceAccountOfToken,
  tokenExpiry,
} from '../../src/core/kubeconfig/in-cluster.js'
import {judgeInClusterConfig} from '../../src/core/doctor/hub.js'
import {hubSelection} from '../../src/core/exec-credential/exec-info.js'
import {pinnedEnv, pinsInCluster} from '../../src/core/profiles/hub-pin.js'
import type {Resolution} from '../../src/core/access/resolve-access.js'

const POD = {KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443'}
const jwt = (claims: unknown) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`

describe('in-cluster config: the fallback order of clientcmd', () => {
  const base = {explicitKubeconfig: false, contextFlag: false, kubeconfigEmpty: true, possible: true}
  const cases: [string, Partial<typeof base>, boolean][] = [
    ['no kubeconfig, in a pod', {}, true],
    ['--kubeconfig names a file', {explicitKubeconfig: true}, false],
    ['--context is given', {contextFlag: true}, false],
    ['KUBECONFIG or ~/.kube/config holds something', {kubeconfigEmpty: false}, false],
    ['not in a pod', {possible: false}, false],
  ]
  for (const [name, facts, expected] of cases) {
    it(`${name}: ${expected ? 'in-cluster' : 'the kubeconfig'}`, () => {
      assert.equal(fallsBackToInCluster({...base, ...facts}), expected)
    })
  }

  it('is possible only with both variables set and the token a file', () => {
    assert.equal(inClusterPossible(POD, true), true)
    assert.equal(inClusterPossible(POD, false), false)
    assert.equal(inClusterPossible({...POD, KUBERNETES_SERVICE_HOST: ''}, true), false)
    assert.equal(inClusterPossible({KUBERNETES_SERVICE_HOST: 'h'}, true), false)
  })

  it('counts a kubeconfig with nothing in it as empty', () => {
    assert.equal(isEmptyKubeconfig({clusters: [], users: [], contexts: [], contextSources: {}}), true)
    assert.equal(
      isEmptyKubeconfig({clusters: [], users: [], contexts: [], 'current-context': 'x', contextSources: {}}),
      false,
    )
  })

  it('joins host and port like net.JoinHostPort', () => {
    assert.equal(inClusterServer(POD), 'https://10.0.0.1:443')
    assert.equal(
      inClusterServer({KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443'}),
      'https://[fd00::1]:6443',
    )
  })

  it('takes the namespace from -n, then POD_NAMESPACE, then the namespace file, then "default"', () => {
    assert.equal(inClusterNamespace('flag', {POD_NAMESPACE: 'env'}, 'file'), 'flag')
    assert.equal(inClusterNamespace(undefined, {POD_NAMESPACE: 'env'}, 'file'), 'env')
    assert.equal(inClusterNamespace(undefined, {}, 'ci-runs\n'), 'ci-runs')
    assert.equal(inClusterNamespace(undefined, {}, '  \n'), 'default')
    assert.equal(inClusterNamespace(undefined, {}, undefined), 'default')
  })

  it('makes a kubeconfig of the token file and the CA, context "in-cluster"', () => {
    const merged = inClusterKubeconfig({
      server: 'https://h:1',
      caFile: '/sa/ca.crt',
      tokenFile: '/sa/token',
      namespace: 'ci',
    })
    assert.equal(merged['current-context'], 'in-cluster')
    assert.deepEqual(merged.users, [{name: 'in-cluster', user: {tokenFile: '/sa/token'}}])
    assert.deepEqual(merged.clusters, [
      {name: 'in-cluster', cluster: {server: 'https://h:1', 'certificate-authority': '/sa/ca.crt'}},
    ])
    const noCa = inClusterKubeconfig({
      server: 'https://h:1',
      caFile: undefined,
      tokenFile: '/t',
      namespace: 'ci',
    })
    assert.deepEqual(noCa.clusters[0]!.cluster, {server: 'https://h:1'})
  })
})

describe("the pod's ServiceAccount, from its token", () => {
  it('reads the kubernetes.io claim of a projected token', () => {
    assert.deepEqual(
      serviceAccountOfToken(
        jwt({
          sub: 'system:serviceaccount:x:y',
          'kubernetes.io': {namespace: 'ci', serviceaccount: {name: 'runner', uid: 'u'}},
        }),
      ),
      {namespace: 'ci', name: 'runner'},
    )
  })
  it('falls back to sub', () => {
    assert.deepEqual(serviceAccountOfToken(jwt({sub: 'system:serviceaccount:ci:runner'})), {
      namespace: 'ci',
      name: 'runner',
    })
  })
  it('names nothing for other tokens', () => {
    assert.equal(serviceAccountOfToken(jwt({sub: 'alice'})), undefined)
    assert.equal(serviceAccountOfToken('not-a-jwt'), undefined)
    assert.equal(serviceAccountOfToken('a.%%%.b'), undefined)
  })
})

describe('a hub pinned "in-cluster"', () => {
  const resolution = {
    provider: {execConfig: {}},
    execConfig: {env: [{name: 'A', value: '1'}]},
  } as unknown as Resolution
  it('pins an empty KUBECONFIG and the context "in-cluster", not a file', () => {
    assert.deepEqual(pinnedEnv(resolution, {kubeconfigPaths: [], context: 'in-cluster', inCluster: true}), [
      {name: 'A', value: '1'},
      {name: 'KUBECONFIG', value: ''},
      {name: 'CPCRED_HUB_CONTEXT', value: 'in-cluster'},
    ])
  })
  it('is read back by the built-in plugins as the in-cluster config', () => {
    const env = {KUBECONFIG: '', CPCRED_HUB_CONTEXT: 'in-cluster'}
    assert.equal(pinsInCluster(env), true)
    assert.deepEqual(hubSelection({namespace: 'n'}, env), {namespace: 'n', inCluster: true, source: 'env'})
    // A context of that name in a real KUBECONFIG is only a context.
    assert.equal(pinsInCluster({KUBECONFIG: '/hub', CPCRED_HUB_CONTEXT: 'in-cluster'}), false)
    assert.equal(hubSelection({context: 'other'}, env).inCluster, undefined)
    assert.equal(hubSelection({kubeconfig: '/k'}, env).inCluster, undefined)
  })
})

describe('doctor on the in-cluster config', () => {
  const now = new Date('2030-01-01T00:00:00Z')
  const facts = {
    server: 'https://10.0.0.1:443',
    dir: '/sa',
    namespace: 'ci',
    serviceAccount: {namespace: 'ci', name: 'runner'},
    caFile: '/sa/ca.crt',
    tokenExpiresAt: now.getTime() + 60_000,
    now,
  }
  it('names the in-cluster config, the token file, its ServiceAccount, the CA and the namespace', () => {
    const outcome = judgeInClusterConfig(facts)
    assert.equal(outcome.status, 'ok')
    assert.match(
      outcome.detail,
      /^in-cluster config .*server https:\/\/10\.0\.0\.1:443, token file \/sa\/token \(ServiceAccount ci\/runner\), CA \/sa\/ca\.crt, namespace "ci"/,
    )
  })
  it('fails an expired token with exit 4, warns on a missing CA or a token naming no ServiceAccount', () => {
    const expired = judgeInClusterConfig({...facts, tokenExpiresAt: now.getTime() - 120_000})
    assert.equal(expired.status, 'fail')
    assert.equal(expired.exitCode, 4)
    assert.match(expired.detail, /the token expired 2m ago|the token expired/)
    assert.equal(judgeInClusterConfig({...facts, caFile: undefined}).status, 'warn')
    assert.equal(judgeInClusterConfig({...facts, serviceAccount: undefined}).status, 'warn')
  })
  it('reads the expiry of the token', () => {
    assert.equal(tokenExpiry(jwt({exp: 1_900_000_000})), 1_900_000_000_000)
    assert.equal(tokenExpiry(jwt({sub: 'x'})), undefined)
  })
})
