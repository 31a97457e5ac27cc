// A "pod" of the hub for the in-cluster tests. The test hub has no kubelet, so a pod is a process in a
// private mount namespace (`unshare --mount`) with a tmpfs over /var/run/secrets, the pod's service
// account directory bound into it (a real token of a hub ServiceAccount, the hub's CA, a namespace
// file), KUBERNETES_SERVICE_HOST/PORT naming the hub, and no kubeconfig anywhere.
import {rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {cpcredBin, runProgram, serviceAccountToken, tempDir, testEnv, type RunResult} from './env.js'

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

// A tmpfs over /var/run/secrets (or over /var/run where the host has no /var/run/secrets to mount
// on), then the pod's files bound where the kubelet would project them.
/** The words that run `command` as a process of the pod whose files are in `dir` (for runProgram, spawn). */
export function inPod(dir: string, command: string[]): [string, string[]] {
  return ['unshare', ['--mount', 'sh', '-c', POD_SCRIPT, 'pod', dir, ...command]]
}

export const POD_SCRIPT = `set -e
if [ -d /var/run/secrets ]; then mount -t tmpfs tmpfs /var/run/secrets; else mount -t tmpfs tmpfs /var/run; fi
mkdir -p ${SERVICE_ACCOUNT_DIR}
mount --bind "$1" ${SERVICE_ACCOUNT_DIR}
shift
exec "$@"`

/** Why pods cannot be made here, or undefined when they can. */
export async function podsUnavailable(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'mount namespaces are Linux only'
  const dir = await tempDir('cpcred-pod-probe-')
  const probe = await runProgram(...inPod(dir, ['true']))
  return probe.code === 0
    ? undefined
    : `unshare --mount with a tmpfs is not allowed here (needs root or CAP_SYS_ADMIN): ${probe.stderr.trim()}`
}

export interface Pod {
  dir: string
  env: NodeJS.ProcessEnv
  /** Runs cpcred in the pod; `env` adds to the pod's environment (a Job's JOB_COMPLETION_INDEX). */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<RunResult>
  rotate(token: string): Promise<void>
}

/** A "pod" of ServiceAccount namespace/name: its files, its environment, and how to run in it. */
export async function makePod(namespace: string, serviceAccount: string): Promise<Pod> {
  const {env, hub} = await testEnv()
  const dir = await tempDir('cpcred-pod-sa-')
  const home = await tempDir('cpcred-pod-home-')
  await writeFile(path.join(dir, 'ca.crt'), Buffer.from(env.hub.caData, 'base64'))
  await writeFile(path.join(dir, 'namespace'), namespace)
  const rotate = async (token: string) => {
    // As the kubelet does: the new file whole, renamed over the old.
    await writeFile(path.join(dir, '.token.new'), token, {mode: 0o600})
    await rename(path.join(dir, '.token.new'), path.join(dir, 'token'))
  }
  await rotate(await serviceAccountToken(hub, namespace, serviceAccount))
  const url = new URL(env.hub.server)
  const podEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    NO_COLOR: '1',
    KUBERNETES_SERVICE_HOST: url.hostname,
    KUBERNETES_SERVICE_PORT: url.port,
  }
  return {
    dir,
    env: podEnv,
    rotate,
    run: (args, env = {}) =>
      runProgram(...inPod(dir, [process.execPath, cpcredBin, ...args]), {env: {...podEnv, ...env}}),
  }
}
