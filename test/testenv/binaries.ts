// Builds the upstream kube-apiserver and etcd from the Go module proxy, once per version, into a
// cache outside the repository. Later runs find the binaries there and start in seconds.
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdir, rename, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import lockfile from 'proper-lockfile'

export const KUBERNETES_VERSION = 'v1.34.10'
export const ETCD_VERSION = 'v3.6.14'

const goModulesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'go')

export interface Binaries {
  kubeApiserver: string
  etcd: string
}

export function binaryCacheDir(): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache')
  return path.join(cacheHome, 'cpcred', 'testbin', `k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}`)
}

function binariesIn(dir: string): Binaries {
  return {kubeApiserver: path.join(dir, 'kube-apiserver'), etcd: path.join(dir, 'etcd')}
}

/** Returns the cached binaries, building whichever is missing (under a lock, so parallel callers build once). */
export async function ensureBinaries(log: (line: string) => void = () => {}): Promise<Binaries> {
  const dir = binaryCacheDir()
  const binaries = binariesIn(dir)
  if (existsSync(binaries.kubeApiserver) && existsSync(binaries.etcd)) return binaries

  await mkdir(dir, {recursive: true})
  const release = await lockfile.lock(dir, {
    lockfilePath: path.join(dir, '.build.lock'),
    stale: 60_000,
    update: 10_000,
    retries: {retries: 200, minTimeout: 1000, maxTimeout: 5000, factor: 1},
  })
  try {
    if (!existsSync(binaries.etcd)) {
      log(`building etcd ${ETCD_VERSION} from the Go module proxy (first run only)…`)
      await goBuild(path.join(goModulesDir, 'etcd'), '.', binaries.etcd, '-s -w')
    }
    if (!existsSync(binaries.kubeApiserver)) {
      log(
        `building kube-apiserver ${KUBERNETES_VERSION} from the Go module proxy (first run only, several minutes)…`,
      )
      await goBuild(
        path.join(goModulesDir, 'kube-apiserver'),
        'k8s.io/kubernetes/cmd/kube-apiserver',
        binaries.kubeApiserver,
        ['-s -w', ...versionLdflags(KUBERNETES_VERSION)].join(' '),
      )
    }
  } finally {
    await release()
  }
  return binaries
}

// kubectl on these machines picks its client version from the server's /version, so the build
// must report the real release instead of the development placeholder.
function versionLdflags(version: string): string[] {
  const [major, minor] = version.replace(/^v/, '').split('.')
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitVersion=${version}`,
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitTreeState=clean`,
  ])
}

async function goBuild(moduleDir: string, pkg: string, output: string, ldflags: string): Promise<void> {
  const partial = `${output}.partial-${process.pid}`
  try {
    await promisify(execFile)('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', partial, pkg], {
      cwd: moduleDir,
      env: {...process.env, CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly -buildvcs=false'},
      maxBuffer: 64 * 1024 * 1024,
    })
    await rename(partial, output)
  } catch (error) {
    await rm(partial, {force: true})
    const stderr = (error as {stderr?: string}).stderr ?? ''
    throw new Error(`go build ${pkg} failed in ${moduleDir}:\n${stderr.slice(-4000)}`)
  }
}
