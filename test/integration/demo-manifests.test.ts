// The admin guides' manifests (docs/examples), applied to the real hub and spoke exactly as
// `npm run demo` applies them (scripts/manifests.ts), in a namespace of their own: the consumer they
// define can do what the guides promise through cpcred, and nothing more.
import assert from 'node:assert/strict'
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {
  applyAccessExamples,
  applyProfileExamples,
  AUTHENTICATION_CONFIG_FILE,
  documentedVariables,
  examplesDir,
  loadExample,
  PROFILES,
  providerFileForCheckout,
  readExample,
  REACHABLE_SELECTOR,
  spokeIdentity,
  STAND_IN_SERVICE_ACCOUNT,
  usedVariables,
  WORKLOAD_SERVICE_ACCOUNT,
  writeConsumerKubeconfig,
  type ExampleTarget,
  type Variables,
} from '../../scripts/manifests.js'
import {
  cpcred,
  cpcredBin,
  isolatedEnv,
  repoRoot,
  runProgram,
  tempDir,
  testEnv,
  uniqueName,
  type RunResult,
} from '../helpers/env.js'
import {kubeCall, kubeRequest, type Connection} from '../testenv/http.js'
import {LINT_RULES} from '../../src/core/lint/rules.js'

const CLUSTERSET = 'guides'

function usernameOf(result: RunResult): string {
  assert.equal(result.code, 0, result.stderr)
  return (JSON.parse(result.stdout) as {status: {userInfo: {username: string}}}).status.userInfo.username
}

