// cpcred inside a pod of the hub, with the real hub and spoke. The test hub has no kubelet, so a
// "pod" is a process in a private mount namespace (`unshare --mount`) with a tmpfs over
// /var/run/secrets, the pod's service account directory bound into it (a real token of a hub
// ServiceAccount, the hub's CA, a namespace file), KUBERNETES_SERVICE_HOST/PORT naming the hub, and
// no kubeconfig anywhere (HOME a fresh directory, KUBECONFIG unset).
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {before, describe, it} from 'node:test'
import YAML from 'yaml'
import {applyObject, loadExample} from '../../scripts/manifests.js'
import {
  applyProfile,
  cpcredBin,
  createNamespace,
  createServiceAccount,
  repoRoot,
  runProgram,
  serviceAccountToken,
  tempDir,
  testEnv,
  writeProviderFile,
} from '../helpers/env.js'
import {KUBECTL_WHOAMI, tokenRequestProfileOf} from '../helpers/fixtures.js'
import {waitForAccess} from '../testenv/testenv.js'
import {inPod, makePod, podsUnavailable, SERVICE_ACCOUNT_DIR, type Pod} from '../helpers/pods.js'

const JWT = /eyJ[A-Za-z0-9_-]{10,}/

const skip = await podsUnavailable()
if (skip) console.log(`# in-cluster tests skipped: ${skip}`)

