// `npm test`: unit tests, then integration tests against one real hub + spoke for the whole run.
// The environment is built (first run only), started in a private temporary directory, shared by
// every test file through CPCRED_TESTENV, and stopped on every exit path. The tests find the
// kubectl of the clusters' release first on PATH: it is the oracle for every kubeconfig.
//
// `--skew` (npm run test:skew) runs the version-skew job instead: the oldest kube-apiserver and the
// oldest kubectl cpcred supports, through the tests of what kubectl consumes (SKEW_FILES).
import {spawn} from 'node:child_process'
import {mkdir, mkdtemp, readdir, symlink} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {SKEW_KUBERNETES_VERSION, skewKubectl} from './testenv/binaries.js'
import {down, up} from './testenv/testenv.js'

/**
 * What the skew job runs: what writes kubeconfigs and credentials that kubectl then reads, and get,
 * whose merged table must be what that release's kubectl prints from that release's server.
 */
const SKEW_FILES = ['kubeconfig', 'exec', 'sync', 'credential', 'get'].map(
  (name) => `test/integration/${name}.test.ts`,
)

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

async function testFiles(dir: string): Promise<string[]> {
  const names = await readdir(path.join(root, dir))
  return names
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join(dir, name))
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const skew = args[0] === '--skew'
  const only = skew ? args.slice(1) : args
  const files = only.length
    ? only
    : skew
      ? SKEW_FILES
      : [...(await testFiles('test/unit')), ...(await testFiles('test/integration'))]
  const needsEnv = files.some((file) => file.includes('integration'))

  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-testenv-'))
  // The kubectl the tests run: the clusters' own release, or for the skew job the oldest one.
  const kubectlDir = path.join(dir, 'kubectl-bin')
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    if (needsEnv) await down(dir)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void stop().then(() => process.exit(130)))
  }
  try {
    let PATH = process.env.PATH
    if (needsEnv) {
      const started = Date.now()
      const env = await up(dir, (line) => console.error(`testenv: ${line}`), {
        kubernetesVersion: skew ? SKEW_KUBERNETES_VERSION : undefined,
      })
      await mkdir(kubectlDir)
      await symlink(skew ? skewKubectl() : env.kubectl, path.join(kubectlDir, 'kubectl'))
      PATH = `${kubectlDir}${path.delimiter}${PATH}`
      console.error(`testenv: up in ${((Date.now() - started) / 1000).toFixed(1)}s (${dir})`)
    }
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
        cwd: root,
        stdio: 'inherit',
        env: {...process.env, PATH, CPCRED_TESTENV: dir, NO_COLOR: '1'},
      })
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)))
    })
  } finally {
    await stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`test run failed: ${error.stack ?? error}`)
    process.exit(1)
  },
)