describe('docs/examples: the admin guides on the real hub and spoke', () => {
  let target: ExampleTarget
  let variables: Variables
  let namespace: string
  let consumer: Connection
  let consumerEnv: NodeJS.ProcessEnv
  const profile = (name: string) => `${namespace}/${name}`

  before(async () => {
    const {env, hub, spoke} = await testEnv()
    namespace = uniqueName('guides')
    target = {
      hub,
      spoke,
      spokeServer: env.spoke.server,
      spokeCaData: env.spoke.caData,
      namespace,
      clusterset: CLUSTERSET,
    }
    variables = await applyAccessExamples(target)
    await applyProfileExamples(hub, variables)

    const dir = await tempDir('cpcred-guides-')
    const kubeconfig = path.join(dir, 'consumer.kubeconfig')
    const {token} = await writeConsumerKubeconfig(
      kubeconfig,
      hub,
      {server: env.hub.server, caData: env.hub.caData},
      namespace,
    )
    consumer = {server: env.hub.server, caPem: hub.caPem, bearerToken: token}
    const providerFile = path.join(dir, 'providers.json')
    await writeFile(
      providerFile,
      JSON.stringify(await providerFileForCheckout(process.execPath, cpcredBin)),
      {mode: 0o600},
    )
    consumerEnv = {KUBECONFIG: kubeconfig, CPCRED_PROVIDER_FILE: providerFile}
  })

  const asConsumer = (args: string[], env: NodeJS.ProcessEnv = {}) => cpcred(args, {...consumerEnv, ...env})

  it('every example file documents exactly the variables it uses, and refuses to run with one missing', async () => {
    const files = (await readdir(examplesDir)).filter((file) => file.endsWith('.yaml'))
    assert.ok(files.length >= 9, `examples: ${files.join(', ')}`)
    for (const file of files) {
      const text = await readExample(file)
      assert.deepEqual(documentedVariables(text), usedVariables(text), `${file}: header vs. YAML`)
    }
    const {NAMESPACE: _omitted, ...withoutNamespace} = variables
    await assert.rejects(
      loadExample('hub-consumer.yaml', withoutNamespace),
      /^Error: docs\/examples\/hub-consumer\.yaml: \$\{NAMESPACE\} has no value$/,
    )
  })

  it('the AuthenticationConfiguration example is the one the spoke runs with, the PEM kept intact', async () => {
    const {env, hub} = await testEnv()
    const [example] = await loadExample(AUTHENTICATION_CONFIG_FILE, {
      HUB_ISSUER: env.hub.issuer,
      SPOKE_SERVER: env.spoke.server,
      HUB_CA_PEM: hub.caPem,
    })
    const running = YAML.parse(await readFile(path.join(env.dir, 'spoke-authentication-config.yaml'), 'utf8'))
    const withTrimmedCa = (config: {jwt: {issuer: {certificateAuthority: string}}[]}) => {
      for (const {issuer} of config.jwt) issuer.certificateAuthority = issuer.certificateAuthority.trim()
      return config
    }
    assert.deepEqual(withTrimmedCa(example as never), withTrimmedCa(running))
    assert.match(JSON.stringify(example), /-----BEGIN CERTIFICATE-----\\n[A-Za-z0-9+/=]{64}\\n/)
  })

  it('the consumer lists the profiles, but cannot read Secrets in general nor request other tokens', async () => {
    const listed = await asConsumer(['list', '-n', namespace, '-o', 'name'])
    assert.equal(listed.code, 0, listed.stderr)
    assert.deepEqual(
      listed.stdout.trim().split('\n').sort(),
      Object.values(PROFILES)
        .map((name) => `clusterprofile.multicluster.x-k8s.io/${name}`)
        .sort(),
    )
    const reachable = await asConsumer(['list', '-A', '-l', REACHABLE_SELECTOR, '--usable', '-o', 'name'])
    assert.equal(reachable.code, 0, reachable.stderr)
    for (const name of [PROFILES.secretreader, PROFILES.tokenRequest, PROFILES.legacy]) {
      assert.ok(reachable.stdout.includes(`/${name}\n`), reachable.stdout)
    }
    // sync --watch and list --watch need `watch`; a watch of one namespace answers at once.
    const watched = await asConsumer(['sync', '-n', namespace, '--all', '--dry-run', '-o', 'json'])
    assert.equal(watched.code, 0, watched.stderr)
    const watch = await kubeRequest(
      consumer,
      'GET',
      `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles?watch=true&timeoutSeconds=1`,
    )
    assert.equal(watch.status, 200, watch.body)
    const wide = await asConsumer(['list', '-n', namespace, '-o', 'wide'])
    assert.equal(wide.code, 0, wide.stderr)
    assert.match(wide.stdout, new RegExp(`${PROFILES.tokenRequest} .* ${CLUSTERSET} `))

    const {hub} = await testEnv()
    await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {name: 'another-cluster'},
      stringData: {token: 'not-for-the-consumer'},
    })
    const denied = [
      ['GET', `/api/v1/namespaces/${namespace}/secrets`],
      ['GET', '/api/v1/secrets'],
      ['GET', `/api/v1/namespaces/${namespace}/secrets/another-cluster`],
      ['POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${STAND_IN_SERVICE_ACCOUNT}/token`],
      [
        'DELETE',
        `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles/${PROFILES.legacy}`,
      ],
    ] as const
    for (const [method, url] of denied) {
      const body =
        method === 'POST'
          ? {apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {}}
          : undefined
      const response = await kubeRequest(consumer, method, url, body)
      assert.equal(response.status, 403, `${method} ${url}: ${response.body}`)
    }
    const allowed = await kubeRequest(
      consumer,
      'GET',
      `/api/v1/namespaces/${namespace}/secrets/${variables.CLUSTER_NAME}`,
    )
    assert.equal(allowed.status, 200, allowed.body)
  })

  it('token-request as the consumer: the spoke maps the token to the workload ServiceAccount, which may list namespaces and no more', async () => {
    const whoami = await asConsumer(['whoami', profile(PROFILES.tokenRequest), '-o', 'json'])
    assert.equal(usernameOf(whoami), spokeIdentity(namespace, WORKLOAD_SERVICE_ACCOUNT))

    const namespaces = await asConsumer([
      'exec',
      profile(PROFILES.tokenRequest),
      '--',
      'kubectl',
      'get',
      'ns',
      '-o',
      'name',
    ])
    assert.equal(namespaces.code, 0, namespaces.stderr)
    assert.match(namespaces.stdout, /^namespace\/default$/m)

    const secrets = await asConsumer([
      'exec',
      profile(PROFILES.tokenRequest),
      '--',
      'kubectl',
      'auth',
      'can-i',
      'list',
      'secrets',
      '-A',
    ])
    assert.equal(secrets.code, 1, secrets.stderr)
    assert.equal(secrets.stdout.trim(), 'no')
  })

  it('secretreader as the consumer reads its one Secret, whose token the spoke accepts', async () => {
    const {env} = await testEnv()
    const execInfo = (clusterName: string) =>
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        spec: {
          interactive: false,
          cluster: {
            server: env.spoke.server,
            'certificate-authority-data': env.spoke.caData,
            config: {clusterName},
          },
        },
      })
    const read = await asConsumer(['plugin', 'secretreader'], {
      KUBERNETES_EXEC_INFO: execInfo(variables.CLUSTER_NAME!),
    })
    assert.equal(read.code, 0, read.stderr)
    assert.equal((JSON.parse(read.stdout) as {status: {token: string}}).status.token, variables.STATIC_TOKEN)

    const other = await asConsumer(['plugin', 'secretreader'], {
      KUBERNETES_EXEC_INFO: execInfo('another-cluster'),
    })
    assert.equal(other.code, 4, other.stderr)
    assert.equal(other.stdout, '')

    const whoami = await asConsumer(['whoami', profile(PROFILES.secretreader), '-o', 'json'])
    assert.equal(usernameOf(whoami), spokeIdentity(namespace, STAND_IN_SERVICE_ACCOUNT))
  })

  it('the deprecated-only profile works with a warning; the unusable one names the provider it lacks', async () => {
    const legacy = await asConsumer(['whoami', profile(PROFILES.legacy), '-o', 'json'])
    assert.equal(usernameOf(legacy), spokeIdentity(namespace, WORKLOAD_SERVICE_ACCOUNT))
    assert.match(legacy.stderr, /deprecated status\.credentialProviders/)

    const unusable = await asConsumer(['whoami', profile(PROFILES.unusable)])
    assert.equal(unusable.code, 1, unusable.stderr)
    assert.match(unusable.stderr, /no provider in common .*"gke-workload-identity"/)
  })

  it('applying the examples again is safe: the Secret gets a fresh token that still works, conditions keep their time', async () => {
    const {hub} = await testEnv()
    const profilePath = `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles/${PROFILES.tokenRequest}`
    type Profile = {status: {conditions: {lastTransitionTime: string}[]}}
    const before = await kubeCall<Profile>(hub, 'GET', profilePath)

    const again = await applyAccessExamples(target)
    await applyProfileExamples(hub, {...again, NOW: '2001-02-03T04:05:06Z'})
    assert.notEqual(again.STATIC_TOKEN, variables.STATIC_TOKEN)
    const after = await kubeCall<Profile>(hub, 'GET', profilePath)
    assert.equal(
      after.status.conditions[0]!.lastTransitionTime,
      before.status.conditions[0]!.lastTransitionTime,
    )

    const whoami = await asConsumer(['whoami', profile(PROFILES.secretreader), '-o', 'json'])
    assert.equal(usernameOf(whoami), spokeIdentity(namespace, STAND_IN_SERVICE_ACCOUNT))
  })

  it('docs/lint.md: its CI block lints the example inventory with no error, the JUnit report to show it', async () => {
    const text = await readFile(path.join(repoRoot, 'docs', 'lint.md'), 'utf8')
    const block = /^## In CI$[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(text)?.[1]
    assert.ok(block, 'docs/lint.md has an sh block under "## In CI"')
    const binDir = await tempDir('cpcred-bin-')
    await writeFile(
      path.join(binDir, 'cpcred'),
      `#!/bin/sh\nexec "${process.execPath}" "${cpcredBin}" "$@"\n`,
      {
        mode: 0o755,
      },
    )
    const job = await tempDir('cpcred-lint-job-')
    const result = await runProgram('/bin/sh', ['-ec', block], {
      cwd: job,
      env: {...isolatedEnv, ...consumerEnv, INVENTORY: namespace, PATH: `${binDir}:${process.env.PATH}`},
    })
    assert.equal(result.code, 0, result.stderr)
    const junit = await readFile(path.join(job, 'reports', 'lint.xml'), 'utf8')
    // Every profile, every rule: none fails at --fail-on error.
    assert.match(
      junit,
      new RegExp(
        `<testsuite name="cpcred lint" tests="${Object.keys(PROFILES).length * LINT_RULES.length}" failures="0" errors="0"`,
      ),
    )
    // spoke-legacy offers access only through credentialProviders: it breaks under v1alpha2.
    const report = JSON.parse(await readFile(path.join(job, 'reports', 'lint.json'), 'utf8')) as {
      counts: Record<string, number>
      inventories: {findings: {profile: string; rule: string}[]}[]
    }
    assert.equal(report.counts.error, 0)
    assert.deepEqual(
      report.inventories[0]!.findings.filter((finding) => finding.rule === 'credential-providers-only').map(
        (f) => f.profile,
      ),
      [PROFILES.legacy],
    )
    assert.match(result.stdout, /will break under v1alpha2: see reports\/lint\.json/)
  })
})