describe('cpcred in a pod of the hub (in-cluster config)', {skip}, () => {
  let namespace: string
  let pod: Pod
  let providerFile: string
  const POD_SA = 'ci-runner'

  before(async () => {
    const {env, hub} = await testEnv()
    namespace = await createNamespace(hub, 'in-cluster')
    // The pod's rights come from the documented manifest, applied as written.
    for (const object of await loadExample('in-cluster-rbac.yaml', {
      NAMESPACE: namespace,
      POD_SERVICE_ACCOUNT: POD_SA,
    })) {
      await applyObject(hub, object)
    }
    await waitForAccess(hub, namespace, POD_SA, {
      verb: 'create',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: POD_SA,
    })
    // The profile names no ServiceAccount: in a pod, token-request asks for the pod's own.
    await applyProfile(hub, tokenRequestProfileOf(env.spoke, {namespace, name: 'spoke'}, {}))
    providerFile = await writeProviderFile(await tempDir(), [
      {
        name: 'token-request',
        execConfig: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [cpcredBin, 'plugin', 'token-request'],
          provideClusterInfo: true,
          interactiveMode: 'Never',
        },
      },
    ])
    pod = await makePod(namespace, POD_SA)
  })

  it('the RBAC example is a real set of API objects (kubectl apply --dry-run=server)', async () => {
    const {env} = await testEnv()
    const objects = await loadExample('in-cluster-rbac.yaml', {
      NAMESPACE: namespace,
      POD_SERVICE_ACCOUNT: 'dry-run',
    })
    const file = path.join(await tempDir(), 'in-cluster-rbac.yaml')
    await writeFile(file, objects.map((object) => YAML.stringify(object)).join('---\n'))
    const applied = await runProgram('kubectl', ['apply', '--dry-run=server', '-f', file], {
      env: {PATH: process.env.PATH, HOME: await tempDir(), KUBECONFIG: env.hub.kubeconfig},
    })
    assert.equal(applied.code, 0, applied.stderr)
    assert.match(applied.stdout, /serviceaccount\/dry-run created \(server dry run\)/)
    assert.match(
      applied.stdout,
      /role\.rbac\.authorization\.k8s\.io\/cpcred-in-cluster (created|configured|unchanged) \(server dry run\)/,
    )
  })

  it('list reads the hub from the in-cluster config, in the namespace of the namespace file', async () => {
    const listed = await pod.run(['list', '-o', 'name'])
    assert.equal(listed.code, 0, listed.stderr)
    assert.match(listed.stdout, /spoke/)
    // -n still wins over the namespace file; this ServiceAccount may not read "default".
    const elsewhere = await pod.run(['list', '-n', 'default'])
    assert.equal(elsewhere.code, 4, elsewhere.stderr)
    assert.match(elsewhere.stderr, new RegExp(`system:serviceaccount:${namespace}:${POD_SA}`))
  })

  it("exec reaches the spoke with a token of the pod's own ServiceAccount, audience the spoke", async () => {
    const {env} = await testEnv()
    const execArgs = ['exec', `${namespace}/spoke`, '--provider-file', providerFile, '--', ...KUBECTL_WHOAMI]
    const result = await pod.run(execArgs)
    assert.equal(result.code, 0, result.stderr)
    const usernameOf = (stdout: string) =>
      (JSON.parse(stdout) as {status: {userInfo: {username: string}}}).status.userInfo.username
    const username = usernameOf(result.stdout)
    assert.equal(username, `hub:system:serviceaccount:${namespace}:${POD_SA}`)
    assert.doesNotMatch(result.stderr, JWT)
    // Asked again, it is answered from what the first run kept, for the same pod.
    const again = await pod.run(execArgs)
    assert.equal(again.code, 0, again.stderr)
    assert.equal(usernameOf(again.stdout), username)
    // The plugin alone, as kubectl runs it from a kubeconfig written in the pod (hub pinned "in-cluster").
    const plugin = await runProgram(
      ...inPod(pod.dir, [process.execPath, cpcredBin, 'plugin', 'token-request', '-v']),
      {
        env: {
          ...pod.env,
          KUBECONFIG: '',
          CPCRED_HUB_CONTEXT: 'in-cluster',
          KUBERNETES_EXEC_INFO: JSON.stringify({
            apiVersion: 'client.authentication.k8s.io/v1',
            kind: 'ExecCredential',
            spec: {interactive: false, cluster: {server: env.spoke.server}},
          }),
        },
      },
    )
    assert.equal(plugin.code, 0, plugin.stderr)
    assert.match(
      plugin.stderr,
      new RegExp(`the pod's own ServiceAccount ${namespace}/${POD_SA} on the hub \\(in-cluster config`),
    )
    const token = (JSON.parse(plugin.stdout) as {status: {token: string}}).status.token
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
      aud: string[]
    }
    assert.deepEqual(claims.aud, [env.spoke.server])
  })

  it('a kubeconfig written in the pod, as ~/.kube/config, pins the plugins to the in-cluster config', async () => {
    const script =
      `mkdir -p "$HOME/.kube" && "$0" "$1" kubeconfig ${namespace}/spoke --provider-file "$2" --mode plugin > "$HOME/.kube/config" && ` +
      'kubectl auth whoami -o json'
    const result = await runProgram(
      ...inPod(pod.dir, ['sh', '-c', script, process.execPath, cpcredBin, providerFile]),
      // A home of its own: with ~/.kube/config holding the target, cpcred itself no longer falls back.
      {env: {...pod.env, HOME: await tempDir('cpcred-pod-home-')}},
    )
    assert.equal(result.code, 0, result.stderr)
    const username = (JSON.parse(result.stdout) as {status: {userInfo: {username: string}}}).status.userInfo
      .username
    assert.equal(username, `hub:system:serviceaccount:${namespace}:${POD_SA}`)
  })

  it('re-reads a token file rotated while it runs', async () => {
    const {hub} = await testEnv()
    await createServiceAccount(hub, namespace, 'rotated')
    const child = spawn(
      ...inPod(pod.dir, [
        process.execPath,
        path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        path.join(repoRoot, 'test', 'helpers', 'in-cluster-whoami.ts'),
      ]),
      {env: pod.env, stdio: ['pipe', 'pipe', 'inherit']},
    )
    const lines = createInterface({input: child.stdout!})[Symbol.asyncIterator]()
    const next = async () => String((await lines.next()).value)
    try {
      assert.match(await next(), /^the hub \(in-cluster config, https:/)
      child.stdin!.write('\n')
      assert.equal(await next(), `system:serviceaccount:${namespace}:${POD_SA}`)
      // The kubelet rotates the projected token; the same connection must use the new one.
      await pod.rotate(await serviceAccountToken(hub, namespace, 'rotated'))
      child.stdin!.write('\n')
      assert.equal(await next(), `system:serviceaccount:${namespace}:rotated`)
    } finally {
      child.stdin!.end()
      await new Promise((resolve) => child.once('close', resolve))
      await pod.rotate(await serviceAccountToken(hub, namespace, POD_SA))
    }
  })

  it('doctor names the in-cluster config as the hub source, its token, CA and the RBAC of the pod ServiceAccount', async () => {
    const result = await pod.run(['doctor'])
    assert.match(
      result.stdout,
      new RegExp(
        `in-cluster config \\(KUBERNETES_SERVICE_HOST/PORT, no kubeconfig\\): server https://127\\.0\\.0\\.1:\\d+, ` +
          `token file ${SERVICE_ACCOUNT_DIR}/token \\(ServiceAccount ${namespace}/${POD_SA}\\), CA ${SERVICE_ACCOUNT_DIR}/ca\\.crt, namespace "${namespace}"`,
      ),
      result.stderr,
    )
    assert.match(
      result.stdout,
      new RegExp(`system:serviceaccount:${namespace}:${POD_SA} may get, list, watch`),
    )
    assert.doesNotMatch(result.stdout + result.stderr, JWT)
  })

  it('a pod whose ServiceAccount has no RBAC gets exit 4 naming it', async () => {
    const {hub} = await testEnv()
    await createServiceAccount(hub, namespace, 'unbound')
    const unbound = await makePod(namespace, 'unbound')
    const listed = await unbound.run(['list'])
    assert.equal(listed.code, 4, listed.stderr)
    assert.match(listed.stderr, new RegExp(`system:serviceaccount:${namespace}:unbound`))
    assert.doesNotMatch(listed.stderr, JWT)
    const doctor = await unbound.run(['doctor'])
    assert.equal(doctor.code, 4, doctor.stdout + doctor.stderr)
    assert.match(doctor.stdout, new RegExp(`system:serviceaccount:${namespace}:unbound may not get or list`))
    assert.match(doctor.stdout, /docs\/examples\/in-cluster-rbac\.yaml/)
  })

  it('a pod whose token file is empty gets exit 4 naming the file, not an RBAC refusal of system:anonymous', async () => {
    const empty = await makePod(namespace, POD_SA)
    for (const content of ['', '\n']) {
      await empty.rotate(content)
      const listed = await empty.run(['list'])
      assert.equal(listed.code, 4, listed.stderr)
      assert.match(
        listed.stderr,
        new RegExp(`the pod's service account token ${SERVICE_ACCOUNT_DIR}/token is empty`),
      )
      assert.doesNotMatch(listed.stderr, /system:anonymous|RBAC access/)
      assert.doesNotMatch(listed.stderr, /\n\s+at /, 'no stack trace')
    }
    const doctor = await empty.run(['doctor'])
    assert.equal(doctor.code, 4, doctor.stdout + doctor.stderr)
    assert.match(doctor.stdout + doctor.stderr, new RegExp(`${SERVICE_ACCOUNT_DIR}/token is empty`))
  })

  it('a pod whose token the hub rejects (401) is told about its ServiceAccount token, never to log in again', async () => {
    const rejected = await makePod(namespace, POD_SA)
    // A token in the right shape that the hub's issuer never signed, as a token kept past its life would be.
    await rejected.rotate('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl')
    for (const args of [['list'], ['doctor']]) {
      const result = await rejected.run(args)
      assert.equal(result.code, 4, result.stdout + result.stderr)
      const said = result.stdout + result.stderr
      assert.match(said, /the pod's ServiceAccount token was not accepted/)
      assert.doesNotMatch(said, /log in/)
    }
  })

  it("a profile naming a ServiceAccount the pod may not mint tokens of: the hint speaks of the pod's ServiceAccount, not of kubeconfig contexts", async () => {
    const {env, hub} = await testEnv()
    await createServiceAccount(hub, namespace, 'not-granted')
    const profile = tokenRequestProfileOf(
      env.spoke,
      {namespace, name: 'names-another'},
      {serviceAccount: 'not-granted', namespace},
    )
    await applyProfile(hub, profile)
    const result = await pod.run([
      'exec',
      `${namespace}/names-another`,
      '--provider-file',
      providerFile,
      '--',
      ...KUBECTL_WHOAMI,
    ])
    assert.equal(result.code, 5, result.stderr)
    assert.match(
      result.stderr,
      new RegExp(
        `the pod's ServiceAccount ${namespace}/${POD_SA} \\(the hub identity in a pod\\) needs RBAC verb "create" on serviceaccounts/token with resourceNames \\["not-granted"\\]`,
      ),
    )
    assert.match(result.stderr, /run the pod with a serviceAccountName that has it/)
    assert.doesNotMatch(result.stderr, /KUBECONFIG\/--context/)
  })

  it('an Indexed Job of 3 pods (--shard auto/3) runs every selected profile exactly once, through the in-cluster config', async () => {
    const {env, hub} = await testEnv()
    const names = Array.from({length: 7}, (_, index) => `job-${index}`)
    for (const name of names) {
      await applyProfile(hub, tokenRequestProfileOf(env.spoke, {namespace, name, labels: {fleet: 'job'}}, {}))
    }
    // The Job's pods run at once, each with its own completion index, as the Job controller starts them.
    const pods = await Promise.all(
      [0, 1, 2].map((index) =>
        pod.run(
          [
            'exec',
            '-l',
            'fleet=job',
            '--shard',
            'auto/3',
            '--provider-file',
            providerFile,
            '-o',
            'json',
            '--',
            'kubectl',
            'get',
            '--raw',
            '/readyz',
          ],
          {JOB_COMPLETION_INDEX: String(index)},
        ),
      ),
    )
    const ran: string[] = []
    for (const [index, run] of pods.entries()) {
      assert.equal(run.code, 0, `pod ${index}: ${run.stderr}`)
      // The namespace's name is random, so a pod may draw no share of 7 profiles (about one run in
      // six): it succeeds with nothing to do. What matters is that the shares add up to the fleet.
      const results = JSON.parse(run.stdout || '[]') as {profile: string; outcome: string}[]
      for (const result of results) {
        assert.equal(result.outcome, 'passed', `${result.profile} in pod ${index}`)
        ran.push(result.profile)
      }
    }
    assert.deepEqual(ran.sort(), names.map((name) => `${namespace}/${name}`).sort())
  })

  it('without the service variables it is not a pod: no kubeconfig is a usage error', async () => {
    const {KUBERNETES_SERVICE_HOST: _host, ...notPod} = pod.env
    const result = await runProgram(...inPod(pod.dir, [process.execPath, cpcredBin, 'list']), {env: notPod})
    assert.equal(result.code, 2, result.stderr)
    assert.match(result.stderr, /no kubeconfig found for the hub .* and not in a pod/)
  })
})
